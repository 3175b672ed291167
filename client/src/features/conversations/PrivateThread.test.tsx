import type { Comment, Thread } from '@classwave/shared';
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { applyLiveEvent } from '../../realtime/applyLiveEvent';
import { createAssignment, createComment, createNotification, nextId, liveEvent } from '../../test/factories';
import { renderAssignments, renderRoute } from '../../test/renderRoute';

const teacher = { id: nextId(), fullName: 'Grace Hopper' };

const threadOf = (
  assignmentId: string,
  student: { id: string; fullName: string },
  items: Comment[],
): Thread => ({
  assignmentId,
  courseId: nextId(),
  student,
  items,
  unreadCount: 0,
});

describe('private comments', () => {
  it("shows a student the teacher's unread reply on the assignment's button, and clears it when the thread is read", async () => {
    const assignment = createAssignment({ title: 'Cell essay' });
    const { store, user, calls, me } = renderAssignments('student', (me) => {
      const reply = createComment({
        courseId: assignment.courseId,
        thread: { assignmentId: assignment.id, studentId: me.id },
        author: teacher,
        text: 'Please add your sources.',
      });
      return {
        'GET /api/assignments': { body: [assignment] },
        [`GET /api/assignments/${assignment.id}/threads/${me.id}`]: {
          body: threadOf(assignment.id, me, [reply]),
        },
        'POST /api/notifications/read': { body: { unreadCount: 0 } },
      };
    });
    const card = await screen.findByRole('article', { name: 'Cell essay' });
    const button = within(card).getByRole('button', { name: /Private comments/ });
    expect(button).toHaveAccessibleName('Private comments');

    // The reply's notification arrives live: the button counts it.
    const note = createNotification({
      kind: 'thread_comment',
      assignmentId: assignment.id,
      link: `/assignments?open=${assignment.id}&thread=${me.id}`,
    });
    act(() => void store.dispatch(applyLiveEvent(liveEvent('notification:created', note))));
    await waitFor(() => expect(button).toHaveAccessibleName('Private comments 1 unread'));
    // Another thread's notification is not this one's.
    const other = createNotification({
      kind: 'thread_comment',
      link: `/assignments?open=${nextId()}&thread=${me.id}`,
    });
    act(() => void store.dispatch(applyLiveEvent(liveEvent('notification:created', other))));
    expect(within(card).getByTestId('thread-unread')).toHaveTextContent('1 unread');

    await user.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Private comments' });
    expect(await within(dialog).findByText('Please add your sources.')).toBeInTheDocument();
    await waitFor(() => expect(within(card).queryByTestId('thread-unread')).not.toBeInTheDocument());
    expect(calls.find((c) => c.path === '/api/notifications/read')?.body).toEqual({ ids: [note.id] });
  });

  it("counts a student's new private comments on their name in the grading view, and clears them when opened", async () => {
    const assignment = createAssignment({ title: 'Essay', submissionCount: 0, needsGrading: 0 });
    const [ada, ben] = ['Ada Lovelace', 'Ben Bitdiddle'].map((fullName) => ({
      id: nextId(),
      fullName,
      email: `${fullName.split(' ')[0]!.toLowerCase()}@example.org`,
    }));
    const fromBen = createComment({
      courseId: assignment.courseId,
      thread: { assignmentId: assignment.id, studentId: ben!.id },
      author: ben!,
      text: 'Can I hand it in on paper?',
    });
    const { store, user } = renderRoute(
      `/assignments/${assignment.id}/grading?student=${ada!.id}`,
      'teacher',
      {
        'GET /api/assignments': { body: [assignment] },
        [`GET /api/courses/${assignment.courseId}/gradebook`]: {
          body: {
            course: { id: assignment.courseId, title: 'Biology', code: 'BIO1', missingCountsAsZero: true },
            students: [ada, ben],
            assignments: [],
            cells: [],
            categories: [],
          },
        },
        [`GET /api/assignments/${assignment.id}/submissions`]: { body: [] },
        [`GET /api/assignments/${assignment.id}/threads`]: { body: [] },
        [`GET /api/assignments/${assignment.id}/threads/${ada!.id}`]: {
          body: threadOf(assignment.id, ada!, []),
        },
        [`GET /api/assignments/${assignment.id}/threads/${ben!.id}`]: {
          body: threadOf(assignment.id, ben!, [fromBen]),
        },
      },
    );
    const students = await screen.findByRole('navigation', { name: 'Students' });
    expect(await screen.findByText(/No private comments yet/)).toBeInTheDocument();
    const benButton = within(students).getByRole('button', { name: /Ben Bitdiddle/ });
    expect(benButton).not.toHaveTextContent('new');

    act(() => void store.dispatch(applyLiveEvent(liveEvent('thread:comment', fromBen))));
    await waitFor(() => expect(benButton).toHaveTextContent('1 new private comment'));

    await user.click(benButton);
    const thread = await screen.findByRole('region', { name: 'Private comments' });
    expect(await within(thread).findByText('Can I hand it in on paper?')).toBeInTheDocument();
    await waitFor(() => expect(benButton).not.toHaveTextContent('new'));
  });
});
