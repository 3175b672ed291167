import { describe, expect, it } from 'vitest';
import { createProfile, createSession, signedInAuth } from '../../test/factories';
import {
  authSlice,
  initialAuthState,
  profileCleared,
  profileLoaded,
  selectIsAuthenticated,
  sessionReceived,
  signedIn,
  signedOut,
  tokenRefreshed,
  type AuthState,
} from './authSlice';

const reduce = (state: AuthState, ...actions: Parameters<typeof authSlice.reducer>[1][]) =>
  actions.reduce(authSlice.reducer, state);

describe('authSlice', () => {
  it('starts loading, with no session and no profile', () => {
    expect(authSlice.reducer(undefined, { type: 'init' })).toEqual({
      status: 'loading',
      session: null,
      profile: null,
    });
  });

  it('stays loading while a restored session waits for its profile', () => {
    const session = createSession();
    const state = reduce(initialAuthState, sessionReceived(session));
    expect(state.status).toBe('loading');
    expect(state.session).toEqual(session);
  });

  it('is signed in once the profile of the session is loaded', () => {
    const session = createSession();
    const profile = createProfile({ id: session.user.id, role: 'teacher' });
    const state = reduce(
      initialAuthState,
      sessionReceived(session),
      profileLoaded(profile),
      signedIn(profile),
    );
    expect(state).toEqual({ status: 'signedIn', session, profile });
    expect(selectIsAuthenticated({ auth: state })).toBe(true);
  });

  it('is signed in but not authenticated when the profile could not be loaded', () => {
    const state = reduce(initialAuthState, sessionReceived(createSession()), signedIn(null));
    expect(state.status).toBe('signedIn');
    expect(selectIsAuthenticated({ auth: state })).toBe(false);
  });

  it('does not sign in without a session (a sign-out won the race)', () => {
    const state = reduce(
      initialAuthState,
      sessionReceived(createSession()),
      signedOut(),
      signedIn(createProfile()),
    );
    expect(state).toEqual({ status: 'signedOut', session: null, profile: null });
  });

  it('replaces the access token on refresh and keeps the profile', () => {
    const before = signedInAuth();
    const rotated = createSession({ user: before.session!.user });
    const state = reduce(before, tokenRefreshed(rotated));
    expect(state.session?.accessToken).toBe(rotated.accessToken);
    expect(state.profile).toEqual(before.profile);
    expect(state.status).toBe('signedIn');
  });

  it('ignores a refresh that finishes after sign-out', () => {
    const state = reduce(signedInAuth(), signedOut(), tokenRefreshed(createSession()));
    expect(state).toEqual({ status: 'signedOut', session: null, profile: null });
  });

  it('clears session and profile on sign-out', () => {
    expect(reduce(signedInAuth(), signedOut())).toEqual({
      status: 'signedOut',
      session: null,
      profile: null,
    });
  });

  it('clears only the profile after a critical profile failure', () => {
    const before = signedInAuth();
    const state = reduce(before, profileCleared());
    expect(state.profile).toBeNull();
    expect(state.session).toEqual(before.session);
  });
});
