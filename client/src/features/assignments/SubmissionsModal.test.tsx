import { formatListDate } from '../../components/dates';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, type Route } from '../../test/api';
import {
  createAssignment,
  createComment,
  createMember,
  createSubmission,
  liveEvent,
} from '../../test/factories';
import { applyLiveEvent } from '../../realtime/applyLiveEvent';
import { renderAssignments } from '../../test/renderRoute';
import { findToast } from '../../test/renderWithProviders';

afterEach(() => {
  vi.unstubAllGlobals();
});

async function openSubmissions(
  routes: (id: string, courseId: string) => Record<string, Route>,
  gradeRelease: 'auto' | 'manual' = 'auto',
) {
  const assignment = createAssignment({ title: 'Essay', maxPoints: 20, submissionCount: 2, gradeRelease });
  const view = renderAssignments('teacher', {
    'GET /api/assignments': { body: [assignment] },
    ...routes(assignment.id, assignment.courseId),
  });
  const card = await screen.findByRole('article', { name: 'Essay' });
  await view.user.click(within(card).getByRole('button', { name: /View Submissions/ }));
  return { ...view, assignment, dialog: screen.getByRole('dialog', { name: 'Submissions for Essay' }) };
}

describe('SubmissionsModal', () => {
  it("lists each student's name, time and content as plain text with its line breaks", async () => {
    const first = createSubmission({
      student: { id: '30000000-0000-4000-8000-000000000001', fullName: 'Alan Turing' },
      content: 'First line\nSecond <b>line</b>',
    });
    const second = createSubmission({
      student: { id: '30000000-0000-4000-8000-000000000002', fullName: 'Ada Lovelace' },
      grade: 15,
      feedback: 'Well argued.',
    });
    const { dialog } = await openSubmissions((id) => ({
      [`GET /api/assignments/${id}/submissions`]: { body: [first, second] },
    }));
    const items = await within(dialog).findAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('Alan Turing');
    expect(items[0]).toHaveTextContent(`Submitted ${formatListDate(first.submittedAt)}`);
    const content = within(items[0]!).getByText(/First line/);
    expect(content.textContent).toBe('First line\nSecond <b>line</b>');
    expect(content.querySelector('b')).toBeNull();
    expect(items[0]).toHaveTextContent('Not graded');

    expect(items[1]).toHaveTextContent('Grade: 15/20');
    expect(within(items[1]!).getByLabelText('Points')).toHaveValue(15);
    expect(within(items[1]!).getByLabelText('Feedback')).toHaveValue('Well argued.');
  });

  it("badges each student's unread private comments, and moves the count live", async () => {
    const alan = { id: '30000000-0000-4000-8000-000000000011', fullName: 'Alan Turing' };
    const ada = { id: '30000000-0000-4000-8000-000000000012', fullName: 'Ada Lovelace' };
    const { dialog, store, assignment } = await openSubmissions((id) => ({
      [`GET /api/assignments/${id}/submissions`]: {
        body: [createSubmission({ student: alan }), createSubmission({ student: ada })],
      },
      [`GET /api/assignments/${id}/threads`]: {
        body: [{ student: alan, commentCount: 2, unreadCount: 2, lastCommentAt: new Date().toISOString() }],
      },
    }));
    const items = await within(dialog).findAllByRole('listitem');
    const row = (name: string) => items.find((i) => i.textContent?.includes(name))!;
    await waitFor(() => expect(row('Alan Turing')).toHaveTextContent('2 new private comments'));
    expect(row('Ada Lovelace')).not.toHaveTextContent('new private comment');
    act(
      () =>
        void store.dispatch(
          applyLiveEvent(
            liveEvent(
              'thread:comment',
              createComment({
                courseId: assignment.courseId,
                postId: null,
                thread: { assignmentId: assignment.id, studentId: ada.id },
                author: ada,
              }),
            ),
          ),
        ),
    );
    await waitFor(() => expect(row('Ada Lovelace')).toHaveTextContent('1 new private comment'));
  });

  // Issue 25: "No held grades: students see every grade given" was wrong on a hold-grades assignment.
  it('says on a hold-grades assignment with nothing held that grades given will wait to be returned', async () => {
    const { dialog } = await openSubmissions(
      (id) => ({ [`GET /api/assignments/${id}/submissions`]: { body: [createSubmission()] } }),
      'manual',
    );
    expect(
      await within(dialog).findByText('Nothing held: grades you give wait here until you return them.'),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Return all graded (0)' })).toBeDisabled();
  });

  it('says when nobody has submitted yet', async () => {
    const { dialog } = await openSubmissions((id) => ({
      [`GET /api/assignments/${id}/submissions`]: { body: [] },
    }));
    expect(await within(dialog).findByText('No submissions yet for this assignment.')).toBeInTheDocument();
  });

  it("toasts 'Failed to load submissions.' when they cannot be loaded", async () => {
    await openSubmissions((id) => ({
      [`GET /api/assignments/${id}/submissions`]: apiError(500, 'Boom', 'internal_error'),
    }));
    expect(await findToast('Failed to load submissions.')).toBeInTheDocument();
  });

  // Issue 25 (item 2): the dialog listed only those who submitted, so no zero could be given.
  it('lists every active student who did not submit, and grades one with no submission', async () => {
    const handedIn = createSubmission({
      student: { id: '30000000-0000-4000-8000-000000000001', fullName: 'Alan Turing' },
    });
    const members = [
      createMember({
        student: { id: handedIn.studentId, fullName: 'Alan Turing', email: 'alan@example.org' },
      }),
      createMember({
        student: {
          id: '30000000-0000-4000-8000-000000000002',
          fullName: 'Grace Absent',
          email: 'g@example.org',
        },
      }),
      createMember({
        student: {
          id: '30000000-0000-4000-8000-000000000003',
          fullName: 'Left Early',
          email: 'l@example.org',
        },
        status: 'left',
      }),
    ];
    const { dialog, user, calls } = await openSubmissions((id, courseId) => ({
      [`GET /api/assignments/${id}/submissions`]: { body: [{ ...handedIn, assignmentId: id }] },
      [`GET /api/courses/${courseId}/members`]: { body: members },
      [`PUT /api/assignments/${id}/grades/30000000-0000-4000-8000-000000000002`]: ({ body }) => ({
        body: {
          ...createSubmission({
            assignmentId: id,
            student: { id: '30000000-0000-4000-8000-000000000002', fullName: 'Grace Absent' },
            version: 1,
          }),
          ...(body as object),
          content: null,
          submittedAt: null,
        },
      }),
    }));
    const missing = await within(dialog).findByRole('list', { name: 'Not submitted' });
    const [grace] = within(missing).getAllByRole('listitem');
    expect(within(missing).getAllByRole('listitem')).toHaveLength(1);
    expect(grace).toHaveTextContent('Grace Absent');
    expect(grace).toHaveTextContent('No submission');
    expect(
      within(dialog).getByText(/If the student submits while the assignment is still open/),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole('list', { name: 'Submissions' })).toHaveTextContent('Alan Turing');

    await user.type(within(grace!).getByLabelText('Points'), '0');
    await user.click(within(grace!).getByRole('button', { name: 'Save grade' }));
    expect(await findToast('Grade saved')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({
      grade: 0,
      feedback: null,
      baseVersion: 0,
    });
    await waitFor(() =>
      expect(within(dialog).getByRole('list', { name: 'Not submitted' })).toHaveTextContent('Grade: 0/20'),
    );
  });

  // Issue 25: a 0 typed for the wrong student who had not submitted could never be taken back.
  it('takes back a grade given for missing work, over its version', async () => {
    const absent = { id: '30000000-0000-4000-8000-000000000004', fullName: 'Grace Absent' };
    const { dialog, user, calls, assignment } = await openSubmissions((id, courseId) => ({
      [`GET /api/assignments/${id}/submissions`]: {
        body: [
          {
            ...createSubmission({ assignmentId: id, student: absent, grade: 0, version: 2 }),
            content: null,
            submittedAt: null,
          },
        ],
      },
      [`GET /api/courses/${courseId}/members`]: {
        body: [createMember({ student: { ...absent, email: 'g@example.org' } })],
      },
      [`DELETE /api/assignments/${id}/grades/${absent.id}`]: ({ url }) => ({
        status: url.searchParams.get('baseVersion') === '2' ? 200 : 409,
        body: {
          assignmentId: id,
          studentId: absent.id,
          submissionId: null,
          grade: null,
          version: null,
          status: 'missing',
          late: null,
          returnedAt: null,
        },
      }),
    }));
    const missing = await within(dialog).findByRole('list', { name: 'Not submitted' });
    expect(missing).toHaveTextContent('Grade: 0/20');
    await user.click(within(missing).getByRole('button', { name: 'Take back grade' }));
    expect(await findToast('Grade taken back: Grace Absent has no grade for this work.')).toBeInTheDocument();
    const taken = calls.find((call) => call.method === 'DELETE');
    expect(taken?.path).toBe(`/api/assignments/${assignment.id}/grades/${absent.id}`);
    await waitFor(() =>
      expect(within(dialog).getByRole('list', { name: 'Not submitted' })).toHaveTextContent('No submission'),
    );
    expect(within(dialog).queryByRole('button', { name: 'Take back grade' })).not.toBeInTheDocument();
  });

  it('offers no grade form for an excused student, and says how to grade them', async () => {
    const excused = { id: '30000000-0000-4000-8000-000000000005', fullName: 'Ezra Excused' };
    const { dialog } = await openSubmissions((id, courseId) => ({
      [`GET /api/assignments/${id}/submissions`]: { body: [] },
      [`GET /api/courses/${courseId}/members`]: {
        body: [createMember({ student: { ...excused, email: 'e@example.org' } })],
      },
      [`GET /api/courses/${courseId}/gradebook`]: {
        body: {
          course: { id: courseId, title: 'Biology', code: 'BIO1', missingCountsAsZero: true },
          students: [{ ...excused, email: 'e@example.org' }],
          assignments: [],
          categories: [],
          cells: [
            {
              assignmentId: id,
              studentId: excused.id,
              submissionId: null,
              grade: null,
              version: null,
              status: 'excused',
              late: null,
              returnedAt: null,
            },
          ],
        },
      },
    }));
    const missing = await within(dialog).findByRole('list', { name: 'Not submitted' });
    await waitFor(() => expect(missing).toHaveTextContent('Excused: this work counts nowhere.'));
    expect(within(missing).queryByLabelText('Points')).not.toBeInTheDocument();
  });

  it('saves a grade out of the max points with optional feedback, and shows it', async () => {
    const submission = createSubmission({ content: 'My essay' });
    const { dialog, user, calls } = await openSubmissions((id) => ({
      [`GET /api/assignments/${id}/submissions`]: { body: [{ ...submission, assignmentId: id }] },
      [`PATCH /api/submissions/${submission.id}`]: ({ body }) => ({
        body: {
          ...submission,
          assignmentId: id,
          ...(body as object),
          gradedAt: new Date().toISOString(),
        },
      }),
    }));
    const item = (await within(dialog).findAllByRole('listitem'))[0]!;
    const points = within(item).getByLabelText('Points');
    expect(points).toHaveAttribute('min', '0');
    expect(points).toHaveAttribute('max', '20');
    expect(points).toHaveAttribute('step', '1');
    expect(points).toHaveAccessibleDescription('/ 20');

    await user.type(points, '18');
    await user.type(within(item).getByLabelText('Feedback'), '  Clear and thorough. ');
    await user.click(within(item).getByRole('button', { name: 'Save grade' }));

    expect(await findToast('Grade saved')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'PATCH')?.body).toEqual({
      grade: 18,
      feedback: 'Clear and thorough.',
      baseVersion: 0,
    });
    // The toast can come a render before the list shows the saved grade.
    await waitFor(() => expect(within(dialog).getAllByRole('listitem')[0]).toHaveTextContent('Grade: 18/20'));
  });

  it('sends no feedback as null', async () => {
    const submission = createSubmission();
    const { dialog, user, calls } = await openSubmissions((id) => ({
      [`GET /api/assignments/${id}/submissions`]: { body: [{ ...submission, assignmentId: id }] },
      [`PATCH /api/submissions/${submission.id}`]: apiError(
        400,
        'body.grade must be at most 20',
        'validation_failed',
      ),
    }));
    const item = (await within(dialog).findAllByRole('listitem'))[0]!;
    await user.type(within(item).getByLabelText('Points'), '7');
    await user.click(within(item).getByRole('button', { name: 'Save grade' }));
    expect(await findToast('body.grade must be at most 20')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'PATCH')?.body).toEqual({
      grade: 7,
      feedback: null,
      baseVersion: 0,
    });
  });

  it.each([
    ['no submissions', []],
    ['submissions to grade', [createSubmission()]],
  ])('opens with focus on its title, at the top, when there are %s', async (_, submissions) => {
    const { dialog } = await openSubmissions((id) => ({
      [`GET /api/assignments/${id}/submissions`]: { body: submissions },
    }));
    await within(dialog).findByText(
      submissions.length === 0 ? 'No submissions yet for this assignment.' : /Submitted /,
    );
    expect(within(dialog).getByRole('heading', { name: 'Submissions for Essay' })).toHaveFocus();
  });
});
