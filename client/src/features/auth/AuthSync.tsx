import { useEffect, useRef } from 'react';
import { refreshSession } from '../../api/refreshSession';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { subscribeToAuth } from './authChannel';
import { selectAuthStatus, selectSession, sessionExpired, tokenRefreshed } from './authSlice';
import { followOtherTab, restoreSession } from './session';
import { REFRESH_RETRY_MS, refreshDelayMs } from './silentRefresh';

/**
 * Keeps the session alive in the background: restores it at start-up, refreshes the access token
 * before it expires, and follows sign-ins and sign-outs of other tabs. Renders nothing; navigation
 * follows from the route guards, which send a signed-out visitor to /login.
 */
export function AuthSync() {
  const dispatch = useAppDispatch();
  const status = useAppSelector(selectAuthStatus);
  const session = useAppSelector(selectSession);
  const restoreStarted = useRef(false);

  useEffect(() => {
    // Once per tab, even when React runs effects twice in development.
    if (restoreStarted.current || status !== 'loading') return;
    restoreStarted.current = true;
    void dispatch(restoreSession());
  }, [dispatch, status]);

  useEffect(() => subscribeToAuth((message) => void dispatch(followOtherTab(message))), [dispatch]);

  useEffect(() => {
    if (status !== 'signedIn' || session === null) return;
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;

    async function refresh() {
      const result = await refreshSession();
      if (cancelled) return;
      if (result.ok) {
        // The new session re-runs this effect, which schedules the next refresh.
        dispatch(tokenRefreshed(result.session));
      } else if (result.reason === 'unavailable') {
        // No answer (offline, server down) is not the end of the session: try again, even past the
        // token's expiry (a request meanwhile gets token_expired and refreshes too).
        timer = setTimeout(() => void refresh(), REFRESH_RETRY_MS);
      } else {
        dispatch(sessionExpired());
      }
    }

    timer = setTimeout(() => void refresh(), refreshDelayMs(session.expiresIn));
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [dispatch, status, session]);

  return null;
}
