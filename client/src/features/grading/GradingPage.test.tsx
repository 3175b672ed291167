import type { Gradebook, LiveEvent, Submission } from '@classwave/shared';
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { applyLiveEvent } from '../../realtime/applyLiveEvent';
import { createAssignment, createSubmission, nextId } from '../../test/factories';
import { renderRoute } from '../../test/renderRoute';

/** An essay of three students: Ada submitted, Ben has nothing, Cy was excused. */
function classOfThree() {
  const assignment = createAssignment({ title: 'Essay', maxPoints: 20, submissionCount: 1, needsGrading: 1 });
  const [ada, ben, cy] = ['Ada Lovelace', 'Ben Bitdiddle', 'Cy Excused'].map((fullName) => ({
    id: nextId(),
    fullName,
    email: `${fullName.split(' ')[0]!.toLowerCase()}@example.org`,
  }));
  const answer = createSubmission({
    assignmentId: assignment.id,
    student: { id: ada!.id, fullName: ada!.fullName },
    content: 'Engines weave algebra.',
  });
  const cell = (
    studentId: string,
    status: Gradebook['cells'][number]['status'],
    submission?: Submission,
  ) => ({
    assignmentId: assignment.id,
    studentId,
    submissionId: submission?.id ?? null,
    grade: null,
    version: submission ? 0 : null,
    status,
    late: null,
    returnedAt: null,
  });
  const gradebook: Gradebook = {
    course: { id: assignment.courseId, title: 'Biology', code: 'BIO1', missingCountsAsZero: true },
    students: [ada!, ben!, cy!],
    assignments: [
      {
        id: assignment.id,
        title: 'Essay',
        dueDate: assignment.dueDate,
        maxPoints: 20,
        gradeRelease: 'auto',
        categoryId: null,
      },
    ],
    cells: [cell(ada!.id, 'submitted', answer), cell(ben!.id, 'not_submitted'), cell(cy!.id, 'excused')],
    categories: [],
  };
  const routes = {
    'GET /api/assignments': { body: [assignment] },
    [`GET /api/courses/${assignment.courseId}/gradebook`]: { body: gradebook },
    [`GET /api/assignments/${assignment.id}/submissions`]: { body: [answer] },
  };
  return { assignment, answer, ada: ada!, ben: ben!, cy: cy!, routes };
}

describe('GradingPage', () => {
  it('shows one student’s work at a time and moves with J and K, keeping what is typed', async () => {
    const { assignment, ada, ben, routes } = classOfThree();
    const { user } = renderRoute(`/assignments/${assignment.id}/grading`, 'teacher', routes);
    const students = await screen.findByRole('navigation', { name: 'Students' });
    expect(within(students).getByRole('button', { name: /Ada Lovelace\s*To grade/ })).toHaveAttribute(
      'aria-current',
      'true',
    );
    expect(screen.getByText('Engines weave algebra.')).toBeInTheDocument();
    expect(screen.getByText(/1 of 3/)).toBeInTheDocument();

    // Typed for Ada, not saved; J moves on (outside a text field), and the list marks Ada unsaved.
    await user.type(screen.getByRole('spinbutton', { name: 'Points' }), '17');
    await user.click(screen.getByRole('heading', { name: /Grading: Essay/ }));
    await user.keyboard('j');
    expect(await screen.findByText(/2 of 3/)).toBeInTheDocument();
    expect(within(students).getByRole('button', { name: /Ben Bitdiddle/ })).toHaveAttribute(
      'aria-current',
      'true',
    );
    expect(within(students).getByRole('button', { name: /Ada Lovelace.*Unsaved/ })).toBeInTheDocument();
    expect(screen.getByText(/Nothing handed in yet/)).toBeInTheDocument();
    expect(screen.getByRole('form', { name: `Grade ${ben.fullName}'s missing work` })).toBeVisible();

    // K goes back, and Ada's 17 is still there.
    await user.keyboard('k');
    expect(await screen.findByText(/1 of 3/)).toBeInTheDocument();
    expect(screen.getByRole('form', { name: `Grade ${ada.fullName}'s submission` })).toBeVisible();
    expect(screen.getByRole('spinbutton', { name: 'Points' })).toHaveValue(17);
    // In a text field, J is a letter.
    await user.type(screen.getByRole('textbox', { name: 'Feedback' }), 'j');
    expect(screen.getByText(/1 of 3/)).toBeInTheDocument();
  });

  it('offers no grade form for excused work, and shows a submission arriving live', async () => {
    const { assignment, ben, cy, routes } = classOfThree();
    const { user, store } = renderRoute(
      `/assignments/${assignment.id}/grading?student=${cy.id}`,
      'teacher',
      routes,
    );
    expect(await screen.findByText(/Excused from this assignment/)).toBeInTheDocument();
    expect(screen.queryByRole('spinbutton', { name: 'Points' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: /Ben Bitdiddle/ }));
    const arrived = createSubmission({
      assignmentId: assignment.id,
      student: { id: ben.id, fullName: ben.fullName },
      content: 'Handed in just now.',
    });
    const event: LiveEvent<'submission:created'> = {
      id: 1,
      type: 'submission:created',
      at: arrived.submittedAt,
      data: arrived,
    };
    act(() => {
      store.dispatch(applyLiveEvent(event));
    });
    await waitFor(() => expect(screen.getByText('Handed in just now.')).toBeInTheDocument());
  });
});
