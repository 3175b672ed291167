import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAssignment, createCourse } from '../../test/factories';
import { renderRoute } from '../../test/renderRoute';
import { findToast } from '../../test/renderWithProviders';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** What a notification, the to-do list or the calendar links to: /assignments?open=<id>. */
describe('AssignmentsPage ?open=<id>', () => {
  it("focuses a student's card for the assignment", async () => {
    const essay = createAssignment({ title: 'Essay' });
    renderRoute(`/assignments?open=${essay.id}`, 'student', {
      'GET /api/courses': { body: [createCourse()] },
      'GET /api/assignments': { body: [createAssignment({ title: 'Other' }), essay] },
    });
    const card = await screen.findByRole('article', { name: 'Essay' });
    await waitFor(() => expect(card).toHaveFocus());
  });

  it("opens a teacher's submissions for the assignment", async () => {
    const essay = createAssignment({ title: 'Essay', submissionCount: 0 });
    renderRoute(`/assignments?open=${essay.id}`, 'teacher', (me) => ({
      'GET /api/courses': { body: [createCourse({ id: essay.courseId, teacherId: me.id })] },
      'GET /api/assignments': { body: [essay] },
      [`GET /api/assignments/${essay.id}/submissions`]: { body: [] },
    }));
    expect(await screen.findByRole('dialog', { name: 'Submissions for Essay' })).toBeInTheDocument();
  });

  it('says when the assignment is gone', async () => {
    renderRoute('/assignments?open=00000000-0000-4000-8000-999999999999', 'student', {
      'GET /api/courses': { body: [createCourse()] },
      'GET /api/assignments': { body: [createAssignment()] },
    });
    expect(await findToast('That assignment is no longer available.')).toBeInTheDocument();
  });
});
