import type { AssignmentRubric } from '@classwave/shared';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createAssignment, createSubmission } from '../../test/factories';
import { renderAssignments } from '../../test/renderRoute';
import { findToast } from '../../test/renderWithProviders';

const id = (n: number) => `40000000-0000-4000-8000-00000000000${n}`;
/** Argument 2 or 6, Style 0 or 4: 10 points at best. */
const rubricOf = (assignmentId: string): AssignmentRubric => ({
  assignmentId,
  maxPoints: 10,
  rubric: {
    criteria: [
      {
        id: id(1),
        title: 'Argument',
        levels: [
          { id: id(2), title: 'Weak', points: 2 },
          { id: id(3), title: 'Strong', points: 6 },
        ],
      },
      {
        id: id(4),
        title: 'Style',
        levels: [
          { id: id(5), title: 'Rough', points: 0 },
          { id: id(6), title: 'Clear', points: 4 },
        ],
      },
    ],
  },
});

type Reply = { status?: number; body: unknown };

async function gradeItem(patch?: (body: unknown) => Reply) {
  const assignment = createAssignment({ title: 'Essay', maxPoints: 10, submissionCount: 1 });
  const submission = { ...createSubmission({ content: 'My essay' }), assignmentId: assignment.id };
  const view = renderAssignments('teacher', {
    'GET /api/assignments': { body: [assignment] },
    [`GET /api/assignments/${assignment.id}/rubric`]: { body: rubricOf(assignment.id) },
    [`GET /api/assignments/${assignment.id}/submissions`]: { body: [submission] },
    [`PATCH /api/submissions/${submission.id}`]: ({ body }) =>
      patch?.(body) ?? {
        body: { ...submission, ...(body as object), rubricScores: (body as { rubric: unknown }).rubric },
      },
  });
  const card = await screen.findByRole('article', { name: 'Essay' });
  await view.user.click(within(card).getByRole('button', { name: /View Submissions/ }));
  const dialog = screen.getByRole('dialog', { name: 'Submissions for Essay' });
  const item = (await within(dialog).findAllByRole('listitem'))[0]!;
  return { ...view, item };
}

describe('grading by rubric (DESIGN §17)', () => {
  it('fills the points with the sum of the chosen levels and saves the levels with the grade', async () => {
    const { item, user, calls } = await gradeItem();
    const argument = await within(item).findByRole('group', { name: 'Argument' });
    await user.click(within(argument).getByRole('radio', { name: /Strong/ }));
    // One criterion left unchosen: no sum yet.
    expect(within(item).getByLabelText('Points')).toHaveValue(null);
    await user.click(
      within(within(item).getByRole('group', { name: 'Style' })).getByRole('radio', { name: /Rough/ }),
    );
    expect(within(item).getByLabelText('Points')).toHaveValue(6);

    await user.click(within(item).getByRole('button', { name: 'Save grade' }));
    expect(await findToast('Grade saved')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'PATCH')?.body).toEqual({
      grade: 6,
      feedback: null,
      baseVersion: 0,
      rubric: { [id(1)]: id(3), [id(4)]: id(5) },
    });
  });

  it('grades without the rubric when the points typed are not the levels chosen', async () => {
    const { item, user, calls } = await gradeItem();
    await user.click(
      within(await within(item).findByRole('group', { name: 'Argument' })).getByRole('radio', {
        name: /Weak/,
      }),
    );
    await user.click(
      within(within(item).getByRole('group', { name: 'Style' })).getByRole('radio', { name: /Clear/ }),
    );
    const points = within(item).getByLabelText('Points');
    expect(points).toHaveValue(6);
    await user.clear(points);
    await user.type(points, '7');
    await user.click(within(item).getByRole('button', { name: 'Save grade' }));
    expect(await findToast('Grade saved')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'PATCH')?.body).toMatchObject({ grade: 7, rubric: null });
    // The levels were cleared with the saved grade.
    expect(
      within(within(item).getByRole('group', { name: 'Style' })).getByRole('radio', { name: /Clear/ }),
    ).not.toBeChecked();
  });

  it('takes the other grader\'s levels with their points on "Use theirs"', async () => {
    const theirs = { [id(1)]: id(3), [id(4)]: id(6) };
    const { item, user } = await gradeItem(() => ({
      status: 409,
      body: {
        statusCode: 409,
        code: 'grade_conflict',
        error: 'Conflict',
        message: 'This grade was changed by Ms Fox since you opened it: it is now 10.',
        current: {
          grade: 10,
          feedback: 'Superb',
          version: 1,
          gradedBy: { id: id(7), fullName: 'Ms Fox' },
          gradedAt: new Date().toISOString(),
          rubricScores: theirs,
        },
      },
    }));
    const argument = await within(item).findByRole('group', { name: 'Argument' });
    await user.click(within(argument).getByRole('radio', { name: /Weak/ }));
    const style = within(item).getByRole('group', { name: 'Style' });
    await user.click(within(style).getByRole('radio', { name: /Rough/ }));
    await user.click(within(item).getByRole('button', { name: 'Save grade' }));
    await user.click(await within(item).findByRole('button', { name: 'Use theirs' }));
    expect(within(item).getByLabelText('Points')).toHaveValue(10);
    expect(within(argument).getByRole('radio', { name: /Strong/ })).toBeChecked();
    expect(within(style).getByRole('radio', { name: /Clear/ })).toBeChecked();
  });
});
