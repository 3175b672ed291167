import { formatDetailDate, formatListDate, type CourseTeacherName, type LiveEvent } from '@classwave/shared';
import { act, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyLiveEvent } from '../../realtime/applyLiveEvent';
import { apiError, type Reply } from '../../test/api';
import { createAssignment, createCourse } from '../../test/factories';
import { findToast } from '../../test/renderWithProviders';
import { renderRoute } from '../../test/renderRoute';
import { coTeachersApi } from '../coteachers/coteachersApi';

afterEach(() => {
  vi.unstubAllGlobals();
});

const renderDetail = (courseId: string, reply: Reply) =>
  renderRoute(`/courses/${courseId}`, 'student', { [`GET /api/courses/${courseId}`]: reply });

describe('CourseDetailPage', () => {
  it('shows the course, its assignments with due dates, its instructor and its resources', async () => {
    const course = createCourse({
      title: 'Introduction to Biology',
      code: 'BIO101',
      description: 'Cells, genes and ecosystems.',
      teacher: { id: 'a0000000-0000-4000-8000-000000000002', fullName: 'Rosalind Franklin' },
    });
    const lab = createAssignment({ title: 'Cell Lab', courseId: course.id, maxPoints: 50 });
    renderDetail(course.id, { body: { course, assignments: [lab] } });

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Introduction to Biology' }),
    ).toBeInTheDocument();
    expect(screen.getByText('BIO101')).toBeInTheDocument();
    expect(screen.getByText(`Created ${formatDetailDate(course.createdAt)}`)).toBeInTheDocument();
    const description = screen.getByRole('region', { name: 'Course Description' });
    expect(description).toHaveTextContent('Cells, genes and ecosystems.');

    const assignments = screen.getByRole('region', { name: 'Assignments' });
    const link = within(assignments).getByRole('link', { name: /Cell Lab/ });
    expect(link).toHaveAttribute('href', '/assignments');
    expect(link).toHaveTextContent(`Due ${formatListDate(lab.dueDate)}`);

    expect(screen.getByRole('region', { name: 'Instructor' })).toHaveTextContent('Rosalind Franklin');
    const resources = screen.getByRole('region', { name: 'Resources' });
    expect(within(resources).getByText('Course Materials (Coming Soon)')).toBeInTheDocument();
    expect(within(resources).getByText('Live Classes (Coming Soon)')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to courses' })).toHaveAttribute('href', '/courses');
  });

  it('names every teacher on the Instructors card, the owner first', async () => {
    const course = createCourse({
      teacher: { id: 'a0000000-0000-4000-8000-000000000002', fullName: 'Rosalind Franklin' },
    });
    renderDetail(course.id, {
      body: {
        course,
        assignments: [],
        teachers: [
          { id: 'a0000000-0000-4000-8000-000000000002', fullName: 'Rosalind Franklin', role: 'owner' },
          { id: 'a0000000-0000-4000-8000-000000000003', fullName: 'Maurice Wilkins', role: 'co_teacher' },
        ],
      },
    });
    const card = await screen.findByRole('region', { name: 'Instructors' });
    const people = within(card).getAllByRole('listitem');
    expect(people.map((p) => p.textContent)).toEqual([
      expect.stringMatching(/Rosalind Franklin.*Owner/),
      expect.stringMatching(/Maurice Wilkins.*Co-teacher/),
    ]);
  });

  it("follows a change of teachers live on a student's Instructors card", async () => {
    const course = createCourse({
      teacher: { id: 'a0000000-0000-4000-8000-000000000002', fullName: 'Rosalind Franklin' },
    });
    const rosalind = { id: course.teacherId, fullName: 'Rosalind Franklin', role: 'owner' as const };
    const maurice = {
      id: 'a0000000-0000-4000-8000-000000000003',
      fullName: 'Maurice Wilkins',
      role: 'co_teacher' as const,
    };
    // The members' view of course:teachers: names only, never an address or an invitation.
    const teachersNow = (id: number, teachers: CourseTeacherName[]): LiveEvent<'course:teachers'> => ({
      id,
      type: 'course:teachers',
      at: new Date().toISOString(),
      data: { courseId: course.id, teachers, invites: [] },
    });
    const { store } = renderDetail(course.id, { body: { course, assignments: [], teachers: [rosalind] } });
    expect(await screen.findByRole('region', { name: 'Instructor' })).toHaveTextContent('Rosalind Franklin');

    act(() => {
      store.dispatch(applyLiveEvent(teachersNow(9002, [rosalind, maurice])));
    });
    const card = await screen.findByRole('region', { name: 'Instructors' });
    const people = within(card).getAllByRole('listitem');
    expect(people.map((p) => p.textContent)).toEqual([
      expect.stringMatching(/Rosalind Franklin.*Owner/),
      expect.stringMatching(/Maurice Wilkins.*Co-teacher/),
    ]);
    // Not taken for the teachers' list (addresses, invitations), which a student cannot read.
    const teachersList = coTeachersApi.endpoints.getCourseTeachers.select(course.id);
    expect(teachersList(store.getState() as never).data).toBeUndefined();

    act(() => {
      store.dispatch(applyLiveEvent(teachersNow(9003, [rosalind])));
    });
    expect(await screen.findByRole('region', { name: 'Instructor' })).toHaveTextContent('Rosalind Franklin');
    expect(screen.queryByText('Maurice Wilkins')).not.toBeInTheDocument();
  });

  it('says when the course has no assignments yet', async () => {
    const course = createCourse();
    renderDetail(course.id, { body: { course, assignments: [] } });
    expect(await screen.findByText('No assignments for this course yet.')).toBeInTheDocument();
  });

  it("shows 'Course not found' with a way back when there is no such course", async () => {
    const id = '20000000-0000-4000-8000-000000000404';
    renderDetail(id, apiError(404, 'Course not found', 'not_found'));
    expect(await screen.findByRole('heading', { name: 'Course not found' })).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Back to courses' })[0]).toHaveAttribute('href', '/courses');
    expect(screen.queryByText('Failed to load course details.')).not.toBeInTheDocument();
  });

  it("toasts 'Failed to load course details.' for any other failure", async () => {
    const id = '20000000-0000-4000-8000-000000000500';
    renderDetail(id, apiError(500, 'Boom', 'internal_error'));
    expect(await findToast('Failed to load course details.')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Course not found' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
