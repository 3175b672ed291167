import { io as connectClient, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, LiveEvent, ServerToClientEvents } from '@classwave/shared';
import { LIVE_EVENT_TYPES } from '@classwave/shared';
import type { FastifyInstance } from 'fastify';

export type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** Starts the app listening on a free loopback port; returns its base URL. */
export async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address !== 'object') throw new Error('not listening');
  return `http://127.0.0.1:${address.port}`;
}

/** A real socket.io client that records every live event it receives. */
export interface Recorder {
  socket: ClientSocket;
  events: LiveEvent[];
  /** Waits until an event matching `match` has arrived (it may already have). */
  waitFor(match: (e: LiveEvent) => boolean, timeoutMs?: number): Promise<LiveEvent>;
  close(): void;
}

export function record(socket: ClientSocket): Recorder {
  const events: LiveEvent[] = [];
  const waiters = new Set<() => void>();
  for (const type of LIVE_EVENT_TYPES) {
    socket.on(type, (event: LiveEvent) => {
      events.push(event);
      waiters.forEach((w) => w());
    });
  }
  return {
    socket,
    events,
    waitFor(match, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.find(match);
          if (found) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(found);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `no matching event within ${timeoutMs} ms; got ${events.map((e) => e.type).join(', ') || 'none'}`,
            ),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => void socket.disconnect(),
  };
}

/** Connects with an access token and resolves once connected (or rejects with the refusal). */
export function connect(
  url: string,
  token: string | undefined,
  extra: { origin?: string } = {},
): Promise<Recorder> {
  const socket: ClientSocket = connectClient(url, {
    path: '/socket.io',
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    auth: token === undefined ? {} : { token },
    ...(extra.origin ? { extraHeaders: { origin: extra.origin } } : {}),
  });
  const recorder = record(socket);
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(recorder));
    socket.once('connect_error', (error) => {
      socket.disconnect();
      reject(error);
    });
  });
}

/** The refusal message a handshake got. */
export async function refusalOf(
  url: string,
  token: string | undefined,
  extra: { origin?: string } = {},
): Promise<string> {
  try {
    const r = await connect(url, token, extra);
    r.close();
    return 'connected';
  } catch (error) {
    return (error as Error).message;
  }
}

/** Resolves when the socket disconnects. */
export const disconnected = (socket: ClientSocket, timeoutMs = 5000) =>
  new Promise<string>((resolve, reject) => {
    if (socket.disconnected) return resolve('already');
    const timer = setTimeout(() => reject(new Error('still connected')), timeoutMs);
    socket.once('disconnect', (reason) => {
      clearTimeout(timer);
      resolve(reason);
    });
  });
