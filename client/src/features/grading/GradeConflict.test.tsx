import type { LiveEvent, Submission } from '@classwave/shared';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyLiveEvent } from '../../realtime/applyLiveEvent';
import type { Route } from '../../test/api';
import { createAssignment, createSubmission } from '../../test/factories';
import { renderAssignments } from '../../test/renderRoute';
import { findToast } from '../../test/renderWithProviders';

afterEach(() => {
  vi.unstubAllGlobals();
});

const colleague = { id: '40000000-0000-4000-8000-000000000001', fullName: 'Alan Turing' };

async function openGrading(submission: Submission, routes: (id: string) => Record<string, Route>) {
  const assignment = createAssignment({ title: 'Essay', maxPoints: 20, submissionCount: 1, needsGrading: 1 });
  const own = { ...submission, assignmentId: assignment.id };
  const view = renderAssignments('teacher', {
    'GET /api/assignments': { body: [assignment] },
    [`GET /api/assignments/${assignment.id}/submissions`]: { body: [own] },
    ...routes(assignment.id),
  });
  const card = await screen.findByRole('article', { name: 'Essay' });
  await view.user.click(within(card).getByRole('button', { name: /View Submissions/ }));
  const dialog = screen.getByRole('dialog', { name: 'Submissions for Essay' });
  const item = (await within(dialog).findAllByRole('listitem'))[0]!;
  return { ...view, assignment, submission: own, item };
}

describe('grading with conflicts', () => {
  it('shows who graded what and when on 409 grade_conflict, and Keep mine resends with their version', async () => {
    const submission = createSubmission({ version: 2 });
    const gradedAt = '2026-03-04T10:42:00.000Z';
    const { item, user, calls } = await openGrading(submission, (id) => ({
      [`PATCH /api/submissions/${submission.id}`]: ({ body }) =>
        (body as { baseVersion: number }).baseVersion === 2
          ? {
              status: 409,
              body: {
                statusCode: 409,
                code: 'grade_conflict',
                error: 'Conflict',
                message: 'Someone graded this first.',
                current: { grade: 12, feedback: 'Too short.', version: 3, gradedBy: colleague, gradedAt },
              },
            }
          : {
              body: {
                ...submission,
                assignmentId: id,
                grade: 18,
                version: 4,
                gradedAt: new Date().toISOString(),
              },
            },
    }));
    await user.type(within(item).getByLabelText('Points'), '18');
    await user.click(within(item).getByRole('button', { name: 'Save grade' }));

    const alert = await within(item).findByRole('alert');
    expect(alert).toHaveTextContent('Alan Turing gave 12/20');
    expect(alert).toHaveTextContent('Their feedback: “Too short.”');
    expect(within(item).getByLabelText('Points')).toHaveValue(18);

    await user.click(within(alert).getByRole('button', { name: 'Keep mine (18)' }));
    expect(await findToast('Grade saved')).toBeInTheDocument();
    const patches = calls.filter((call) => call.method === 'PATCH').map((call) => call.body);
    expect(patches).toEqual([
      { grade: 18, feedback: null, baseVersion: 2 },
      { grade: 18, feedback: null, baseVersion: 3 },
    ]);
    await waitFor(() => expect(within(item).queryByRole('alert')).not.toBeInTheDocument());
  });

  it('Use theirs puts their grade and feedback in the fields and sends nothing more', async () => {
    const submission = createSubmission({ version: 0 });
    const { item, user, calls } = await openGrading(submission, () => ({
      [`PATCH /api/submissions/${submission.id}`]: {
        status: 409,
        body: {
          statusCode: 409,
          code: 'grade_conflict',
          error: 'Conflict',
          message: 'Someone graded this first.',
          current: { grade: 9, feedback: 'Good start.', version: 1, gradedBy: colleague, gradedAt: null },
        },
      },
    }));
    await user.type(within(item).getByLabelText('Points'), '15');
    await user.click(within(item).getByRole('button', { name: 'Save grade' }));
    const alert = await within(item).findByRole('alert');
    await user.click(within(alert).getByRole('button', { name: 'Use theirs' }));

    expect(within(item).getByLabelText('Points')).toHaveValue(9);
    expect(within(item).getByLabelText('Feedback')).toHaveValue('Good start.');
    expect(within(item).queryByRole('alert')).not.toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'PATCH')).toHaveLength(1);
  });

  it('a live grade never replaces a grade being typed: a notice says it arrived', async () => {
    const { item, user, store, submission } = await openGrading(createSubmission({ version: 0 }), () => ({}));
    await user.type(within(item).getByLabelText('Points'), '17');

    const graded: LiveEvent<'submission:graded'> = {
      id: 1,
      type: 'submission:graded',
      at: new Date().toISOString(),
      data: {
        ...submission,
        grade: 11,
        feedback: 'From the other tab.',
        version: 1,
        gradedBy: colleague,
        gradedAt: new Date().toISOString(),
      },
    };
    act(() => {
      store.dispatch(applyLiveEvent(graded));
    });

    expect(await within(item).findByText(/Alan Turing just graded this 11\/20/)).toBeInTheDocument();
    expect(within(item).getByLabelText('Points')).toHaveValue(17);
    // The badge above the form shows the grade that now stands.
    expect(item).toHaveTextContent('Grade: 11/20');
  });

  it('a live grade fills the form when nothing is being typed', async () => {
    const { item, store, submission } = await openGrading(createSubmission({ version: 0 }), () => ({}));
    act(() => {
      store.dispatch(
        applyLiveEvent({
          id: 1,
          type: 'submission:graded',
          at: new Date().toISOString(),
          data: { ...submission, grade: 14, feedback: 'Nice.', version: 1, gradedBy: colleague },
        }),
      );
    });
    await waitFor(() => expect(within(item).getByLabelText('Points')).toHaveValue(14));
    expect(within(item).getByLabelText('Feedback')).toHaveValue('Nice.');
    expect(within(item).queryByText(/just graded this/)).not.toBeInTheDocument();
  });
});
