import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeStore } from '../../app/store';
import { answerApi, apiError } from '../../test/api';
import { createProfile, createSession, signedInAuth } from '../../test/factories';
import { readDeviceDraft, writeDeviceDraft } from '../drafts/deviceStore';
import { dashboardApi } from '../dashboard/dashboardApi';
import { authApi } from './authApi';
import { followOtherTab, restoreSession, signOut, startSession } from './session';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('restoreSession', () => {
  it('signs in with the profile that came with the refresh, without asking GET /api/me', async () => {
    const session = createSession();
    const profile = createProfile({ fullName: 'Grace Hopper', role: 'teacher' });
    const calls = answerApi({ 'POST /api/auth/refresh': { body: { session, profile } } });
    const store = makeStore();
    await store.dispatch(restoreSession());
    expect(store.getState().auth).toEqual({ status: 'signedIn', session, profile });
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /api/auth/refresh']);
  });

  it('uses the session check the page started early, without a refresh of its own', async () => {
    const session = createSession();
    const profile = createProfile();
    const calls = answerApi({});
    window.__classwaveSessionCheck = Promise.resolve({
      status: 200,
      body: JSON.stringify({ session, profile }),
    });
    const store = makeStore();
    await store.dispatch(restoreSession());
    expect(store.getState().auth).toEqual({ status: 'signedIn', session, profile });
    expect(calls.filter((c) => c.path === '/api/auth/refresh')).toEqual([]);
  });

  it('asks GET /api/me when the refresh brought no profile', async () => {
    const session = createSession();
    const profile = createProfile();
    const calls = answerApi({
      'POST /api/auth/refresh': { body: { session } },
      'GET /api/me': { body: { user: session.user, profile } },
    });
    const store = makeStore();
    await store.dispatch(restoreSession());
    expect(store.getState().auth).toEqual({ status: 'signedIn', session, profile });
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /api/auth/refresh', 'GET /api/me']);
  });
});

describe('startSession', () => {
  it("reports the browser's time zone once signed in, so the server writes texts in it", async () => {
    const session = createSession();
    const profile = createProfile();
    const calls = answerApi({
      'POST /api/auth/refresh': { body: { session, profile } },
      'PUT /api/me/time-zone': ({ body }) => ({
        body: {
          quietHours: { enabled: false, start: '21:00', end: '07:00', ...(body as object) },
          email: false,
        },
      }),
    });
    const store = makeStore();
    await store.dispatch(restoreSession());
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    await vi.waitFor(() =>
      expect(calls.find((c) => c.path === '/api/me/time-zone')).toEqual({
        method: 'PUT',
        path: '/api/me/time-zone',
        body: { timeZone: zone },
      }),
    );
  });

  it("keeps the refresh's liveFrom for the first live connection when nothing signed-in is cached", async () => {
    const session = createSession();
    const profile = createProfile();
    answerApi({
      'POST /api/auth/refresh': { body: { session, profile, liveFrom: 17 } },
      // A signed-out page's query (sign-up's settings) holds nothing live events change.
      'GET /api/auth/settings': { body: { teacherSignup: 'open' } },
      'PUT /api/me/time-zone': { body: {} },
    });
    const store = makeStore();
    await store.dispatch(authApi.endpoints.getAuthSettings.initiate());
    await store.dispatch(restoreSession());
    expect(store.getState().connection.liveFrom).toBe(17);
  });

  it('drops liveFrom when the cache holds data fetched before it (a page kept under an expired session)', async () => {
    const session = createSession();
    const profile = createProfile();
    answerApi({
      'GET /api/dashboard': { body: { stats: {}, upcomingEvents: [] } },
      'PUT /api/me/time-zone': { body: {} },
    });
    const store = makeStore({ auth: signedInAuth() });
    await store.dispatch(dashboardApi.endpoints.getDashboard.initiate());
    await store.dispatch(startSession(session, { profile, liveFrom: 17 }));
    expect(store.getState().connection.liveFrom).toBeNull();
    // And a session answer without one leaves nothing to start from.
    await store.dispatch(startSession(session, { profile }));
    expect(store.getState().connection.liveFrom).toBeNull();
  });

  it('reports nothing when no session started', async () => {
    answerApi({
      'POST /api/auth/refresh': apiError(401, 'No session.', 'invalid_token'),
      'PUT /api/me/time-zone': { body: {} },
    });
    // Loaded ahead, so a report (sent in a later task) would be made within the wait below.
    await import('../notifications/timeZone');
    const store = makeStore();
    await store.dispatch(restoreSession());
    await new Promise((r) => setTimeout(r, 50));
    // This store's requests only: the sessions of the tests above report theirs meanwhile.
    expect(Object.values(store.getState().api.mutations).map((m) => m?.endpointName)).toEqual([]);
  });
});

describe('followOtherTab', () => {
  it('signs this tab out at once when another tab signs out', async () => {
    const store = makeStore({ auth: signedInAuth() });
    await store.dispatch(followOtherTab({ type: 'signed-out' }));
    expect(store.getState().auth).toEqual({ status: 'signedOut', session: null, profile: null });
  });

  it('leaves a signed-in tab alone when another tab signs in', async () => {
    const auth = signedInAuth();
    const store = makeStore({ auth });
    await store.dispatch(followOtherTab({ type: 'signed-in' }));
    expect(store.getState().auth).toEqual(auth);
  });
});

describe('signOut', () => {
  it('forgets the device copies the server already holds, and keeps text it never received', async () => {
    answerApi({ 'POST /api/auth/signout': { status: 204 } });
    const auth = signedInAuth();
    const userId = auth.profile!.id;
    const savedAt = Date.now();
    await writeDeviceDraft(userId, 'saved', {
      content: 'on the server',
      baseVersion: 2,
      synced: true,
      savedAt,
    });
    await writeDeviceDraft(userId, 'unsent', {
      content: 'typed offline',
      baseVersion: 0,
      synced: false,
      savedAt,
    });
    const store = makeStore({ auth });

    expect(await store.dispatch(signOut())).toBe(true);

    expect(store.getState().auth.status).toBe('signedOut');
    // In the background, after the sign-in page shows (a navigation then would rebuild it under typing).
    await vi.waitFor(async () => expect(await readDeviceDraft(userId, 'saved')).toBeUndefined());
    expect((await readDeviceDraft(userId, 'unsent'))?.content).toBe('typed offline');
  });
});
