import { io as connectClient, type Socket } from 'socket.io-client';
import WebSocket from 'ws';
import type { ClientToServerEvents, LiveEvent, MissedEvents, ServerToClientEvents } from '@classwave/shared';
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

/** Any server → client message as it arrived: its event name and its arguments. */
export interface Heard {
  name: string;
  args: unknown[];
}

/** A real socket.io client that records every live event it receives. */
export interface Recorder {
  socket: ClientSocket;
  events: LiveEvent[];
  /** Every server → client message, live events included, in arrival order. */
  heard: Heard[];
  /** Every `events:missed` (one per connect), in arrival order. */
  missed: MissedEvents[];
  /** Waits until an event matching `match` has arrived (it may already have). */
  waitFor(match: (e: LiveEvent) => boolean, timeoutMs?: number): Promise<LiveEvent>;
  /** Waits until any server → client message matching `match` has arrived (it may already have). */
  waitForHeard(match: (h: Heard) => boolean, timeoutMs?: number): Promise<Heard>;
  close(): void;
}

export function record(socket: ClientSocket): Recorder {
  const events: LiveEvent[] = [];
  const heard: Heard[] = [];
  const missed: MissedEvents[] = [];
  const waiters = new Set<() => void>();
  for (const type of LIVE_EVENT_TYPES) {
    socket.on(type, (event: LiveEvent) => {
      events.push(event);
      waiters.forEach((w) => w());
    });
  }
  socket.onAny((name: string, ...args: unknown[]) => {
    heard.push({ name, args });
    if (name === 'events:missed') missed.push(args[0] as MissedEvents);
    waiters.forEach((w) => w());
  });
  const waitUntil = <T>(find: () => T | undefined, describe: () => string, timeoutMs: number) =>
    new Promise<T>((resolve, reject) => {
      const check = () => {
        const found = find();
        if (found !== undefined) {
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        }
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no matching event within ${timeoutMs} ms; got ${describe() || 'none'}`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  return {
    socket,
    events,
    heard,
    missed,
    waitForHeard: (match, timeoutMs = 5000) =>
      waitUntil(
        () => heard.find(match),
        () => heard.map((h) => h.name).join(', '),
        timeoutMs,
      ),
    waitFor: (match, timeoutMs = 5000) =>
      waitUntil(
        () => events.find(match),
        () => events.map((e) => e.type).join(', '),
        timeoutMs,
      ),
    close: () => void socket.disconnect(),
  };
}

/** How a handshake may deviate from the app's own: another Origin, an odd `auth`, a query, headers. */
export interface HandshakeExtras {
  origin?: string;
  /** Sent as the handshake's `auth` instead of `{ token }`. */
  auth?: Record<string, unknown>;
  query?: Record<string, string>;
  headers?: Record<string, string>;
}

/** A socket.io client for `url`, connecting at once; `reconnection` makes it retry like a browser tab. */
export function openSocket(
  url: string,
  token: string | undefined,
  extra: HandshakeExtras & { reconnection?: boolean } = {},
): ClientSocket {
  const headers = { ...extra.headers, ...(extra.origin ? { origin: extra.origin } : {}) };
  return connectClient(url, {
    path: '/socket.io',
    transports: ['websocket'],
    reconnection: extra.reconnection ?? false,
    reconnectionDelay: 50,
    forceNew: true,
    auth: extra.auth ?? (token === undefined ? {} : { token }),
    ...(extra.query ? { query: extra.query } : {}),
    ...(Object.keys(headers).length > 0 ? { extraHeaders: headers } : {}),
  });
}

/**
 * Connects with an access token and resolves once connected and caught up (the server's
 * `events:missed` arrived, so live events flow from here on), or rejects with the refusal.
 */
export function connect(
  url: string,
  token: string | undefined,
  extra: HandshakeExtras = {},
): Promise<Recorder> {
  const socket = openSocket(url, token, extra);
  const recorder = record(socket);
  return new Promise((resolve, reject) => {
    socket.once('events:missed', () => resolve(recorder));
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
  extra: HandshakeExtras = {},
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

/** What the server did with messages sent over a transport whose handshake it refused. */
export interface AfterRefusal {
  /** The refusal (`connect_error`'s message). */
  refusal: string;
  /** What the server sent after the raw messages (an ack would start with "43"), pings aside. */
  replies: string[];
  /** Whether the server closed the transport. */
  closed: boolean;
}

/**
 * A hostile client speaking the wire protocol itself (socket.io-client would drop a refused
 * transport): it asks to join with `auth`, and when refused writes raw EVENT packets (with ack
 * ids) on the still-open WebSocket anyway, then watches for `windowMs` what comes back.
 */
export function emitAfterRefusal(
  url: string,
  token: string | undefined,
  messages: Array<[event: string, ...args: unknown[]]>,
  windowMs = 400,
): Promise<AfterRefusal> {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/socket.io/?EIO=4&transport=websocket`);
  const replies: string[] = [];
  let closed = false;
  return new Promise((resolve, reject) => {
    let refusal: string | undefined;
    let timer: NodeJS.Timeout | undefined;
    const finish = () => {
      clearTimeout(timer);
      ws.close();
      resolve({ refusal: refusal ?? 'none', replies, closed });
    };
    ws.on('error', reject);
    ws.on('close', () => {
      closed = true;
      // Once the server has hung up nothing more can come back.
      if (refusal !== undefined) finish();
    });
    ws.on('message', (raw) => {
      const text = String(raw);
      if (text.startsWith('0')) {
        // engine.io OPEN: ask to join the main namespace ("40" + auth).
        ws.send(`40${JSON.stringify(token === undefined ? {} : { token })}`);
      } else if (text === '2') {
        ws.send('3'); // engine.io ping → pong
      } else if (text.startsWith('44') && refusal === undefined) {
        // socket.io CONNECT_ERROR: send the events all the same, as "4" (message) + "2" (EVENT) + ack id.
        refusal = (JSON.parse(text.slice(2)) as { message: string }).message;
        messages.forEach((message, i) => ws.send(`42${i + 1}${JSON.stringify(message)}`));
        timer = setTimeout(finish, windowMs);
      } else if (text.startsWith('40')) {
        ws.close();
        reject(new Error('the handshake was accepted'));
      } else if (refusal !== undefined) {
        replies.push(text);
      }
    });
  });
}

/** Writes a raw socket.io EVENT packet on a connected socket: names the client library refuses to emit. */
export function emitRaw(socket: ClientSocket, event: string, ...args: unknown[]): void {
  socket.io.engine.send(`2${JSON.stringify([event, ...args])}`);
}

/**
 * Waits until each socket has received everything the server sent it so far, so that "did not
 * receive X" is judged after X would have arrived: the server sends to one socket in order and
 * answers a malformed auth:token at once, after every earlier event. (Since classes, DESIGN §11,
 * nothing goes to every signed-in user, so an event cannot serve as the barrier.)
 */
export async function barrier(...recorders: Recorder[]): Promise<void> {
  await Promise.all(
    recorders.map((r) => (r.socket as unknown as Socket).timeout(5000).emitWithAck('auth:token', {})),
  );
}
