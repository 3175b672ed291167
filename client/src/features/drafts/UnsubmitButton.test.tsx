import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError } from '../../test/api';
import { createAssignment, createOwnSubmission, daysFromNow } from '../../test/factories';
import { renderAssignments } from '../../test/renderRoute';
import { answerConfirm } from '../../test/confirm';
import { findToast } from '../../test/renderWithProviders';
import { UNSUBMIT_CONFIRMATION } from './UnsubmitButton';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('Unsubmit', () => {
  it('takes an ungraded submission back before the due time, after asking', async () => {
    const assignment = createAssignment({ title: 'Taken back', submission: createOwnSubmission() });
    const { user, calls } = renderAssignments('student', {
      'GET /api/assignments': { body: [assignment] },
      [`DELETE /api/assignments/${assignment.id}/submission`]: {
        body: { content: 'My answer', version: 1, updatedAt: new Date().toISOString() },
      },
    });
    const card = await screen.findByRole('article', { name: 'Taken back' });
    await user.click(within(card).getByRole('button', { name: 'Unsubmit' }));
    await answerConfirm(user, 'Unsubmit', UNSUBMIT_CONFIRMATION);
    expect(await findToast('Submission taken back: it is a draft again.')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(true);
    await waitFor(() => expect(within(card).getByRole('button', { name: 'Submit' })).toBeInTheDocument());
  });

  it('is not offered once graded or past due', async () => {
    const graded = createAssignment({
      title: 'Graded',
      submission: createOwnSubmission({ grade: 8, gradedAt: new Date().toISOString() }),
    });
    const late = createAssignment({
      title: 'Past due',
      dueDate: daysFromNow(-1),
      submission: createOwnSubmission(),
    });
    renderAssignments('student', { 'GET /api/assignments': { body: [graded, late] } });
    for (const title of ['Graded', 'Past due']) {
      const card = await screen.findByRole('article', { name: title });
      expect(within(card).queryByRole('button', { name: 'Unsubmit' })).not.toBeInTheDocument();
    }
  });

  it("shows the server's reason when it refuses", async () => {
    const assignment = createAssignment({ title: 'Refused', submission: createOwnSubmission() });
    const { user } = renderAssignments('student', {
      'GET /api/assignments': { body: [assignment] },
      [`DELETE /api/assignments/${assignment.id}/submission`]: apiError(
        409,
        'This submission is graded, so it cannot be taken back.',
        'already_graded',
      ),
    });
    const card = await screen.findByRole('article', { name: 'Refused' });
    await user.click(within(card).getByRole('button', { name: 'Unsubmit' }));
    await answerConfirm(user, 'Unsubmit');
    expect(await findToast('This submission is graded, so it cannot be taken back.')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Unsubmit' })).toBeInTheDocument();
  });

  it('says nothing about grading when the server holds a grade back (a neutral refusal)', async () => {
    // A held grade reaches the student as an ungraded submission: Unsubmit is offered, then refused.
    const assignment = createAssignment({ title: 'Held', submission: createOwnSubmission() });
    const { user } = renderAssignments('student', {
      'GET /api/assignments': { body: [assignment] },
      [`DELETE /api/assignments/${assignment.id}/submission`]: apiError(
        409,
        'This submission can no longer be taken back. Ask your teacher if you need to change it.',
      ),
    });
    const card = await screen.findByRole('article', { name: 'Held' });
    await user.click(within(card).getByRole('button', { name: 'Unsubmit' }));
    await answerConfirm(user, 'Unsubmit');
    const toast = await findToast(/can no longer be taken back/);
    expect(toast.closest('[data-sonner-toast]')).not.toHaveTextContent(/grade/i);
    expect(card).not.toHaveTextContent(/grade/i);
    expect(within(card).getByRole('button', { name: 'Unsubmit' })).toBeInTheDocument();
  });
});
