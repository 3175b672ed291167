import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { Profile, Session } from '@classwave/shared';

/**
 * 'loading' until the first session check ends (spec §4), then 'signedIn' or 'signedOut'.
 * Protected routes need 'signedIn' and a profile. 'expired': the session ran out (its refresh was
 * refused) while signed in; nobody chose to leave, so the page stays (with its cache and the
 * profile) under a sign-in dialog instead of going to /login (issue 12: the text stays).
 */
export type AuthStatus = 'loading' | 'signedIn' | 'signedOut' | 'expired';

export interface AuthState {
  status: AuthStatus;
  /** The access token and its expiry; kept in memory only (the refresh token is an httpOnly cookie). */
  session: Session | null;
  profile: Profile | null;
}

export const initialAuthState: AuthState = { status: 'loading', session: null, profile: null };

export const authSlice = createSlice({
  name: 'auth',
  initialState: initialAuthState,
  reducers: {
    /** A new session from sign-in or a restore; the profile is fetched next, so the status waits. */
    sessionReceived(state, action: PayloadAction<Session>) {
      state.session = action.payload;
    },
    /**
     * A rotated access token. Ignored once signed out, so a refresh that finishes after a sign-out
     * cannot bring the session back.
     */
    tokenRefreshed(state, action: PayloadAction<Session>) {
      if (state.session === null) return;
      state.session = action.payload;
    },
    /** The session check ended with a session; `profile` is null if it could not be loaded. */
    signedIn(state, action: PayloadAction<Profile | null>) {
      if (state.session === null) return;
      state.status = 'signedIn';
      state.profile = action.payload;
    },
    profileLoaded(state, action: PayloadAction<Profile>) {
      state.profile = action.payload;
    },
    profileCleared(state) {
      state.profile = null;
    },
    /**
     * The refresh was refused while signed in: the access token is dropped, the profile and the
     * page stay until someone signs in again (or out). Before sign-in finished it is a sign-out.
     */
    sessionExpired(state) {
      state.session = null;
      if (state.status === 'signedIn' && state.profile !== null) {
        state.status = 'expired';
      } else {
        state.status = 'signedOut';
        state.profile = null;
      }
    },
    /**
     * Someone else signed in through the expired session's dialog: the previous account's profile
     * (and, through listeners, its cache and chat) goes; the page waits for the new profile.
     */
    accountSwitched(state, action: PayloadAction<Session>) {
      state.session = action.payload;
      state.profile = null;
    },
    /** No session: after a sign-out, a failed restore, or a sign-out in another tab. */
    signedOut(state) {
      state.status = 'signedOut';
      state.session = null;
      state.profile = null;
    },
  },
  selectors: {
    selectAuthStatus: (state) => state.status,
    selectSession: (state) => state.session,
    selectAccessToken: (state) => state.session?.accessToken ?? null,
    selectProfile: (state) => state.profile,
    /** Signed in with a loaded profile: what protected routes need. */
    selectIsAuthenticated: (state) => state.status === 'signedIn' && state.profile !== null,
  },
});

export const {
  sessionReceived,
  tokenRefreshed,
  signedIn,
  profileLoaded,
  profileCleared,
  sessionExpired,
  accountSwitched,
  signedOut,
} = authSlice.actions;
export const { selectAuthStatus, selectSession, selectAccessToken, selectProfile, selectIsAuthenticated } =
  authSlice.selectors;
