import type { Server as HttpServer } from 'node:http';
import { createAdapter as createClusterAdapter } from '@socket.io/cluster-adapter';
import { createAdapter } from '@socket.io/redis-adapter';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { Server } from 'socket.io';
import { ErrorCode, SocketRefusal, type ClientToServerEvents, type MissedEvents } from '@classwave/shared';
import type { AuthService } from '../auth/service.js';
import { AppError } from '../http/errors.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/client.js';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { batchLoader } from '../db/batch-loader.js';
import { courseMembers, courses } from '../db/schema.js';
import type { DomainEventBus, SessionEnded } from '../events.js';
import { cursorOf, holdLiveEvents } from './catch-up.js';
import { refuse, socketListener } from './listener.js';
import type { ReplayService } from './replay.js';
import { courseRoom, roleRoom, userRoom } from './rooms.js';
import type { AppIo, AppSocket, SocketHandler } from './types.js';

export interface RealtimeOptions {
  httpServer: HttpServer;
  appOrigin: string;
  redisUrl: string | undefined;
  /** A node:cluster worker (WORKERS): without Redis, events cross processes through the primary. */
  clusterWorker?: boolean;
  auth: AuthService;
  bus: DomainEventBus;
  /** What a socket missed, sent on connect after the handshake's `after` (DESIGN §8). */
  replay: ReplayService;
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
}

const MAX_MESSAGE_BYTES = 16 * 1024;

/**
 * socket.io on the app's HTTP server: authenticates every handshake (and every reconnect) with the
 * access token, puts the socket in the rooms its user belongs to, catches it up on what it missed,
 * and sends each committed live event to its audience. Modules add their client events with
 * `handle` (the assistant's chat, the live panel); only the server decides who is in which room.
 */
export function createRealtime(options: RealtimeOptions) {
  const { auth, bus, log, clock, replay } = options;
  const io: AppIo = new Server(options.httpServer, {
    path: '/socket.io',
    serveClient: false,
    maxHttpBufferSize: MAX_MESSAGE_BYTES,
    perMessageDeflate: false,
    cors: { origin: [options.appOrigin], credentials: true },
    // Browsers always send Origin: only the app's own pages may connect. (Non-browser clients still need a token.)
    allowRequest: (req, callback) => {
      const origin = req.headers.origin;
      callback(null, origin === undefined || origin === options.appOrigin);
    },
  });

  const redisClients: Redis[] = [];
  if (options.redisUrl) {
    const pub = new Redis(options.redisUrl, { lazyConnect: false });
    const sub = pub.duplicate();
    for (const client of [pub, sub])
      client.on('error', (err) => log.warn({ err }, 'redis (socket adapter) error'));
    redisClients.push(pub, sub);
    io.adapter(createAdapter(pub, sub, { key: 'classwave-io' }));
  } else if (options.clusterWorker) {
    io.adapter(createClusterAdapter());
  }
  const otherProcesses = redisClients.length > 0 || options.clusterWorker === true;

  // Read in the handshake, so a socket is in its course rooms from its first event on; handshakes
  // arriving together (a reconnection storm) share one query.
  const activeCoursesOf = batchLoader(async (studentIds: string[]) => {
    const rows = await options.db
      .select({ studentId: courseMembers.studentId, courseId: courseMembers.courseId })
      .from(courseMembers)
      // Not a course in the bin: the replay leaves it out too, and a restore joins its members again.
      .innerJoin(courses, and(eq(courses.id, courseMembers.courseId), isNull(courses.deletedAt)))
      .where(and(inArray(courseMembers.studentId, studentIds), eq(courseMembers.status, 'active')));
    const byStudent = new Map<string, string[]>();
    for (const r of rows)
      byStudent.set(r.studentId, [...(byStudent.get(r.studentId) ?? []), courseRoom(r.courseId)]);
    return byStudent;
  });
  async function activeCourseRooms(studentId: string): Promise<string[]> {
    return (await activeCoursesOf(studentId)) ?? NO_ROOMS;
  }

  /** Closes a socket whose access token ran out (a fresh one handed over moves it to a later second). */
  const expiries = createExpiries(clock, (socket) => {
    socket.emit('error:message', { code: ErrorCode.tokenExpired, message: 'Your access token expired.' });
    socket.disconnect(true);
  });

  io.use(async (socket, next) => {
    const token = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    if (typeof token !== 'string' || token.length === 0 || token.length > 4096) {
      return next(new Error(ErrorCode.unauthorized));
    }
    try {
      const caller = await auth.authenticate(token);
      socket.data.caller = caller;
      socket.data.courseRooms = caller.role === 'student' ? await activeCourseRooms(caller.userId) : NO_ROOMS;
      next();
    } catch (error) {
      if (error instanceof AppError) return next(new Error(error.code));
      // Not a verdict on the token (the database is down, say): the client tries again.
      log.warn({ err: error }, 'socket handshake could not be checked');
      next(new Error(SocketRefusal.unavailable));
    }
  });

  /**
   * Sends a socket what its user missed after the handshake's `after`, by the replay's rules (their
   * rooms now, late commits, too much or too old → resync), then what was held while it was read.
   */
  async function catchUp(socket: AppSocket, hold: ReturnType<typeof holdLiveEvents>): Promise<void> {
    const after = cursorOf(socket.handshake.auth);
    let missed: MissedEvents;
    try {
      missed =
        after === 'invalid'
          ? { resync: true, events: [], lastId: (await replay.after(socket.data.caller, undefined)).lastId }
          : after === undefined
            ? await replay.after(socket.data.caller, undefined)
            : // Its rooms now: joined at connect, left at once when a membership ends.
              await replay.forSocket(socket.data.caller, after, [...socket.rooms]);
    } catch (error) {
      // The live events stay held, so the tab applies nothing past its gap. Closing the transport
      // (not the socket) makes it reconnect by itself, with back-off, and ask again from the same id.
      log.warn({ err: error }, 'socket catch-up could not be read');
      socket.conn.close();
      return;
    }
    if (socket.disconnected) return;
    hold.release(() => socket.emit('events:missed', missed), new Set(missed.events.map((e) => e.id)));
  }

  /** The modules' client events and disconnect listeners, attached to every socket as it connects. */
  const handlers: Array<
    [event: keyof ClientToServerEvents | 'disconnect', listener: (...args: unknown[]) => void]
  > = [];

  io.on('connection', (socket: AppSocket) => {
    const { caller } = socket.data;
    // Before joining any room: from its first live event on, the socket's events wait for its replay.
    const hold = holdLiveEvents(socket);
    void socket.join([userRoom(caller.userId), roleRoom(caller.role), ...socket.data.courseRooms]);
    expiries.add(socket, caller.tokenExpiresAt);
    socket.on('disconnect', onDisconnect);
    void catchUp(socket, hold);
    socket.on('auth:token', onAuthToken);
    const on = socket.on.bind(socket) as (event: string, listener: (...args: unknown[]) => void) => void;
    for (const [event, listener] of handlers) on(event, listener);
  });

  // The socket's handlers are made once (socketListener), not again for every socket.
  const onDisconnect = socketListener((socket) => expiries.remove(socket, socket.data.caller.tokenExpiresAt));

  const onAuthToken = socketListener(async (socket, payload: unknown, ack: unknown) => {
    if (typeof ack !== 'function') return;
    const token = (payload as { token?: unknown } | null)?.token;
    if (typeof token !== 'string') return ack(refuse(ErrorCode.validationFailed, 'Send { token }.'));
    try {
      const next = await auth.authenticate(token);
      const { caller } = socket.data;
      if (next.sessionId !== caller.sessionId || next.userId !== caller.userId) {
        return ack(refuse(ErrorCode.forbidden, 'That token belongs to another session.'));
      }
      expiries.remove(socket, caller.tokenExpiresAt);
      socket.data.caller = next;
      expiries.add(socket, next.tokenExpiresAt);
      ack({ ok: true });
    } catch (error) {
      ack(
        refuse(error instanceof AppError ? error.code : ErrorCode.invalidToken, 'That token is not valid.'),
      );
    }
  });

  bus.on('live', (event) => {
    const { audience, ...payload } = event;
    // An audience resolved to nobody (a former member's grade, a student an assignment is not for)
    // is nobody: socket.io's `to([])` would be everybody.
    if (audience.length === 0) return;
    // The event map is keyed by type; the payload's type matches its data by construction in the outbox.
    (io.to(audience) as unknown as { emit: (type: string, data: unknown) => void }).emit(event.type, payload);
  });

  // A membership changed (committed): the student's sockets on every process (through the Redis
  // adapter) join or leave the course's room now, before the HTTP answer, so nothing the course
  // sends after a removal reaches them, and a new member hears the course without reconnecting.
  bus.on('membership', ({ studentId, courseId, active }) => {
    const sockets = io.in(userRoom(studentId));
    if (active) sockets.socketsJoin(courseRoom(courseId));
    else sockets.socketsLeave(courseRoom(courseId));
  });

  /**
   * Tells this process's tabs of an ended session and closes them. They are found through their
   * user's room (a user has a few tabs), not a room per session: a room of its own for every
   * socket was a fifth of what the app adds to a socket's memory (bench/heap-diff.mjs).
   */
  function closeSessionHere({ sessionId, userId, reason }: SessionEnded) {
    const ids = io.of('/').adapter.rooms.get(userRoom(userId));
    for (const id of ids ? [...ids] : []) {
      const socket = io.of('/').sockets.get(id);
      if (socket?.data.caller.sessionId !== sessionId) continue;
      socket.emit('session:ended', { reason });
      socket.disconnect(true);
    }
  }

  io.on('session:ended', (ended) => {
    if (typeof ended?.sessionId !== 'string' || typeof ended.userId !== 'string') return;
    auth.forgetSession(ended.sessionId);
    closeSessionHere(ended);
  });
  bus.on('session:ended', ({ sessionId, userId, reason }) => {
    // One process: nobody else to tell.
    if (otherProcesses) io.serverSideEmit('session:ended', { sessionId, userId, reason });
    closeSessionHere({ sessionId, userId, reason });
  });

  return {
    io,
    /** Whether other processes share the sockets (through the Redis or the cluster adapter). */
    otherProcesses,
    /**
     * A client event a module answers (DESIGN §16: the assistant's chat, the live panel). The
     * handler is made once for every socket, not once per socket (listener.ts).
     */
    handle(event: keyof ClientToServerEvents, handler: SocketHandler): void {
      handlers.push([event, socketListener(handler) as (...args: unknown[]) => void]);
    },
    /** Runs when any socket disconnects (after the core's own clean-up). */
    onDisconnect(handler: (socket: AppSocket) => void): void {
      handlers.push(['disconnect', socketListener(handler) as (...args: unknown[]) => void]);
    },
    /**
     * Before the HTTP server closes: open websockets would otherwise keep it from closing. The
     * transports are dropped rather than the sockets disconnected, so clients see a lost connection
     * and reconnect (to this process once restarted, or to another) instead of staying offline.
     */
    disconnectAll(): void {
      io.engine.close();
    },
    /** After the HTTP server closed: stop the engine and the adapter's Redis connections. */
    async close(): Promise<void> {
      // io.close also closes the HTTP server, which Fastify has already closed: that error is expected.
      await new Promise<void>((resolve) => io.close(() => resolve()));
      for (const client of redisClients) client.disconnect();
    },
  };
}

/** One empty list for every socket in no course room (most teachers' and new students'). */
const NO_ROOMS: string[] = Object.freeze([]) as unknown as string[];

/**
 * Sockets by the second their access token runs out, with one timer per second that has any
 * (issue 15: a timer per socket, kept in a WeakMap, was about a tenth of what the app adds to a
 * socket's memory in S5). Tokens are stamped in seconds, and those issued together share one.
 */
function createExpiries(clock: Clock, expire: (socket: AppSocket) => void) {
  const seconds = new Map<number, { sockets: Set<AppSocket>; timer: NodeJS.Timeout }>();
  return {
    add(socket: AppSocket, at: number) {
      let second = seconds.get(at);
      if (!second) {
        const sockets = new Set<AppSocket>();
        const ms = at * 1000 - clock.now().getTime();
        const timer = setTimeout(
          () => {
            seconds.delete(at);
            for (const socket of sockets) expire(socket);
          },
          Math.max(0, Math.min(ms, 2 ** 31 - 1)),
        );
        second = { sockets, timer };
        seconds.set(at, second);
      }
      second.sockets.add(socket);
    },
    remove(socket: AppSocket, at: number) {
      const second = seconds.get(at);
      if (!second?.sockets.delete(socket) || second.sockets.size > 0) return;
      clearTimeout(second.timer);
      seconds.delete(at);
    },
  };
}
export type Realtime = ReturnType<typeof createRealtime>;
