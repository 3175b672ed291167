import { LIVE_EVENT_TYPES, SocketRefusal, type LiveEvent } from '@classwave/shared';
import { useEffect } from 'react';
import { refreshSession } from '../api/refreshSession';
import { useAppDispatch, useAppSelector, useAppStore } from '../app/hooks';
import { selectAccessToken, selectAuthStatus, signedOut, tokenRefreshed } from '../features/auth/authSlice';
import { isSigningOutHere } from '../features/auth/session';
import { answerReceived } from '../features/chat/chatSlice';
import { applyLiveEvent, refetchEverything } from './applyLiveEvent';
import { createCatchUp } from './catchUp';
import { EventCursor } from './cursor';
import { liveApi } from './liveApi';
import { closeLiveSocket, liveSocket, openLiveSocket } from './socket';

/**
 * Keeps this tab live while signed in: one socket, each event applied to the RTK Query cache once,
 * and on every (re)connect a catch-up from the last applied id — or a refetch of what is shown
 * when the server no longer has the gap. Renders nothing.
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
    const socket = openLiveSocket(() => selectAccessToken(store.getState()));
    let retryTimer: ReturnType<typeof setTimeout> | undefined;

    const apply = (event: LiveEvent) => {
      if (cursor.accept(event.id)) dispatch(applyLiveEvent(event));
    };
    for (const type of LIVE_EVENT_TYPES) socket.on(type, apply as never);

    const catchUp = createCatchUp({
      cursor,
      fetchMissed: async (after) => {
        const request = dispatch(
          liveApi.endpoints.getMissedEvents.initiate(after, { forceRefetch: true, subscribe: false }),
        );
        return (await request).data;
      },
      isConnected: () => socket.connected,
      apply,
      refetchAll: () => dispatch(refetchEverything()),
    });

    socket.on('connect', () => void catchUp.onConnect());
    socket.on('session:ended', () => {
      // A sign-out this tab started finishes by itself (clearing the cache mid-request would cut it short).
      if (!isSigningOutHere()) dispatch(signedOut());
    });
    socket.on('chat:reply', (reply) => dispatch(answerReceived(reply.answer, reply.at)));
    socket.on('connect_error', async (error) => {
      // A refused handshake is not retried by socket.io: decide here whether to try again.
      if (error.message === SocketRefusal.tokenExpired) {
        const result = await refreshSession();
        if (result.ok) {
          dispatch(tokenRefreshed(result.session));
          socket.connect();
        } else {
          dispatch(signedOut());
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
      clearTimeout(retryTimer);
      closeLiveSocket();
    };
  }, [signedIn, dispatch, store]);

  // A refreshed access token is handed to the open socket, so the server does not close it at expiry.
  useEffect(() => {
    const socket = liveSocket();
    if (token && socket?.connected) socket.emit('auth:token', { token }, () => {});
  }, [token]);

  return null;
}
