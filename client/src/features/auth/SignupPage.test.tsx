import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/renderWithProviders';
import { signedOutAuth } from '../../test/factories';
import { AppRoutes } from '../../test/appRoutes';
import { answerApi, type Reply } from '../../test/api';

// The screen after sign-up depends only on the answers of GET /api/auth/settings and POST
// /api/auth/signup. The real exchange is covered end to end with Playwright.
function answerSignup(
  status: number,
  body: unknown,
  teacherSignup: Reply = { body: { teacherSignup: 'open' } },
) {
  return answerApi({
    'GET /api/auth/settings': teacherSignup,
    'POST /api/auth/signup': { status, body },
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

async function fillAndSubmit(user: ReturnType<typeof renderWithProviders>['user']) {
  await user.type(screen.getByLabelText('Full name'), 'Grace Hopper');
  await user.click(screen.getByRole('radio', { name: 'Teacher' }));
  await user.type(screen.getByLabelText('Email'), 'grace@example.org');
  await user.type(screen.getByLabelText('Password'), 'correct horse battery');
  await user.click(screen.getByRole('button', { name: 'Create Account' }));
}

describe('SignupPage', () => {
  it('sends the browser to the login page when password sign-in is off (PASSWORD_SIGNIN=off)', async () => {
    answerApi({
      'GET /api/auth/settings': {
        body: { teacherSignup: 'open', passwordSignin: false, oidc: { name: 'Northfield School' } },
      },
    });
    renderWithProviders(<AppRoutes />, { route: '/signup', preloadedState: { auth: signedOutAuth() } });
    expect(await screen.findByRole('link', { name: 'Sign in with Northfield School' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Full name')).not.toBeInTheDocument();
  });

  it("shows 'Verification Email Sent!' with the entered address after a successful sign-up", async () => {
    const calls = answerSignup(200, { message: 'Check your e-mail for a verification link.' });
    const { user } = renderWithProviders(<AppRoutes />, {
      route: '/signup',
      preloadedState: { auth: signedOutAuth() },
    });

    await fillAndSubmit(user);

    expect(await screen.findByRole('heading', { name: 'Verification Email Sent!' })).toBeInTheDocument();
    expect(screen.getByText('grace@example.org')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Back to Sign In' })).toBeInTheDocument();

    expect(calls.find((c) => c.path === '/api/auth/signup')?.body).toEqual({
      email: 'grace@example.org',
      password: 'correct horse battery',
      fullName: 'Grace Hopper',
      role: 'teacher',
      redirectTo: `${window.location.origin}/login`,
    });
  });

  it("toasts the server's message and stays on the form when sign-up fails", async () => {
    answerSignup(429, {
      statusCode: 429,
      code: 'rate_limited',
      error: 'Too Many Requests',
      message: 'Too many sign-up attempts. Try again in a minute.',
    });
    const { user } = renderWithProviders(<AppRoutes />, {
      route: '/signup',
      preloadedState: { auth: signedOutAuth() },
    });

    await fillAndSubmit(user);

    expect(await screen.findByText('Too many sign-up attempts. Try again in a minute.')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Verification Email Sent!' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create Account' })).toBeEnabled();
  });

  it('starts with Student chosen and states the password rule', () => {
    answerSignup(200, {});
    renderWithProviders(<AppRoutes />, { route: '/signup', preloadedState: { auth: signedOutAuth() } });
    expect(screen.getByRole('radio', { name: 'Student' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Student' })).toHaveAccessibleDescription(
      'Join courses and hand in work',
    );
    expect(screen.getByRole('radio', { name: 'Teacher' })).not.toBeChecked();
    const password = screen.getByLabelText('Password');
    expect(password).toHaveAccessibleDescription('8 to 128 characters.');
    expect(password).toHaveAttribute('minlength', '8');
    expect(password).toHaveAttribute('maxlength', '128');
    expect(password).toBeRequired();
  });

  it('asks a teacher for the invite code when TEACHER_SIGNUP is code, and sends it', async () => {
    const calls = answerSignup(
      200,
      { message: 'Check your e-mail for a verification link.' },
      { body: { teacherSignup: 'code' } },
    );
    const { user } = renderWithProviders(<AppRoutes />, {
      route: '/signup',
      preloadedState: { auth: signedOutAuth() },
    });
    // A student is never asked for it.
    expect(screen.queryByLabelText('Teacher invite code')).not.toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'Teacher' }));
    const code = await screen.findByLabelText('Teacher invite code');
    expect(code).toBeRequired();
    await user.type(code, 'staff-room-2026');
    await user.type(screen.getByLabelText('Full name'), 'Grace Hopper');
    await user.type(screen.getByLabelText('Email'), 'grace@example.org');
    await user.type(screen.getByLabelText('Password'), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    await screen.findByRole('heading', { name: 'Verification Email Sent!' });
    expect(calls.find((c) => c.path === '/api/auth/signup')?.body).toMatchObject({
      role: 'teacher',
      teacherCode: 'staff-room-2026',
    });
  });

  it('names the school domains a teacher must sign up with when TEACHER_SIGNUP lists them', async () => {
    answerSignup(200, {}, { body: { teacherSignup: 'domains', domains: ['staff.school.example'] } });
    const { user } = renderWithProviders(<AppRoutes />, {
      route: '/signup',
      preloadedState: { auth: signedOutAuth() },
    });
    await user.click(screen.getByRole('radio', { name: 'Teacher' }));
    expect(await screen.findByText(/ending in @staff\.school\.example/)).toBeInTheDocument();
  });
});
