import type { JoinPreview } from '@classwave/shared';
import { screen, waitFor } from '@testing-library/react';
import { useLocation } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '../../test/appRoutes';
import { apiError, answerApi, type Route } from '../../test/api';
import { createCourse, signedInAuth } from '../../test/factories';
import { renderWithProviders } from '../../test/renderWithProviders';

const course = createCourse({ title: 'Marine Biology', code: 'BIO210' });
const preview = (overrides: Partial<JoinPreview> = {}): JoinPreview => ({
  course: { id: course.id, title: course.title, code: course.code },
  teacher: { fullName: 'Rachel Carson' },
  memberCount: 23,
  alreadyMember: false,
  removed: false,
  ...overrides,
});

function LocationProbe() {
  const { pathname, search } = useLocation();
  return <output data-testid="location">{`${pathname}${search}`}</output>;
}

/** Opens /join/abcd-efgh as Ada Lovelace (ada@example.org), a student unless told otherwise. */
function openJoinLink(routes: Record<string, Route>, role: 'student' | 'teacher' = 'student') {
  const auth = signedInAuth({ fullName: 'Ada Lovelace', role });
  const calls = answerApi(routes);
  const view = renderWithProviders(
    <>
      <AppRoutes />
      <LocationProbe />
    </>,
    { route: '/join/abcd-efgh', preloadedState: { auth } },
  );
  return { ...view, calls };
}

const location = () => screen.getByTestId('location').textContent;

describe('the join page (/join/:code)', () => {
  it('names the course, the teacher, the members and the account that will join, then joins', async () => {
    const { user, calls } = openJoinLink({
      'GET /api/join/ABCDEFGH': { body: preview() },
      'POST /api/courses/join': { body: { course } },
      [`GET /api/courses/${course.id}`]: { body: { course, assignments: [] } },
    });

    expect(await screen.findByRole('heading', { level: 1, name: 'Marine Biology' })).toBeInTheDocument();
    expect(screen.getByText('Rachel Carson')).toBeInTheDocument();
    expect(screen.getByText('23 students')).toBeInTheDocument();
    expect(screen.getByText(/You.ll join as/)).toHaveTextContent(
      "You'll join as Ada Lovelace (ada@example.org)",
    );

    await user.click(screen.getByRole('button', { name: 'Join Marine Biology' }));
    expect(calls.find((c) => c.path === '/api/courses/join')?.body).toEqual({ code: 'ABCDEFGH' });
    await waitFor(() => expect(location()).toBe(`/courses/${course.id}`));
    expect(await screen.findByRole('heading', { level: 2, name: 'Assignments' })).toBeInTheDocument();
  });

  it('offers to open the course to a student who is already a member', async () => {
    openJoinLink({ 'GET /api/join/ABCDEFGH': { body: preview({ alreadyMember: true }) } });
    expect(await screen.findByRole('link', { name: 'Open the course' })).toHaveAttribute(
      'href',
      `/courses/${course.id}`,
    );
    expect(screen.queryByRole('button', { name: /^Join/ })).not.toBeInTheDocument();
  });

  // Issue 25: the page offered Join to a removed student, and the server then refused.
  it('tells a removed student the code cannot bring them back, and offers no Join', async () => {
    openJoinLink({ 'GET /api/join/ABCDEFGH': { body: preview({ removed: true }) } });
    expect(await screen.findByRole('alert')).toHaveTextContent(/removed you from this course/);
    expect(screen.getByText('You were removed from this class')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Join/ })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to my courses' })).toHaveAttribute('href', '/courses');
  });

  it('explains a wrong or reset code', async () => {
    openJoinLink({ 'GET /api/join/ABCDEFGH': apiError(404, 'No class has that code.', 'join_code_invalid') });
    expect(await screen.findByRole('heading', { name: 'This class code does not work' })).toBeInTheDocument();
    expect(screen.getByText('No class has that code.')).toBeInTheDocument();
    expect(screen.getByText(/reset by the teacher/)).toBeInTheDocument();
  });

  it('explains that joining is turned off', async () => {
    openJoinLink({
      'GET /api/join/ABCDEFGH': apiError(403, 'Joining is turned off for this class.', 'join_disabled'),
    });
    expect(await screen.findByRole('heading', { name: 'Joining is turned off' })).toBeInTheDocument();
    expect(screen.getByText('Joining is turned off for this class.')).toBeInTheDocument();
  });

  it('shows the reason when joining fails after the preview (joining was turned off meanwhile)', async () => {
    const { user } = openJoinLink({
      'GET /api/join/ABCDEFGH': { body: preview() },
      'POST /api/courses/join': apiError(403, 'Joining is turned off for this class.', 'join_disabled'),
    });
    await user.click(await screen.findByRole('button', { name: 'Join Marine Biology' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Joining is turned off for this class.');
  });

  it('tells a teacher that join links are for students, without asking the server', async () => {
    const { calls } = openJoinLink({}, 'teacher');
    expect(await screen.findByRole('heading', { name: 'Join links are for students' })).toBeInTheDocument();
    expect(calls.some((c) => c.path.startsWith('/api/join'))).toBe(false);
  });

  it('"Not me" signs out and returns to the same link after signing in', async () => {
    const { user, calls } = openJoinLink({
      'GET /api/join/ABCDEFGH': { body: preview() },
      'POST /api/auth/signout': { status: 204 },
    });
    await user.click(await screen.findByRole('button', { name: 'Not me' }));
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/api/auth/signout')).toBe(true);
    expect(location()).toBe('/login?next=%2Fjoin%2FABCD-EFGH');
  });
});
