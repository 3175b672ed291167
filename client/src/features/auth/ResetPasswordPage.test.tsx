import { screen } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '../../test/appRoutes';
import { answerApi, apiError } from '../../test/api';
import { signedOutAuth } from '../../test/factories';
import { findToast, renderWithProviders } from '../../test/renderWithProviders';

/** Types a whole value at once (a paste): the behaviour under test is the form, not each keystroke. */
async function fill(user: UserEvent, field: HTMLElement, text: string) {
  await user.clear(field);
  await user.click(field);
  await user.paste(text);
}

afterEach(() => {
  vi.unstubAllGlobals();
});

const renderAt = (route: string) =>
  renderWithProviders(<AppRoutes />, { route, preloadedState: { auth: signedOutAuth() } });

describe('ForgotPasswordPage', () => {
  it('sends the address with the reset page as redirect, and shows the same answer whatever it was', async () => {
    const message = 'If an account uses that address, we have sent it a link to choose a new password.';
    const calls = answerApi({ 'POST /api/auth/recover': { body: { message } } });
    const { user } = renderAt('/forgot-password');
    await fill(user, screen.getByLabelText('Email'), ' ada@example.org ');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByRole('heading', { name: 'Check your e-mail' })).toBeInTheDocument();
    expect(screen.getByText(message)).toBeInTheDocument();
    expect(calls[0]).toEqual({
      method: 'POST',
      path: '/api/auth/recover',
      body: { email: 'ada@example.org', redirectTo: `${window.location.origin}/reset-password` },
    });
  });
});

describe('ResetPasswordPage', () => {
  it('sets the new password with the token from the link, then goes to sign in', async () => {
    const calls = answerApi({
      'POST /api/auth/reset/check': { body: { message: 'This link works: choose a new password.' } },
      'POST /api/auth/reset': {
        body: { message: 'Your password has been changed. Sign in with the new one.' },
      },
    });
    const { user } = renderAt('/reset-password?token=abc123');
    const password = screen.getByLabelText('New password');
    expect(password).toHaveAttribute('minlength', '8');
    expect(password).toHaveAccessibleDescription('8 to 128 characters.');
    await fill(user, password, 'a brand new passphrase');
    await fill(user, screen.getByLabelText('Repeat new password'), 'a brand new passphrase');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await findToast('Your password has been changed. Sign in with the new one.')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    expect(calls.map((c) => [c.path, c.body])).toEqual([
      ['/api/auth/reset/check', { token: 'abc123' }],
      ['/api/auth/reset', { token: 'abc123', password: 'a brand new passphrase' }],
    ]);
  });

  it('refuses two different passwords without asking the server', async () => {
    const calls = answerApi({ 'POST /api/auth/reset/check': { body: { message: 'This link works.' } } });
    const { user } = renderAt('/reset-password?token=abc123');
    await fill(user, screen.getByLabelText('New password'), 'a brand new passphrase');
    await fill(user, screen.getByLabelText('Repeat new password'), 'a different passphrase');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByText('The two passwords are not the same.')).toBeInTheDocument();
    expect(calls.filter((c) => c.path === '/api/auth/reset')).toEqual([]);
  });

  // Issue 25: a used link was said only after the new password had been typed twice.
  it('says a used link at once, as the page opens', async () => {
    answerApi({
      'POST /api/auth/reset/check': apiError(
        400,
        'This password-reset link has already been used. Ask for a new link from the sign-in page.',
        'reset_link_invalid',
      ),
    });
    renderAt('/reset-password?token=used');
    expect(await screen.findByText(/has already been used/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Get a new reset link' })).toBeInTheDocument();
  });

  it('explains a link used meanwhile when the new password is sent, and offers a new one', async () => {
    answerApi({
      'POST /api/auth/reset/check': { body: { message: 'This link works.' } },
      'POST /api/auth/reset': apiError(
        400,
        'This password-reset link has already been used. Ask for a new link from the sign-in page.',
        'reset_link_invalid',
      ),
    });
    const { user } = renderAt('/reset-password?token=used');
    await fill(user, screen.getByLabelText('New password'), 'a brand new passphrase');
    await fill(user, screen.getByLabelText('Repeat new password'), 'a brand new passphrase');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByText(/has already been used/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Get a new reset link' })).toHaveAttribute(
      'href',
      '/forgot-password',
    );
  });

  it('says the page needs the link when opened without a token', () => {
    answerApi({});
    renderAt('/reset-password');
    expect(screen.getByText('This page needs the link from the password-reset e-mail.')).toBeInTheDocument();
  });
});
