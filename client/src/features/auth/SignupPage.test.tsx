import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/renderWithProviders';
import { signedOutAuth } from '../../test/factories';
import { AppRoutes } from '../../app/router';

// The one place a test answers for the server: the screen after sign-up depends only on the status
// and body of POST /api/auth/signup. The real exchange is covered end to end with Playwright.
function answerSignup(status: number, body: unknown) {
  const fetchMock = vi.fn(
    async (_input: RequestInfo | URL) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
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
  it("shows 'Verification Email Sent!' with the entered address after a successful sign-up", async () => {
    const fetchMock = answerSignup(200, { message: 'Check your e-mail for a verification link.' });
    const { user } = renderWithProviders(<AppRoutes />, {
      route: '/signup',
      preloadedState: { auth: signedOutAuth() },
    });

    await fillAndSubmit(user);

    expect(await screen.findByRole('heading', { name: 'Verification Email Sent!' })).toBeInTheDocument();
    expect(screen.getByText('grace@example.org')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Back to Sign In' })).toBeInTheDocument();

    const request = fetchMock.mock.calls[0]![0] as Request;
    expect(new URL(request.url).pathname).toBe('/api/auth/signup');
    expect(await request.json()).toEqual({
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
});
