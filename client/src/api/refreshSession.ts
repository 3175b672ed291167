import type { Profile, RefreshResponse, Session } from '@classwave/shared';

/**
 * The outcome of asking the server for a fresh access token with the refresh cookie.
 * 'unauthenticated': there is no valid session (sign the user out).
 * 'unavailable': the server could not be reached or did not answer properly (maybe try again).
 */
export type RefreshResult =
  | { ok: true; session: Session; profile?: Profile; liveFrom?: number }
  | { ok: false; reason: 'unauthenticated' | 'unavailable' };

/** Name of the Web Lock that serializes refreshes across the tabs of this browser. */
export const REFRESH_LOCK_NAME = 'classwave-refresh';

/** A refresh answer as status and body text; status 0 when there was no answer at all. */
export interface RefreshAnswer {
  status: number;
  body: string;
}

/** What a refresh answer means. */
export function refreshResultOf({ status, body: text }: RefreshAnswer): RefreshResult {
  if (status === 0) return { ok: false, reason: 'unavailable' };
  // 204: no refresh cookie, so nobody is signed in here (the server answers it without an error
  // status, so a first visit logs nothing). 401: the cookie was no longer valid.
  if (status === 204 || status === 401) return { ok: false, reason: 'unauthenticated' };
  if (status < 200 || status >= 300) return { ok: false, reason: 'unavailable' };
  try {
    const body = JSON.parse(text) as RefreshResponse;
    // The profile comes along, so restoring a session needs no GET /api/me after it.
    return {
      ok: true,
      session: body.session,
      ...(body.profile ? { profile: body.profile } : {}),
      ...(typeof body.liveFrom === 'number' ? { liveFrom: body.liveFrom } : {}),
    };
  } catch {
    return { ok: false, reason: 'unavailable' };
  }
}

/** POST /api/auth/refresh with the httpOnly cookie. Never throws. */
export async function requestRefresh(): Promise<RefreshResult> {
  try {
    // No body and no content type: the refresh token travels only in its cookie.
    const response = await fetch('/api/auth/refresh', {
      method: 'POST',
      credentials: 'include',
      headers: { accept: 'application/json' },
    });
    return refreshResultOf({ status: response.status, body: await response.text() });
  } catch {
    return { ok: false, reason: 'unavailable' };
  }
}

declare global {
  interface Window {
    /** The session check index.html starts before the app's JavaScript has loaded. */
    __classwaveSessionCheck?: Promise<RefreshAnswer>;
  }
}

/**
 * The answer to the session check the page started while this code downloaded (index.html), once:
 * undefined when there was none, or it was already taken. Never rejects.
 */
export function takeSessionCheck(): Promise<RefreshResult> | undefined {
  const check = typeof window === 'undefined' ? undefined : window.__classwaveSessionCheck;
  if (!check) return undefined;
  delete window.__classwaveSessionCheck;
  return check.then(refreshResultOf, (): RefreshResult => ({ ok: false, reason: 'unavailable' }));
}

type LockRunner = <T>(task: () => Promise<T>) => Promise<T>;

/**
 * Runs `task` holding the cross-tab lock when the browser has Web Locks. Refresh tokens rotate, so
 * two tabs must not present the same one at once; with the lock, the second tab refreshes after
 * the first and sends the cookie the first one received.
 */
export const withCrossTabLock: LockRunner = (task) => {
  const locks = typeof navigator === 'undefined' ? undefined : (navigator.locks as LockManager | undefined);
  if (!locks) return task();
  // The lock resolves with the task's own result; the DOM typings leave the promise nested.
  return locks.request(REFRESH_LOCK_NAME, task) as unknown as ReturnType<typeof task>;
};

/**
 * Makes a refresh function that runs at most one refresh at a time: callers that arrive while one
 * is in flight share its promise. A call after it settles starts a new one.
 */
export function createRefresher(
  request: () => Promise<RefreshResult> = requestRefresh,
  runLocked: LockRunner = withCrossTabLock,
): () => Promise<RefreshResult> {
  let inFlight: Promise<RefreshResult> | null = null;
  return () => {
    inFlight ??= runLocked(request).finally(() => {
      inFlight = null;
    });
    return inFlight;
  };
}

/** The tab's one refresher, used by session restore, the silent refresh timer and the API's re-auth. */
export const refreshSession = createRefresher();
