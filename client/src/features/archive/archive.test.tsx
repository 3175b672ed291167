import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answerConfirm } from '../../test/confirm';
import { createAssignment, createCourse } from '../../test/factories';
import { findToast } from '../../test/renderWithProviders';
import { renderRoute } from '../../test/renderRoute';

afterEach(() => {
  vi.unstubAllGlobals();
});

const ARCHIVED_AT = '2026-06-30T12:00:00.000Z';

describe('Past classes (DESIGN §20)', () => {
  it('lists archived courses under Past classes, apart from the current ones', async () => {
    const current = createCourse({ title: 'Biology 2027' });
    const old = createCourse({ title: 'Biology 2026', archivedAt: ARCHIVED_AT });
    renderRoute('/courses', 'student', {
      'GET /api/courses': ({ url }) => ({
        body: url.searchParams.get('archived') === 'true' ? [old] : [current],
      }),
    });
    const past = await screen.findByRole('list', { name: 'Past classes' });
    const card = within(past).getByRole('article', { name: 'Biology 2026' });
    expect(within(card).getByText('Archived')).toBeInTheDocument();
    const courses = screen.getByRole('list', { name: 'Courses' });
    expect(within(courses).getByRole('article', { name: 'Biology 2027' })).toBeInTheDocument();
    expect(within(courses).queryByRole('article', { name: 'Biology 2026' })).not.toBeInTheDocument();
  });
});

const COURSE_ID = '30000000-0000-4000-8000-000000000001';

describe('CourseArchiveActions', () => {
  it('lets the owner archive the course after confirming: the page turns read-only, with Unarchive', async () => {
    const user = userEvent.setup();
    const { calls } = renderRoute(`/courses/${COURSE_ID}`, 'teacher', (me) => {
      const course = createCourse({ id: COURSE_ID, title: 'Algebra', teacherId: me.id });
      return {
        [`GET /api/courses/${COURSE_ID}`]: { body: { course, assignments: [] } },
        [`POST /api/courses/${COURSE_ID}/archive`]: { body: { ...course, archivedAt: ARCHIVED_AT } },
      };
    });
    await user.click(await screen.findByRole('button', { name: 'Archive' }));
    await answerConfirm(user, 'Archive course');
    expect(await screen.findByText('This class is archived')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST' && c.path === `/api/courses/${COURSE_ID}/archive`)).toBe(
      true,
    );
    expect(screen.getByRole('button', { name: 'Unarchive' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit course' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Reuse assignment' })).not.toBeInTheDocument();
  });

  it('gives a co-teacher Copy course but no Archive', async () => {
    const course = createCourse({ id: COURSE_ID, title: 'Algebra' });
    renderRoute(`/courses/${COURSE_ID}`, 'teacher', {
      [`GET /api/courses/${COURSE_ID}`]: { body: { course, assignments: [] } },
    });
    expect(await screen.findByRole('button', { name: 'Copy course' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Archive' })).not.toBeInTheDocument();
  });

  it('copies the course under the title given, and opens the copy', async () => {
    const user = userEvent.setup();
    const copy = createCourse({ id: '30000000-0000-4000-8000-000000000002', title: 'Algebra 2027' });
    const { calls } = renderRoute(`/courses/${COURSE_ID}`, 'teacher', (me) => {
      const course = createCourse({ id: COURSE_ID, title: 'Algebra', teacherId: me.id });
      return {
        [`GET /api/courses/${COURSE_ID}`]: {
          body: { course, assignments: [createAssignment({ courseId: COURSE_ID })] },
        },
        [`POST /api/courses/${COURSE_ID}/copy`]: { status: 201, body: copy },
        [`GET /api/courses/${copy.id}`]: { body: { course: copy, assignments: [] } },
      };
    });
    await user.click(await screen.findByRole('button', { name: 'Copy course' }));
    const title = screen.getByLabelText(/New course title/);
    expect(title).toHaveValue('Algebra (copy)');
    await user.clear(title);
    await user.type(title, 'Algebra 2027');
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Copy course' }));
    expect(await findToast('Copied into “Algebra 2027”')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole('heading', { level: 1, name: 'Algebra 2027' })).toBeInTheDocument(),
    );
    const sent = calls.find((c) => c.path === `/api/courses/${COURSE_ID}/copy`);
    expect(sent?.body).toEqual({ title: 'Algebra 2027' });
  });

  it('shows its teachers an archived class with no write control: no composer, lesson, roster or teacher changes', async () => {
    const post = {
      id: '40000000-0000-4000-8000-000000000001',
      courseId: COURSE_ID,
      author: { id: 'a0000000-0000-4000-8000-000000000009', fullName: 'Ada Owner' },
      text: 'Welcome to the class',
      pinned: false,
      commentsOff: false,
      commentCount: 0,
      publishAt: null,
      createdAt: ARCHIVED_AT,
      publishedAt: ARCHIVED_AT,
      editedAt: null,
      seenByMe: false,
      seen: null,
    };
    renderRoute(`/courses/${COURSE_ID}`, 'teacher', (me) => {
      const course = createCourse({
        id: COURSE_ID,
        title: 'Old Algebra',
        teacherId: me.id,
        archivedAt: ARCHIVED_AT,
      });
      return {
        [`GET /api/courses/${COURSE_ID}`]: { body: { course, assignments: [] } },
        [`GET /api/courses/${COURSE_ID}/posts`]: {
          body: {
            items: [post],
            pinned: [],
            scheduled: [],
            nextBefore: null,
            stream: { courseId: COURSE_ID, commentsOff: false, muted: false, mutedStudentIds: [] },
          },
        },
        [`GET /api/courses/${COURSE_ID}/members`]: {
          body: [
            {
              courseId: COURSE_ID,
              student: {
                id: 'a0000000-0000-4000-8000-000000000011',
                fullName: 'Sam Student',
                email: 's@school.org',
              },
              status: 'active',
              joinedAt: ARCHIVED_AT,
              endedAt: null,
              submissionCount: 0,
            },
          ],
        },
        [`GET /api/courses/${COURSE_ID}/teachers`]: {
          body: {
            courseId: COURSE_ID,
            teachers: [
              { id: me.id, fullName: me.fullName, email: 'me@school.org', role: 'owner', since: ARCHIVED_AT },
            ],
            invites: [
              {
                id: 'b0000000-0000-4000-8000-000000000003',
                email: 'ada@school.org',
                invitedAt: ARCHIVED_AT,
                expiresAt: '2099-01-01T00:00:00.000Z',
              },
            ],
            maxCoTeachers: 20,
          },
        },
      };
    });
    expect(await screen.findByText('This class is archived')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Unarchive' })).toBeInTheDocument();
    await screen.findByText('Welcome to the class');
    await screen.findByRole('listitem', { name: 'Sam Student' });
    await screen.findByRole('listitem', { name: 'Invited: ada@school.org' });
    expect(screen.queryByRole('button', { name: /Start a live lesson/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Post actions' })).not.toBeInTheDocument();
    expect(screen.queryByRole('switch', { name: 'Comments on' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Import roster' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Remove Sam Student' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Invite a co-teacher')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Cancel the invitation/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Class code' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add a comment' })).not.toBeInTheDocument();
  });

  it('shows a student an archived class as read-only, without Leave', async () => {
    const course = createCourse({ id: COURSE_ID, title: 'Old Algebra', archivedAt: ARCHIVED_AT });
    renderRoute(`/courses/${COURSE_ID}`, 'student', {
      [`GET /api/courses/${COURSE_ID}`]: { body: { course, assignments: [] } },
    });
    expect(await screen.findByText('This class is archived')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Leave/ })).not.toBeInTheDocument();
  });
});
