import { receiptId, type LiveEvent, type SubmissionView } from '@classwave/shared';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyLiveEvent } from '../../realtime/applyLiveEvent';
import { apiError, type Reply } from '../../test/api';
import { createAssignment, createOwnSubmission, createSubmission } from '../../test/factories';
import { renderAssignments } from '../../test/renderRoute';
import { receiptTime } from './SubmissionViewModal';

afterEach(() => {
  vi.unstubAllGlobals();
});

const ANSWER = 'First line\n\n    indented second line — مرحبا';

/** A submitted assignment on the student's list, and the server's view of that submission. */
function submitted(overrides: { grade?: number; feedback?: string } = {}) {
  const own = createOwnSubmission({ submittedAt: '2030-03-04T09:08:07.000Z' });
  const assignment = createAssignment({
    title: 'Lab report',
    maxPoints: 20,
    submission: own,
    status: 'submitted',
    dueDate: '2030-03-05T12:00:00.000Z',
  });
  const returned = overrides.grade !== undefined;
  const view: SubmissionView = {
    assignmentId: assignment.id,
    status: returned ? 'returned' : 'submitted',
    submission: {
      ...own,
      grade: overrides.grade ?? null,
      feedback: overrides.feedback ?? null,
      gradedAt: returned ? '2030-03-06T10:00:00.000Z' : null,
      returnedAt: returned ? '2030-03-06T10:00:00.000Z' : null,
      content: ANSWER,
      receipt: { id: receiptId(own.id), at: own.submittedAt },
    },
    history: [
      { kind: 'submitted', at: '2030-03-04T08:00:00.000Z', receiptId: 'AAAA-0001' },
      { kind: 'unsubmitted', at: '2030-03-04T08:30:00.000Z', receiptId: 'AAAA-0001' },
      { kind: 'submitted', at: own.submittedAt, receiptId: receiptId(own.id) },
    ],
  };
  return { assignment, view };
}

async function openView(assignment: ReturnType<typeof submitted>['assignment'], reply: () => Reply) {
  const rendered = renderAssignments('student', {
    'GET /api/assignments': { body: [assignment] },
    [`GET /api/assignments/${assignment.id}/submission`]: reply,
  });
  const card = await screen.findByRole('article', { name: 'Lab report' });
  const button = within(card).getByRole('button', { name: 'View Submission' });
  await rendered.user.click(button);
  const dialog = await screen.findByRole('dialog', { name: 'Your Submission' });
  return { ...rendered, dialog, button };
}

describe('View Submission', () => {
  it('shows the submitted text read-only, the receipt, the status and the history in local times', async () => {
    const { assignment, view } = submitted();
    const { dialog } = await openView(assignment, () => ({ body: view }));

    const text = await within(dialog).findByRole('region', { name: 'Your answer' });
    // The text as sent, every line break and space kept, in its own direction, and not editable.
    expect(text.textContent).toBe(ANSWER);
    expect(text).toHaveAttribute('dir', 'auto');
    expect(text).toHaveClass('submission-view__text');
    expect(within(dialog).queryByRole('textbox')).not.toBeInTheDocument();

    expect(dialog).toHaveAccessibleDescription('Lab report');
    expect(
      within(dialog).getByText(view.submission!.receipt.id, { selector: 'dd code' }),
    ).toBeInTheDocument();
    const submittedAt = within(dialog).getByText(receiptTime(view.submission!.submittedAt), {
      selector: 'dd time',
    });
    expect(submittedAt).toHaveAttribute('dateTime', view.submission!.submittedAt);
    expect(within(dialog).getByText('Submitted', { selector: '.work-status' })).toBeInTheDocument();
    expect(within(dialog).queryByText('Grade')).not.toBeInTheDocument();
    expect(within(dialog).queryByText('Teacher feedback')).not.toBeInTheDocument();

    const history = within(within(dialog).getByRole('region', { name: 'History' })).getAllByRole('listitem');
    expect(history.map((item) => item.textContent)).toEqual([
      `Submitted ${receiptTime('2030-03-04T08:00:00.000Z')} · receipt AAAA-0001`,
      `Taken back ${receiptTime('2030-03-04T08:30:00.000Z')} · receipt AAAA-0001`,
      `Submitted ${receiptTime(view.submission!.submittedAt)} · receipt ${view.submission!.receipt.id}`,
    ]);
    // The first test of the file also loads the page's modules: slow on a busy machine.
  }, 15_000);

  it('shows the grade and feedback once returned', async () => {
    const { assignment, view } = submitted({ grade: 17, feedback: 'Clear method.\nCheck units.' });
    const { dialog } = await openView(assignment, () => ({ body: view }));
    expect(await within(dialog).findByText('17/20')).toBeInTheDocument();
    expect(within(dialog).getByText('Graded · 17/20', { selector: '.work-status' })).toBeInTheDocument();
    const feedback = within(dialog).getByRole('region', { name: 'Teacher feedback' });
    expect(feedback.querySelector('p')?.textContent).toBe('Clear method.\nCheck units.');
  });

  it('loads again when the grade is returned while it is open', async () => {
    const { assignment, view } = submitted();
    const graded = submitted({ grade: 18, feedback: 'Well done.' }).view;
    let returned = false;
    const { dialog, store } = await openView(assignment, () => ({
      body: returned ? { ...graded, assignmentId: assignment.id } : view,
    }));
    await within(dialog).findByRole('region', { name: 'Your answer' });
    expect(within(dialog).queryByText('Teacher feedback')).not.toBeInTheDocument();

    returned = true;
    const event: LiveEvent<'submission:graded'> = {
      id: 7,
      type: 'submission:graded',
      at: new Date().toISOString(),
      data: createSubmission({
        id: view.submission!.id,
        assignmentId: assignment.id,
        grade: 18,
        feedback: 'Well done.',
        returnedAt: new Date().toISOString(),
      }),
    };
    act(() => {
      store.dispatch(applyLiveEvent(event));
    });
    expect(await within(dialog).findByText('Well done.')).toBeInTheDocument();
    expect(within(dialog).getByText('18/20')).toBeInTheDocument();
  });

  it('says so when there is no submission, and closes with Escape back to its button', async () => {
    const { assignment } = submitted();
    const { dialog, user, button } = await openView(assignment, () =>
      apiError(404, 'You have not submitted this assignment.', 'no_submission'),
    );
    expect(await within(dialog).findByText('You have not submitted this assignment.')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(button).toHaveFocus();
  });
});
