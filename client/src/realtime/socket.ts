import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents, SocketAuth } from '@classwave/shared';

export type LiveSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

let current: LiveSocket | null = null;

/**
 * Opens this tab's one socket. `auth` is a function, so every reconnect sends what the tab holds at
 * that moment: its token (the server checks it again on each handshake) and the id of the last live
 * event it applied (the server sends what it missed since, before anything live).
 */
export function openLiveSocket(getAuth: () => SocketAuth): LiveSocket {
  current?.disconnect();
  current = io({
    path: '/socket.io',
    transports: ['websocket', 'polling'],
    auth: (send) => send({ ...getAuth() }),
    reconnectionDelay: 500,
    reconnectionDelayMax: 5000,
  });
  return current;
}

export function closeLiveSocket(): void {
  current?.disconnect();
  current = null;
}

/** The tab's socket while signed in, for features that talk to the server live (the assistant). */
export const liveSocket = (): LiveSocket | null => current;

/**
 * Reconnects now, skipping any back-off wait: closing the manager drops its pending retry timer,
 * and connecting again opens a fresh transport straight away.
 */
export function reconnectNow(socket: LiveSocket): void {
  socket.disconnect();
  socket.connect();
}
