import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, type Route } from '../../test/api';
import { createAssignment, createOwnSubmission } from '../../test/factories';
import { renderAssignments } from '../../test/renderRoute';
import { findToast } from '../../test/renderWithProviders';

afterEach(() => {
  vi.unstubAllGlobals();
});

async function openSubmit(routes: (id: string) => Record<string, Route> = () => ({})) {
  const assignment = createAssignment({ title: 'Reading response', description: 'Read chapter 3.' });
  const view = renderAssignments('student', {
    'GET /api/assignments': { body: [assignment] },
    ...routes(assignment.id),
  });
  const card = await screen.findByRole('article', { name: 'Reading response' });
  await view.user.click(within(card).getByRole('button', { name: 'Submit' }));
  return { ...view, assignment, dialog: screen.getByRole('dialog', { name: 'Submit Assignment' }) };
}

describe('SubmitAssignmentModal', () => {
  it('asks for the submission in an 8-row, required text area and shows the instructions', async () => {
    const { dialog } = await openSubmit();
    const content = within(dialog).getByLabelText('Your Submission');
    expect(content).toHaveAttribute('rows', '8');
    expect(content).toBeRequired();
    expect(content).toHaveAttribute('placeholder', 'Type your submission here...');
    expect(content).toHaveFocus();
    expect(dialog).toHaveTextContent('Read chapter 3.');
  });

  it('sends nothing for blank content, and says why (a press always answers)', async () => {
    const { dialog, user, calls } = await openSubmit();
    await user.type(within(dialog).getByLabelText('Your Submission'), '   ');
    await user.click(within(dialog).getByRole('button', { name: 'Submit Assignment' }));
    expect(await findToast('Write your answer or attach a file before submitting it.')).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
    expect(screen.getByRole('dialog', { name: 'Submit Assignment' })).toBeInTheDocument();
  });

  it('submits, confirms, and marks the assignment Submitted', async () => {
    const submission = createOwnSubmission();
    const { dialog, user, calls } = await openSubmit((id) => ({
      [`POST /api/assignments/${id}/submissions`]: { status: 201, body: submission },
    }));
    await user.type(within(dialog).getByLabelText('Your Submission'), 'Line one{Enter}Line two');
    await user.click(within(dialog).getByRole('button', { name: 'Submit Assignment' }));

    expect(await findToast('Assignment submitted!')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ content: 'Line one\nLine two' });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    const card = screen.getByRole('article', { name: 'Reading response' });
    expect(card.querySelector('.status-badge')).toHaveTextContent('Submitted');
    expect(within(card).getByRole('button', { name: 'View Submission' })).toBeEnabled();
  });

  it("toasts the server's message when the submission is refused", async () => {
    const { dialog, user } = await openSubmit((id) => ({
      [`POST /api/assignments/${id}/submissions`]: apiError(
        409,
        'You have already submitted this assignment.',
      ),
    }));
    await user.type(within(dialog).getByLabelText('Your Submission'), 'Again');
    await user.click(within(dialog).getByRole('button', { name: 'Submit Assignment' }));
    expect(await findToast('You have already submitted this assignment.')).toBeInTheDocument();
  });

  it("lands focus on the card's new status, not on the page, once the Submit button is gone", async () => {
    const { dialog, user } = await openSubmit((id) => ({
      [`POST /api/assignments/${id}/submissions`]: { status: 201, body: createOwnSubmission() },
    }));
    await user.type(within(dialog).getByLabelText('Your Submission'), 'My answer');
    // Past Attach files to the footer's Submit.
    await user.keyboard('{Tab}{Tab}{Tab}{Enter}');

    // (No toast check: the previous test's toast of the same text may still be showing.)
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const card = screen.getByRole('article', { name: 'Reading response' });
    expect(within(card).queryByRole('button', { name: 'Submit' })).not.toBeInTheDocument();
    await waitFor(() => expect(document.activeElement).not.toBe(document.body));
    expect(card).toContainElement(document.activeElement as HTMLElement);
    expect(document.activeElement).toHaveTextContent(/^Submitted /);
  });
});
