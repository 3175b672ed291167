import { oidcSigninErrorMessages, verifyLinkErrorMessages } from '@classwave/shared';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '../../test/appRoutes';
import { apiError, answerApi } from '../../test/api';
import { createProfile, createSession, signedOutAuth } from '../../test/factories';
import { findToast, renderWithProviders } from '../../test/renderWithProviders';

const renderLogin = (route = '/login') =>
  renderWithProviders(<AppRoutes />, { route, preloadedState: { auth: signedOutAuth() } });

describe('LoginPage', () => {
  it('asks for a required e-mail and password, with a show/hide toggle and a link to sign up', () => {
    renderLogin();
    expect(screen.getByLabelText('Email')).toBeRequired();
    expect(screen.getByLabelText('Email')).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText('Password')).toBeRequired();
    expect(screen.getByRole('button', { name: 'Show password' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create an account' })).toHaveAttribute('href', '/signup');
  });

  it('submits with Enter from the password field', async () => {
    const { user } = renderLogin();
    const form = screen.getByRole('button', { name: 'Sign In' }).closest('form')!;
    let submitted = 0;
    form.addEventListener('submit', (event) => {
      // Counted here and stopped before React's handler, so no request leaves the test.
      event.preventDefault();
      event.stopPropagation();
      submitted += 1;
    });
    // Empty required fields stop a browser's submit; jsdom does the same, so fill them first.
    await user.type(screen.getByLabelText('Email'), 'ada@example.org');
    await user.type(screen.getByLabelText('Password'), 'analytical{Enter}');
    expect(submitted).toBe(1);
  });

  it('confirms a verified address after the e-mail link', () => {
    renderLogin('/login?verified=1');
    expect(screen.getByText('Your e-mail address is verified.')).toBeInTheDocument();
  });

  it.each(['link_expired', 'link_used', 'link_invalid'] as const)(
    'explains a %s verification link and offers a new one',
    (reason) => {
      renderLogin(`/login?error=${reason}`);
      expect(screen.getByRole('alert')).toHaveTextContent(verifyLinkErrorMessages[reason]);
      expect(screen.getByRole('button', { name: 'Resend verification e-mail' })).toBeInTheDocument();
      expect(screen.getByLabelText('Your e-mail address')).toBeRequired();
    },
  );

  it('says "Already verified — sign in" for a used link of a confirmed account, without offering a resend', () => {
    renderLogin('/login?error=already_verified');
    expect(screen.getByText('Already verified — sign in.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Resend verification e-mail' })).not.toBeInTheDocument();
  });

  it('links to the forgot-password page', () => {
    renderLogin();
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute(
      'href',
      '/forgot-password',
    );
  });

  it('ignores an unknown error reason in the address', () => {
    renderLogin('/login?error=something_else');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it("clears a failed attempt's toast once signing in succeeds", async () => {
    const session = createSession();
    let attempts = 0;
    answerApi({
      'POST /api/auth/signin': () =>
        ++attempts === 1
          ? apiError(400, 'Invalid login credentials', 'invalid_credentials')
          : { body: { session } },
      'GET /api/me': { body: { profile: createProfile({ id: session.user.id }) } },
      'GET /api/dashboard': 'pending',
    });
    const { user } = renderLogin();
    await user.type(screen.getByLabelText('Email'), 'ada@example.org');
    await user.type(screen.getByLabelText('Password'), 'wrong password{Enter}');
    expect(await findToast('Invalid login credentials')).toBeInTheDocument();

    await user.clear(screen.getByLabelText('Password'));
    await user.type(screen.getByLabelText('Password'), 'analytical{Enter}');
    expect(await findToast('Signed in successfully!')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Invalid login credentials')).not.toBeInTheDocument());
  });

  // Issue 25: an unverified sign-in said it twice, in the notice and in a toast.
  it('says once, above the form, that the address is not verified yet, with a way to resend', async () => {
    answerApi({
      'POST /api/auth/signin': apiError(
        403,
        'Please verify your e-mail address first.',
        'email_not_confirmed',
      ),
    });
    const { user } = renderLogin();
    await user.type(screen.getByLabelText('Email'), 'ada@example.org');
    await user.type(screen.getByLabelText('Password'), 'analytical{Enter}');
    expect(await screen.findByRole('button', { name: 'Resend verification e-mail' })).toBeInTheDocument();
    expect(screen.getAllByText(/verify your e-mail address first/)).toHaveLength(1);
    expect(document.querySelector('[data-sonner-toast]')).toBeNull();
  });

  describe("the school's sign-in (DESIGN §20)", () => {
    const settings = (passwordSignin: boolean) =>
      answerApi({
        'GET /api/auth/settings': {
          body: { teacherSignup: 'open', passwordSignin, oidc: { name: 'Northfield School' } },
        },
      });

    it('offers "Sign in with <school>" above the password form when the server has one', async () => {
      settings(true);
      renderLogin();
      const button = await screen.findByRole('link', { name: 'Sign in with Northfield School' });
      expect(button).toHaveAttribute('href', '/api/auth/oidc/start');
      expect(screen.getByLabelText('Email')).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Create an account' })).toBeInTheDocument();
    });

    it('carries the page the visitor was opening (a join link) through the school sign-in, never a foreign one', async () => {
      settings(true);
      renderLogin('/login?next=%2Fjoin%2FABCD-EFGH');
      const button = await screen.findByRole('link', { name: 'Sign in with Northfield School' });
      expect(button).toHaveAttribute('href', '/api/auth/oidc/start?next=%2Fjoin%2FABCD-EFGH');
    });

    it('drops a next that would leave the app', async () => {
      settings(true);
      renderLogin('/login?next=%2F%2Fevil.example%2Fx');
      const button = await screen.findByRole('link', { name: 'Sign in with Northfield School' });
      expect(button).toHaveAttribute('href', '/api/auth/oidc/start');
    });

    it('shows only the school button when password sign-in is off', async () => {
      settings(false);
      renderLogin();
      expect(await screen.findByRole('link', { name: 'Sign in with Northfield School' })).toBeInTheDocument();
      expect(screen.queryByLabelText('Email')).not.toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Sign In' })).not.toBeInTheDocument();
      expect(screen.queryByRole('link', { name: 'Create an account' })).not.toBeInTheDocument();
      expect(screen.queryByRole('link', { name: 'Forgot password?' })).not.toBeInTheDocument();
    });

    it('shows no school button on a server without one', async () => {
      const calls = answerApi({
        'GET /api/auth/settings': { body: { teacherSignup: 'open', passwordSignin: true } },
      });
      renderLogin();
      await waitFor(() => expect(calls.some((c) => c.path === '/api/auth/settings')).toBe(true));
      expect(screen.queryByRole('link', { name: /Sign in with/ })).not.toBeInTheDocument();
    });

    it.each(Object.keys(oidcSigninErrorMessages) as Array<keyof typeof oidcSigninErrorMessages>)(
      'explains a refused school sign-in (%s)',
      (reason) => {
        renderLogin(`/login?error=${reason}`);
        expect(screen.getByRole('alert')).toHaveTextContent(oidcSigninErrorMessages[reason]);
      },
    );
  });
});
