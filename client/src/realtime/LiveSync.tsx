import { LIVE_EVENT_TYPES, SocketRefusal, type LiveEvent } from '@classwave/shared';
import { useEffect } from 'react';
import { refreshSession } from '../api/refreshSession';
import { useAppDispatch, useAppSelector, useAppStore } from '../app/hooks';
import {
  selectAccessToken,
  selectAuthStatus,
  sessionExpired,
  signedOut,
  tokenRefreshed,
} from '../features/auth/authSlice';
import { isSigningOutHere } from '../features/auth/session';
import { answerReceived } from '../features/chat/chatSlice';
import { typingHeard } from '../features/conversations/typingSlice';
import { applyLiveEvent, refetchEverything } from './applyLiveEvent';
import { createCatchUp } from './catchUp';
import { EventCursor } from './cursor';
import { connectionChanged, connectionFrom, liveFromSet, selectLiveFrom } from './connectionSlice';
import { closeLiveSocket, liveSocket, openLiveSocket, reconnectNow } from './socket';

/**
 * Keeps this tab live while signed in: one socket, each event applied to the RTK Query cache once,
 * and on every (re)connect a catch-up from the last applied id, which the handshake carries and the
 * server answers on the socket before anything live — or a refetch of what is shown when the server
 * no longer has the gap. Renders nothing.
 */
export function LiveSync() {
  const dispatch = useAppDispatch();
  const store = useAppStore();
  const status = useAppSelector(selectAuthStatus);
  const token = useAppSelector(selectAccessToken);
  const signedIn = status === 'signedIn';

  useEffect(() => {
    if (!signedIn) return;
    const cursor = new EventCursor();
    const apply = (event: LiveEvent) => {
      if (cursor.accept(event.id)) dispatch(applyLiveEvent(event));
    };
    // Taken once: a later connection of this sign-in continues from its own cursor.
    const liveFrom = selectLiveFrom(store.getState());
    dispatch(liveFromSet(null));
    const catchUp = createCatchUp({
      cursor,
      apply,
      refetchAll: () => dispatch(refetchEverything()),
      liveFrom,
    });
    const socket = openLiveSocket(() => catchUp.auth(selectAccessToken(store.getState()) ?? ''));
    let retryTimer: ReturnType<typeof setTimeout> | undefined;

    for (const type of LIVE_EVENT_TYPES) socket.on(type, apply as never);
    // Sent by the server on every connect, before any live event on that connection.
    socket.on('events:missed', catchUp.onMissed);

    // The connection indicator (DESIGN §12) follows the socket and the browser's own online flag.
    let connectedBefore = false;
    const report = () => {
      connectedBefore ||= socket.connected;
      dispatch(connectionChanged(connectionFrom(navigator.onLine, socket.connected, connectedBefore)));
    };
    report();
    socket.on('connect', report);
    socket.on('disconnect', report);
    socket.io.on('reconnect_attempt', report);
    // Back online: reconnect at once instead of waiting out socket.io's back-off timer.
    const onOnline = () => {
      report();
      if (!socket.connected) reconnectNow(socket);
    };
    window.addEventListener('online', onOnline);
    window.addEventListener('offline', report);
    socket.on('session:ended', () => {
      // A sign-out this tab started finishes by itself (clearing the cache mid-request would cut it short).
      if (!isSigningOutHere()) dispatch(signedOut());
    });
    socket.on('chat:reply', (reply) => dispatch(answerReceived(reply.answer, reply.at)));
    // Not a live event: never stored nor replayed, only shown for a few seconds (DESIGN §19).
    socket.on('typing', (event) => dispatch(typingHeard(event)));
    socket.on('connect_error', async (error) => {
      report();
      // A refused handshake is not retried by socket.io: decide here whether to try again.
      if (error.message === SocketRefusal.tokenExpired) {
        const result = await refreshSession();
        if (result.ok) {
          dispatch(tokenRefreshed(result.session));
          socket.connect();
        } else if (result.reason === 'unauthenticated') {
          dispatch(sessionExpired());
        } else {
          retryTimer = setTimeout(() => socket.connect(), 2000 + Math.random() * 2000);
        }
      } else if (
        error.message === SocketRefusal.sessionEnded ||
        error.message === SocketRefusal.invalidToken
      ) {
        dispatch(signedOut());
      } else if (error.message === SocketRefusal.unavailable) {
        // The server could not check the token (its database is down): try again shortly.
        retryTimer = setTimeout(() => socket.connect(), 2000 + Math.random() * 2000);
      }
    });

    return () => {
      window.removeEventListener('online', onOnline);
      window.removeEventListener('offline', report);
      clearTimeout(retryTimer);
      closeLiveSocket();
      // The next sign-in's first connection is made quietly again.
      dispatch(connectionChanged('connecting'));
    };
  }, [signedIn, dispatch, store]);

  // A refreshed access token is handed to the open socket, so the server does not close it at expiry.
  useEffect(() => {
    const socket = liveSocket();
    if (token && socket?.connected) socket.emit('auth:token', { token }, () => {});
  }, [token]);

  return null;
}
