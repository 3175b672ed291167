import { ErrorCode, type TeacherInvitePreview } from '@classwave/shared';
import { screen, waitFor } from '@testing-library/react';
import { useLocation } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '../../test/appRoutes';
import { answerApi, apiError, type Route } from '../../test/api';
import { createCourse, signedInAuth, signedOutAuth } from '../../test/factories';
import { renderWithProviders } from '../../test/renderWithProviders';

const TOKEN = 'tok_abcdefghijklmnopqrstuvwxyz0123456789ABCDE';
const auth = signedInAuth({ fullName: 'Grace Hopper', role: 'teacher' });
const email = auth.session!.user.email;
const course = createCourse({ title: 'Marine Biology', teacher: { id: 'owner', fullName: 'Rachel Carson' } });
const preview = (over: Partial<TeacherInvitePreview> = {}): TeacherInvitePreview => ({
  course: { id: course.id, title: course.title },
  invitedBy: { fullName: 'Rachel Carson' },
  email,
  expiresAt: '2099-01-01T00:00:00.000Z',
  ...over,
});

function LocationProbe() {
  const { pathname, search } = useLocation();
  return <output data-testid="location">{`${pathname}${search}`}</output>;
}
const location = () => screen.getByTestId('location').textContent;

function openInvite(routes: Record<string, Route>, state = { auth }) {
  const calls = answerApi(routes);
  const view = renderWithProviders(
    <>
      <AppRoutes />
      <LocationProbe />
    </>,
    { route: `/teacher-invites/${TOKEN}`, preloadedState: state },
  );
  return { ...view, calls };
}

describe('the invitation page (/teacher-invites/:token)', () => {
  it('names the course and who invited, then accepts and opens the course', async () => {
    const { user, calls } = openInvite({
      [`GET /api/teacher-invites/${TOKEN}`]: { body: preview() },
      [`POST /api/teacher-invites/${TOKEN}/accept`]: { body: { course } },
      [`GET /api/courses/${course.id}`]: { body: { course, assignments: [] } },
      [`GET /api/courses/${course.id}/members`]: { body: [] },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Marine Biology' })).toBeInTheDocument();
    expect(screen.getByText('Rachel Carson')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Accept and co-teach' }));
    expect(calls.some((c) => c.path === `/api/teacher-invites/${TOKEN}/accept`)).toBe(true);
    await waitFor(() => expect(location()).toBe(`/courses/${course.id}`));
  });

  it('says plainly when the link has expired, and offers no Accept', async () => {
    openInvite({
      [`GET /api/teacher-invites/${TOKEN}`]: apiError(
        410,
        'This invitation has expired. Ask the course owner to invite you again.',
        ErrorCode.teacherInviteExpired,
      ),
    });
    expect(
      await screen.findByRole('heading', { name: 'This invitation cannot be used' }),
    ).toBeInTheDocument();
    expect(screen.getByText(/has expired/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Accept and co-teach' })).not.toBeInTheDocument();
  });

  it('warns an account with another address, and offers to sign in with the right one', async () => {
    openInvite({
      [`GET /api/teacher-invites/${TOKEN}`]: { body: preview({ email: 'someone.else@school.org' }) },
    });
    expect(await screen.findByText(/This invitation is for someone.else@school.org/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Accept and co-teach' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign in with another account' })).toBeInTheDocument();
  });

  it('sends a signed-out visitor to sign in first, and back here after', async () => {
    openInvite({}, { auth: signedOutAuth() });
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    expect(location()).toBe(`/login?next=${encodeURIComponent(`/teacher-invites/${TOKEN}`)}`);
  });
});
