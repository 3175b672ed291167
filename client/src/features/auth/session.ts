import type { Profile, Session } from '@classwave/shared';
import { toast } from 'sonner';
import { httpStatus } from '../../api/errors';
import { refreshSession, takeSessionCheck } from '../../api/refreshSession';
import type { AppThunk, RootState } from '../../app/store';
import { liveFromSet } from '../../realtime/connectionSlice';
import { authApi } from './authApi';
import { broadcastAuth, type AuthMessage } from './authChannel';
import { profileCleared, profileLoaded, sessionReceived, signedIn, signedOut } from './authSlice';

/**
 * GET /api/me and keep the profile. A 401 means the session is gone (signed out). Any other HTTP
 * error is logged and toasted; a failure with no HTTP answer at all is the "critical" case of spec §8.
 */
export const loadProfile = (): AppThunk<Promise<Profile | null>> => async (dispatch) => {
  try {
    const { profile } = await dispatch(
      authApi.endpoints.getMe.initiate(undefined, { subscribe: false, forceRefetch: true }),
    ).unwrap();
    dispatch(profileLoaded(profile));
    return profile;
  } catch (error) {
    const status = httpStatus(error);
    if (status === 401) {
      dispatch(signedOut());
    } else if (status !== undefined) {
      console.error('Could not fetch the profile', error);
      toast.error('Could not fetch your profile.');
    } else {
      console.error('Fetching the profile failed', error);
      toast.error('A critical error occurred while fetching your profile.');
      dispatch(profileCleared());
    }
    return null;
  }
};

/** Queries a signed-out page makes: their answers hold nothing live events change. */
const PUBLIC_QUERIES: ReadonlySet<string> = new Set(['getAuthSettings']);

/** True when the cache holds nothing fetched while signed in (all of it will be fetched from now on). */
const nothingSignedInCached = (state: RootState) =>
  Object.values(state.api.queries).every((query) => PUBLIC_QUERIES.has(query?.endpointName ?? ''));

/**
 * Holds a new session, loads its profile (unless it came with the session, as a refresh's does) and
 * ends the session check. Resolves to the profile, if loaded. `liveFrom` (the session answer's) is
 * where the first live connection starts, when nothing in the cache is older than it: a page kept
 * under an expired session's dialog holds older data, and its first connection refetches it.
 */
export const startSession =
  (
    session: Session,
    { profile: knownProfile, liveFrom }: { profile?: Profile; liveFrom?: number } = {},
  ): AppThunk<Promise<Profile | null>> =>
  async (dispatch, getState) => {
    dispatch(liveFromSet(liveFrom !== undefined && nothingSignedInCached(getState()) ? liveFrom : null));
    dispatch(sessionReceived(session));
    if (knownProfile) dispatch(profileLoaded(knownProfile));
    const profile = knownProfile ?? (await dispatch(loadProfile()));
    dispatch(signedIn(profile));
    // Loaded when needed: the notifications' API (and what it pulls in) stays out of the sign-in page's
    // code. After the task that renders the signed-in page; the zone itself is read in a worker
    // (timeZone.ts).
    if (profile)
      setTimeout(
        () =>
          void import('../notifications/timeZone').then(({ reportTimeZone }) => dispatch(reportTimeZone())),
        0,
      );
    return profile;
  };

/**
 * Restores the session from the refresh cookie: at boot, and when another tab signs in.
 * Without a valid cookie the user is signed out; that is the normal case for a first visit.
 */
export const restoreSession = (): AppThunk<Promise<void>> => async (dispatch) => {
  // At start-up the page has usually asked already (index.html): its answer, else a refresh now.
  const result = await (takeSessionCheck() ?? refreshSession());
  if (result.ok) {
    await dispatch(startSession(result.session, result));
    return;
  }
  if (result.reason === 'unavailable')
    console.warn('Could not restore the session: the server did not answer.');
  dispatch(signedOut());
};

/**
 * Ends the session on the server and everywhere in this browser. Local state is cleared even when
 * the server call fails, so the person at the keyboard is signed out either way.
 * Resolves to whether the server confirmed it.
 */
let signingOutHere = false;
/** True while this tab's own sign-out is in flight (its socket then hears `session:ended` first). */
export const isSigningOutHere = () => signingOutHere;

export const signOut = (): AppThunk<Promise<boolean>> => async (dispatch, getState) => {
  const userId = getState().auth.profile?.id;
  let confirmed = true;
  signingOutHere = true;
  try {
    await dispatch(authApi.endpoints.signOut.initiate()).unwrap();
  } catch (error) {
    console.error('Sign-out failed', error);
    confirmed = false;
  } finally {
    signingOutHere = false;
  }
  dispatch(signedOut());
  broadcastAuth({ type: 'signed-out' });
  // In the background: the sign-in page is already showing, and a navigation the caller makes after
  // this resolves would build it anew under someone typing (the keyboard sign-in journey caught it).
  if (userId) void forgetDeviceWork(userId);
  return confirmed;
};

/**
 * What a signed-out device keeps of a user's work: only what never reached the server (a draft's
 * unsaved text, a file not uploaded). Loaded only here: the sign-in page's first load stays free of
 * the device stores.
 */
async function forgetDeviceWork(userId: string): Promise<void> {
  try {
    const [drafts, files] = await Promise.all([
      import('../drafts/deviceStore'),
      import('../files/attachmentStore'),
    ]);
    await Promise.all([drafts.forgetSyncedWork(userId), files.forgetStoredAttachments(userId)]);
  } catch (error) {
    console.warn('Could not clear this device of work already on the server', error);
  }
}

/** What this tab does when another tab of the browser signs in or out. */
export const followOtherTab =
  (message: AuthMessage): AppThunk<Promise<void>> =>
  async (dispatch, getState) => {
    if (message.type === 'signed-out') {
      if (getState().auth.status !== 'signedOut') dispatch(signedOut());
      return;
    }
    if (getState().auth.status === 'signedOut') await dispatch(restoreSession());
  };
