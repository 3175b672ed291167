import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '@classwave/shared';

export type LiveSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

let current: LiveSocket | null = null;

/**
 * Opens this tab's one socket. `auth` is a function, so every reconnect sends the token the tab
 * holds at that moment (the server checks it again on each handshake).
 */
export function openLiveSocket(getToken: () => string | null): LiveSocket {
  current?.disconnect();
  current = io({
    path: '/socket.io',
    transports: ['websocket', 'polling'],
    auth: (send) => send({ token: getToken() ?? '' }),
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
