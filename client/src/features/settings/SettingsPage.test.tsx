import type { SessionInfo } from '@classwave/shared';
import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError } from '../../test/api';
import { nextId } from '../../test/factories';
import { findToast } from '../../test/renderWithProviders';
import { renderRoute } from '../../test/renderRoute';

/** Types a whole value at once (a paste): the behaviour under test is the form, not each keystroke. */
async function fill(user: UserEvent, field: HTMLElement, text: string) {
  await user.clear(field);
  await user.click(field);
  await user.paste(text);
}

afterEach(() => {
  vi.unstubAllGlobals();
});

const session = (overrides: Partial<SessionInfo> = {}): SessionInfo => ({
  id: nextId(),
  device: 'Firefox on Windows',
  createdAt: '2026-11-20T09:00:00.000Z',
  lastSeenAt: '2026-11-23T10:00:00.000Z',
  current: false,
  ...overrides,
});

const sessions = [
  session({ current: true, device: 'Chrome on macOS' }),
  session({ device: 'Safari on iOS' }),
];

describe('SettingsPage', () => {
  it('saves a new name and shows it at once', async () => {
    const { user, calls, me, store } = renderRoute('/settings', 'student', (me) => ({
      'GET /api/me/sessions': { body: { sessions } },
      'PATCH /api/me': ({ body }) => ({ body: { ...me, ...(body as object) } }),
    }));
    const name = screen.getByLabelText('Full name');
    expect(name).toHaveValue('Grace Hopper');
    expect(screen.getByRole('button', { name: 'Save name' })).toBeDisabled();
    await user.clear(name);
    await fill(user, name, 'Grace B. Hopper');
    await user.click(screen.getByRole('button', { name: 'Save name' }));
    expect(await findToast('Your name has been saved.')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ fullName: 'Grace B. Hopper' });
    expect(store.getState().auth.profile).toEqual({ ...me, fullName: 'Grace B. Hopper' });
  });

  it('changes the password with the current one, and shows a wrong current password', async () => {
    let attempt = 0;
    const { user, calls } = renderRoute('/settings', 'student', {
      'GET /api/me/sessions': { body: { sessions } },
      'POST /api/me/password': () =>
        ++attempt === 1
          ? apiError(403, 'Your current password is not right.', 'wrong_password')
          : { body: { message: 'Your password has been changed. Your other sessions were signed out.' } },
    });
    await fill(user, screen.getByLabelText('Current password'), 'wrong one');
    await fill(user, screen.getByLabelText('New password'), 'a new passphrase');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    // Issue 25: said only in a toast; now under the field, which takes focus.
    const current = screen.getByLabelText('Current password');
    await waitFor(() => expect(current).toHaveAccessibleDescription('Your current password is not right.'));
    expect(current).toBeInvalid();
    expect(current).toHaveFocus();
    await user.clear(screen.getByLabelText('Current password'));
    await fill(user, screen.getByLabelText('Current password'), 'the right one');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await findToast(/Your other sessions were signed out/)).toBeInTheDocument();
    expect(calls.filter((c) => c.path === '/api/me/password').at(-1)?.body).toEqual({
      currentPassword: 'the right one',
      newPassword: 'a new passphrase',
    });
    expect(screen.getByLabelText('Current password')).toHaveValue('');
  });

  it('lists the sessions with this device marked, and signs out everywhere else', async () => {
    let listed = sessions;
    const { user, calls } = renderRoute('/settings', 'teacher', {
      'GET /api/me/sessions': () => ({ body: { sessions: listed } }),
      'DELETE /api/me/sessions': () => {
        listed = sessions.filter((s) => s.current);
        return { body: { ended: 1 } };
      },
    });
    const list = await screen.findByRole('list', { name: 'Signed-in sessions' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((i) => i.textContent)).toEqual([
      expect.stringContaining('Chrome on macOSThis device'),
      expect.stringContaining('Safari on iOS'),
    ]);
    await user.click(screen.getByRole('button', { name: 'Sign out everywhere else' }));
    expect(await findToast('Signed out of 1 other session.')).toBeInTheDocument();
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
    expect(screen.getByRole('button', { name: 'Sign out everywhere else' })).toBeDisabled();
    expect(calls.some((c) => c.method === 'DELETE' && c.path === '/api/me/sessions')).toBe(true);
  });

  // Issue 25: only "everywhere else" could be signed out, not one lost phone.
  it('signs one other device out on its own', async () => {
    const tablet = session({ device: 'Firefox on Android' });
    let listed = [...sessions, tablet];
    const phone = sessions[1]!;
    const { user, calls } = renderRoute('/settings', 'teacher', {
      'GET /api/me/sessions': () => ({ body: { sessions: listed } }),
      [`DELETE /api/me/sessions/${phone.id}`]: () => {
        listed = listed.filter((s) => s.id !== phone.id);
        return { status: 204 };
      },
    });
    const list = await screen.findByRole('list', { name: 'Signed-in sessions' });
    expect(within(list).getAllByRole('button', { name: /^Sign out of / })).toHaveLength(2);
    await user.click(within(list).getByRole('button', { name: /^Sign out of Safari on iOS/ }));
    expect(await findToast('Signed out of Safari on iOS.')).toBeInTheDocument();
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(2));
    expect(list).not.toHaveTextContent('Safari on iOS');
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([
      `/api/me/sessions/${phone.id}`,
    ]);
  });

  it('tells a teacher who owns courses to delete or hand them over before deleting the account', async () => {
    const message =
      'You still own courses. Delete them or hand them over to another teacher before deleting your account.';
    const { user, calls } = renderRoute('/settings', 'teacher', {
      'GET /api/me/sessions': { body: { sessions } },
      'DELETE /api/me': apiError(409, message, 'owns_courses'),
    });
    await user.click(screen.getByRole('button', { name: 'Delete my account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete your account?' });
    await fill(user, within(dialog).getByLabelText('Password'), 'my password');
    await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    expect(await within(dialog).findByText(message)).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'DELETE' && c.path === '/api/me')?.body).toEqual({
      password: 'my password',
    });
  });

  it('deletes the account with the password and signs out', async () => {
    const { user, store } = renderRoute('/settings', 'student', {
      'GET /api/me/sessions': { body: { sessions } },
      'DELETE /api/me': { status: 204 },
    });
    await user.click(screen.getByRole('button', { name: 'Delete my account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete your account?' });
    await fill(user, within(dialog).getByLabelText('Password'), 'my password');
    await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    expect(await findToast('Your account has been deleted.')).toBeInTheDocument();
    expect(store.getState().auth.status).toBe('signedOut');
  });
});
