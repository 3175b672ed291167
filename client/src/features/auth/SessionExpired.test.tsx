import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { draftUrl, openDialog, statusLine, freshDeviceForEachTest } from '../../test/answerDialog';
import { apiError } from '../../test/api';
import { createProfile, createSession } from '../../test/factories';
import { readDeviceDraft } from '../drafts/deviceStore';

/**
 * Issue 12: "If the session expired, a sign-in dialog opens in place and the text stays." A refused
 * refresh keeps the page (and the answer being written) under a sign-in dialog; an explicit
 * sign-out still goes to /login (guards.test.tsx, e2e/live and e2e/accounts).
 */
freshDeviceForEachTest();

const expiredThenSaved =
  (puts: unknown[], signedInAgain: () => boolean) =>
  ({ body }: { body: unknown }) => {
    puts.push(body);
    return signedInAgain()
      ? { body: { version: 1, updatedAt: new Date().toISOString() } }
      : apiError(401, 'The access token has expired.', 'token_expired');
  };

async function expireWhileWriting(signInAs: (meId: string) => { id: string; fullName: string }) {
  const puts: unknown[] = [];
  let signedInAgain = false;
  let who: { id: string; fullName: string } | null = null;
  const view = await openDialog((a) => ({
    [`PUT ${draftUrl(a)}`]: expiredThenSaved(puts, () => signedInAgain),
    'POST /api/auth/refresh': apiError(401, 'The session is no longer valid.', 'refresh_token_invalid'),
    'POST /api/auth/signin': () => {
      signedInAgain = true;
      return { body: { session: createSession({ user: { ...createSession().user, id: who!.id } }) } };
    },
    'GET /api/me': () => ({
      body: {
        user: { ...createSession().user, id: who!.id },
        profile: createProfile({ ...who!, role: 'student' }),
      },
    }),
    'GET /api/dashboard': apiError(503, 'Not now.', 'service_unavailable'),
    'GET /api/events': { body: { events: [] } },
  }));
  who = signInAs(view.me.id);
  await view.user.type(view.box, 'Written as it expired');
  const expired = await screen.findByRole('dialog', { name: 'Your session expired' }, { timeout: 4000 });
  return { ...view, puts, expired };
}

async function signInThrough(expired: HTMLElement, user: UserEvent) {
  await user.type(within(expired).getByLabelText('Email'), 'ada@example.org');
  await user.type(within(expired).getByLabelText('Password', { selector: 'input' }), 'correct horse battery');
  await user.click(within(expired).getByRole('button', { name: 'Sign In' }));
}

describe('a session that expires while a student writes', () => {
  it('keeps the answer on screen under a sign-in dialog, says the truth, and saves after signing in again', async () => {
    const { user, box, expired, puts, me, assignment } = await expireWhileWriting((id) => ({
      id,
      fullName: 'Grace Hopper',
    }));
    // The page did not go to /login: the answer and its text are still there.
    expect(screen.getByRole('dialog', { name: 'Submit Assignment' })).toBeInTheDocument();
    expect(box).toHaveValue('Written as it expired');
    await waitFor(() => expect(statusLine()).toHaveTextContent('Saved on this device — sign in to save'));
    expect(await readDeviceDraft(me.id, assignment.id)).toMatchObject({
      content: 'Written as it expired',
      synced: false,
    });
    expect(screen.getByTestId('connection-state')).toHaveTextContent('Signed out — sign in to reconnect');

    await signInThrough(expired, user);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Your session expired' })).toBeNull());
    expect(box).toHaveValue('Written as it expired');
    await waitFor(() => expect(statusLine()).toHaveTextContent(/^Saved \d\d:\d\d$/), { timeout: 4000 });
    expect(puts.at(-1)).toEqual({ content: 'Written as it expired', baseVersion: 0 });
  }, 15_000);

  it('starts clean on the dashboard when another account signs in, keeping the first one’s text on the device', async () => {
    const other = createProfile({ fullName: 'Alan Turing' });
    const { user, expired, me, assignment } = await expireWhileWriting(() => other);
    await signInThrough(expired, user);
    await waitFor(() => expect(document.title).toMatch(/^Dashboard/), { timeout: 4000 });
    expect(screen.getByRole('complementary', { name: 'Sidebar' })).toHaveTextContent('Alan Turing');
    expect(screen.queryByRole('dialog', { name: 'Submit Assignment' })).toBeNull();
    expect(screen.queryByText('Essay')).toBeNull();
    expect(await readDeviceDraft(me.id, assignment.id)).toMatchObject({ content: 'Written as it expired' });
  }, 15_000);
});
