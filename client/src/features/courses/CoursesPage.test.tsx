import type { Role } from '@classwave/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answerConfirm } from '../../test/confirm';
import { SAMPLE_CONFIRMATION, SAMPLE_CREATED } from './sampleConfirmation';
import { apiError, type Route } from '../../test/api';
import { createCourse } from '../../test/factories';
import { findToast } from '../../test/renderWithProviders';
import { renderRoute } from '../../test/renderRoute';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const renderCourses = (role: Role, routes: Record<string, Route>) => renderRoute('/courses', role, routes);

const courseCards = () => within(screen.getByRole('list', { name: 'Courses' })).getAllByRole('article');

describe('CoursesPage', () => {
  it('shows six skeleton cards while the courses load', () => {
    renderCourses('student', { 'GET /api/courses': 'pending' });
    expect(screen.getByText('Loading courses')).toHaveAttribute('role', 'status');
    expect(screen.getAllByTestId('course-skeleton')).toHaveLength(6);
  });

  it("toasts 'Failed to load courses' when the list cannot be loaded", async () => {
    renderCourses('student', { 'GET /api/courses': apiError(500, 'Boom', 'internal_error') });
    expect(await findToast('Failed to load courses')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('shows each course with its code, description, instructor and a View Course link', async () => {
    const course = createCourse({
      title: 'Introduction to Biology',
      code: 'BIO101',
      description: 'Cells, genes and ecosystems.',
      teacher: { id: 'a0000000-0000-4000-8000-000000000001', fullName: 'Rosalind Franklin' },
    });
    renderCourses('student', { 'GET /api/courses': { body: [course] } });

    const card = await screen.findByRole('article', { name: 'Introduction to Biology' });
    expect(within(card).getByText('BIO101')).toBeInTheDocument();
    expect(within(card).getByText('Cells, genes and ecosystems.')).toBeInTheDocument();
    expect(within(card).getByText('Rosalind Franklin')).toBeInTheDocument();
    expect(within(card).getByText('R')).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'View Course' })).toHaveAttribute(
      'href',
      `/courses/${course.id}`,
    );
  });

  // A teacher's list holds the courses they teach (DESIGN §20): a co-taught one is edited, not deleted.
  it('gives a teacher Create Course, Generate Samples, edit on every course, delete on their own only', async () => {
    renderRoute('/courses', 'teacher', (me) => ({
      'GET /api/courses': {
        body: [createCourse({ title: 'Mine', teacherId: me.id }), createCourse({ title: 'Theirs' })],
      },
    }));

    const mine = await screen.findByRole('article', { name: 'Mine' });
    expect(within(mine).getByRole('button', { name: 'Edit course' })).toBeInTheDocument();
    expect(within(mine).getByRole('button', { name: 'Delete course' })).toBeInTheDocument();
    const theirs = screen.getByRole('article', { name: 'Theirs' });
    expect(within(theirs).queryByRole('button', { name: 'Delete course' })).not.toBeInTheDocument();
    expect(within(theirs).getByRole('button', { name: 'Edit course' })).toBeInTheDocument();
    expect(within(theirs).getByText('Co-teaching')).toBeInTheDocument();
    expect(within(mine).queryByText('Co-teaching')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create Course' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Generate Samples' })).toBeInTheDocument();
    expect(screen.getByText('Manage your courses and content')).toBeInTheDocument();
  });

  it('gives a student neither create, samples, edit nor delete', async () => {
    renderCourses('student', { 'GET /api/courses': { body: [createCourse({ title: 'Algebra' })] } });
    await screen.findByRole('article', { name: 'Algebra' });
    expect(screen.getByText('Browse and access your enrolled courses')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create Course' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Generate Samples' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete course' })).not.toBeInTheDocument();
  });

  it('filters by title or code as the user types, and says when nothing matches', async () => {
    const { user } = renderCourses('student', {
      'GET /api/courses': {
        body: [
          createCourse({ title: 'World History', code: 'HI230' }),
          createCourse({ title: 'Creative Writing', code: 'EN310' }),
        ],
      },
    });
    await screen.findByRole('article', { name: 'World History' });
    const search = screen.getByRole('searchbox', { name: 'Search courses' });
    expect(search).toHaveAttribute('placeholder', 'Search courses by title or code...');

    await user.type(search, 'en3');
    expect(courseCards()).toHaveLength(1);
    expect(screen.getByRole('article', { name: 'Creative Writing' })).toBeInTheDocument();

    await user.clear(search);
    await user.type(search, 'HISTORY');
    expect(courseCards()).toHaveLength(1);
    expect(screen.getByRole('article', { name: 'World History' })).toBeInTheDocument();

    await user.type(search, 'zzz');
    expect(screen.getByRole('heading', { name: 'No courses found' })).toBeInTheDocument();
    expect(screen.getByText('Try adjusting your search')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create First Course' })).not.toBeInTheDocument();
  });

  it('invites a teacher with no courses to create the first one', async () => {
    const { user } = renderCourses('teacher', { 'GET /api/courses': { body: [] } });
    expect(await screen.findByRole('heading', { name: 'No courses available' })).toBeInTheDocument();
    expect(screen.getByText('Create your first course to get started')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Create First Course' }));
    expect(screen.getByRole('dialog', { name: 'Create Course' })).toBeInTheDocument();
  });

  it('tells a student with no classes how to join one, without a create button', async () => {
    const { user } = renderCourses('student', { 'GET /api/courses': { body: [] } });
    const empty = (await screen.findByRole('heading', { name: 'No courses available' })).parentElement!;
    expect(within(empty).getByText(/Ask your teacher for the class code or join link/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create First Course' })).not.toBeInTheDocument();
    await user.click(within(empty).getByRole('button', { name: 'Join a class' }));
    expect(screen.getByRole('dialog', { name: 'Join a class' })).toBeInTheDocument();
  });

  it('creates a course from the dialog and shows it first in the list', async () => {
    const existing = createCourse({ title: 'Older course' });
    const { user, calls, me } = renderCourses('teacher', {
      'GET /api/courses': { body: [existing] },
      'POST /api/courses': ({ body }) => ({
        status: 201,
        body: createCourse({
          ...(body as object),
          teacher: { id: me.id, fullName: me.fullName },
          createdAt: new Date().toISOString(),
        }),
      }),
      'GET /api/dashboard': 'pending',
    });
    await screen.findByRole('article', { name: 'Older course' });

    await user.click(screen.getByRole('button', { name: 'Create Course' }));
    const dialog = screen.getByRole('dialog', { name: 'Create Course' });
    expect(within(dialog).getByLabelText('Course Title')).toBeRequired();
    expect(within(dialog).getByLabelText('Course Code')).toHaveAttribute('placeholder', 'e.g. CS101');
    expect(within(dialog).getByLabelText('Description')).toHaveAttribute('rows', '4');
    await user.type(within(dialog).getByLabelText('Course Title'), ' Marine Biology ');
    await user.type(within(dialog).getByLabelText('Course Code'), 'BIO220');
    await user.type(within(dialog).getByLabelText('Description'), 'Life in the oceans.');
    await user.click(within(dialog).getByRole('button', { name: 'Create Course' }));

    expect(await findToast('Course created successfully!')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      title: 'Marine Biology',
      code: 'BIO220',
      description: 'Life in the oceans.',
    });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(courseCards()[0]).toHaveAccessibleName('Marine Biology');
    // Loaded once each, never again: the current courses and the past classes (?archived=true, DESIGN §20).
    expect(calls.filter((call) => call.path === '/api/courses' && call.method === 'GET')).toHaveLength(2);
  });

  it("toasts 'Failed to create course' and keeps the dialog open when the server refuses", async () => {
    const { user } = renderCourses('teacher', {
      'GET /api/courses': { body: [] },
      'POST /api/courses': apiError(400, 'body.title is required', 'validation_failed'),
    });
    await user.click(await screen.findByRole('button', { name: 'Create Course' }));
    const dialog = screen.getByRole('dialog', { name: 'Create Course' });
    await user.type(within(dialog).getByLabelText('Course Title'), 'X');
    await user.type(within(dialog).getByLabelText('Course Code'), 'X1');
    await user.type(within(dialog).getByLabelText('Description'), 'Y');
    await user.click(within(dialog).getByRole('button', { name: 'Create Course' }));
    expect(await findToast('Failed to create course')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Create Course' })).toBeInTheDocument();
  });

  it('asks first, then adds the one sample course to the list', async () => {
    const samples = [createCourse({ title: 'Sample A' })];
    const { user } = renderCourses('teacher', {
      'GET /api/courses': { body: [] },
      'POST /api/courses/samples': { status: 201, body: samples },
      'GET /api/dashboard': 'pending',
    });
    await user.click(await screen.findByRole('button', { name: 'Generate Samples' }));
    await answerConfirm(user, 'Create sample course', SAMPLE_CONFIRMATION.description as string);
    expect(await findToast(SAMPLE_CREATED)).toBeInTheDocument();
    // The toast can come a render before the list shows the new course.
    await waitFor(() => expect(courseCards()).toHaveLength(1));
  });

  it("toasts 'Failed to create sample courses' when generating fails", async () => {
    const { user } = renderCourses('teacher', {
      'GET /api/courses': { body: [] },
      'POST /api/courses/samples': apiError(500, 'Boom', 'internal_error'),
    });
    await user.click(await screen.findByRole('button', { name: 'Generate Samples' }));
    await answerConfirm(user, 'Create sample course');
    expect(await findToast('Failed to create sample courses')).toBeInTheDocument();
  });

  describe('deleting a course', () => {
    async function renderOwnCourse(deleteReply: Route) {
      const view = renderRoute('/courses', 'teacher', (me) => {
        const course = createCourse({ title: 'Doomed', teacherId: me.id });
        return {
          'GET /api/courses': { body: [course] },
          [`GET /api/bin/course/${course.id}/contents`]: {
            body: { submissions: 0, grades: 0, drafts: 0, assignments: 2, students: 12 },
          },
          [`DELETE /api/courses/${course.id}`]: deleteReply,
          'GET /api/dashboard': 'pending',
          'GET /api/bin': { body: { items: [] } },
        };
      });
      const card = await screen.findByRole('article', { name: 'Doomed' });
      return { ...view, card };
    }

    it('asks in the app’s dialog, naming what goes to the bin, and does nothing on Cancel', async () => {
      const { user, calls, card } = await renderOwnCourse({ status: 204 });
      await user.click(within(card).getByRole('button', { name: 'Delete course' }));
      const dialog = await screen.findByRole('alertdialog', { name: 'Delete the course “Doomed”?' });
      expect(dialog).toHaveAccessibleDescription('It moves to the bin with 2 assignments, 12 students.');
      expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
      await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
      expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
      expect(screen.getByRole('article', { name: 'Doomed' })).toBeInTheDocument();
    });

    it('moves the course to the bin once confirmed, with Undo in the toast', async () => {
      const { user, card } = await renderOwnCourse({ status: 204 });
      await user.click(within(card).getByRole('button', { name: 'Delete course' }));
      const dialog = await screen.findByRole('alertdialog', { name: 'Delete the course “Doomed”?' });
      await user.click(within(dialog).getByRole('button', { name: 'Delete course' }));
      expect(await findToast('Course moved to the bin')).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Undo' })).toBeInTheDocument();
      // The toast can come a render before the list drops the course.
      await waitFor(() => expect(screen.queryByRole('article', { name: 'Doomed' })).not.toBeInTheDocument());
      expect(screen.getByRole('heading', { name: 'No courses available' })).toBeInTheDocument();
    });

    it('keeps the course and explains when it still has assignments', async () => {
      const { user, card } = await renderOwnCourse(apiError(409, 'It has 3 assignments. Delete them first.'));
      await user.click(within(card).getByRole('button', { name: 'Delete course' }));
      const dialog = await screen.findByRole('alertdialog', { name: 'Delete the course “Doomed”?' });
      await user.click(within(dialog).getByRole('button', { name: 'Delete course' }));
      expect(
        await findToast('Failed to delete course. It might have associated assignments.'),
      ).toBeInTheDocument();
      expect(await findToast('It has 3 assignments. Delete them first.')).toBeInTheDocument();
      expect(screen.getByRole('article', { name: 'Doomed' })).toBeInTheDocument();
    });
  });
});
