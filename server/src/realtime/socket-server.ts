import type { Server as HttpServer } from 'node:http';
import { createAdapter } from '@socket.io/redis-adapter';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { Server, type Socket } from 'socket.io';
import {
  CHAT_QUESTION_MAX_LENGTH,
  CHATBOT_REPLY_DELAY_MS,
  chatReply,
  ErrorCode,
  SocketRefusal,
  type Ack,
  type ClientToServerEvents,
  type ServerToClientEvents,
} from '@classwave/shared';
import type { AuthService, Caller } from '../auth/service.js';
import { AppError } from '../http/errors.js';
import { isBrokenText } from '../http/validation.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/client.js';
import { and, eq, sql } from 'drizzle-orm';
import { chatbotConversations, courseMembers } from '../db/schema.js';
import type { DomainEventBus } from '../events.js';
import { courseRoom, roleRoom, sessionRoom, userRoom } from './rooms.js';

interface SocketData {
  caller: Caller;
  /** The course rooms of the student's active memberships at connect (DESIGN §11). */
  courseRooms: string[];
  expiryTimer?: NodeJS.Timeout;
  chatPending: boolean;
}
/** Between the app's processes (through the Redis adapter). */
interface InterServerEvents {
  /** A session ended on another process: drop it from this process's session cache. */
  'session:ended': (sessionId: string) => void;
}
type AppSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
export type AppIo = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

export interface RealtimeOptions {
  httpServer: HttpServer;
  appOrigin: string;
  redisUrl: string | undefined;
  auth: AuthService;
  bus: DomainEventBus;
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  /** The assistant's reply delay; the spec's 1–2 s unless a test shortens it. */
  chatDelayMs?: { min: number; max: number };
}

const CHAT_FLOOD = { max: 10, windowMs: 60_000 };
const MAX_MESSAGE_BYTES = 16 * 1024;

const refuse = (code: string, message: string): Ack => ({ ok: false, code, message });

/**
 * socket.io on the app's HTTP server: authenticates every handshake (and every reconnect) with the
 * access token, puts the socket in the rooms its user belongs to, and sends each committed live
 * event to its audience. Only this module knows sockets and rooms.
 */
export function createRealtime(options: RealtimeOptions) {
  const { auth, bus, log, clock } = options;
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
  }

  const chatFlood = slidingWindow(CHAT_FLOOD);

  // Read in the handshake, so a socket is in its course rooms from its first event on.
  const membershipsQuery = options.db
    .select({ courseId: courseMembers.courseId })
    .from(courseMembers)
    .where(and(eq(courseMembers.studentId, sql.placeholder('studentId')), eq(courseMembers.status, 'active')))
    .prepare('socket_course_rooms');
  async function activeCourseRooms(studentId: string): Promise<string[]> {
    const rows = await membershipsQuery.execute({ studentId });
    return rows.map((r) => courseRoom(r.courseId));
  }

  /** Closes the socket when its access token runs out, unless a fresh one was handed over. */
  function armExpiry(socket: AppSocket) {
    clearTimeout(socket.data.expiryTimer);
    const ms = socket.data.caller.tokenExpiresAt * 1000 - clock.now().getTime();
    socket.data.expiryTimer = setTimeout(
      () => {
        socket.emit('error:message', { code: ErrorCode.tokenExpired, message: 'Your access token expired.' });
        socket.disconnect(true);
      },
      Math.max(0, Math.min(ms, 2 ** 31 - 1)),
    );
  }

  io.use(async (socket, next) => {
    const token = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    if (typeof token !== 'string' || token.length === 0 || token.length > 4096) {
      return next(new Error(ErrorCode.unauthorized));
    }
    try {
      const caller = await auth.authenticate(token);
      socket.data.caller = caller;
      socket.data.courseRooms = caller.role === 'student' ? await activeCourseRooms(caller.userId) : [];
      socket.data.chatPending = false;
      next();
    } catch (error) {
      if (error instanceof AppError) return next(new Error(error.code));
      // Not a verdict on the token (the database is down, say): the client tries again.
      log.warn({ err: error }, 'socket handshake could not be checked');
      next(new Error(SocketRefusal.unavailable));
    }
  });

  io.on('connection', (socket: AppSocket) => {
    const { caller } = socket.data;
    void socket.join([
      userRoom(caller.userId),
      roleRoom(caller.role),
      sessionRoom(caller.sessionId),
      ...socket.data.courseRooms,
    ]);
    armExpiry(socket);
    socket.on('disconnect', () => clearTimeout(socket.data.expiryTimer));

    socket.on('auth:token', async (payload, ack) => {
      if (typeof ack !== 'function') return;
      const token = (payload as { token?: unknown } | null)?.token;
      if (typeof token !== 'string') return ack(refuse(ErrorCode.validationFailed, 'Send { token }.'));
      try {
        const next = await auth.authenticate(token);
        if (next.sessionId !== caller.sessionId || next.userId !== caller.userId) {
          return ack(refuse(ErrorCode.forbidden, 'That token belongs to another session.'));
        }
        socket.data.caller = next;
        armExpiry(socket);
        ack({ ok: true });
      } catch (error) {
        ack(
          refuse(error instanceof AppError ? error.code : ErrorCode.invalidToken, 'That token is not valid.'),
        );
      }
    });

    socket.on('chat:ask', (payload, ack) => {
      const answer = (result: Ack) =>
        typeof ack === 'function' ? ack(result) : result.ok || socket.emit('error:message', result);
      const question = (payload as { question?: unknown } | null)?.question;
      if (typeof question !== 'string' || question.trim() === '') {
        return answer(refuse(ErrorCode.validationFailed, 'Type a question first.'));
      }
      if (isBrokenText(question)) {
        return answer(
          refuse(ErrorCode.validationFailed, 'The question must be valid text: no NUL characters.'),
        );
      }
      if (question.length > CHAT_QUESTION_MAX_LENGTH) {
        return answer(
          refuse(
            ErrorCode.validationFailed,
            `Questions can be at most ${CHAT_QUESTION_MAX_LENGTH} characters.`,
          ),
        );
      }
      if (socket.data.chatPending)
        return answer(refuse(ErrorCode.conflict, 'Please wait for the answer to your last question.'));
      // Counted per user (on this process), not per socket: more tabs must not mean more questions.
      if (!chatFlood.allow(caller.userId, Date.now())) {
        return answer(
          refuse(ErrorCode.rateLimited, 'That is a lot of questions at once. Please wait a minute.'),
        );
      }
      socket.data.chatPending = true;
      answer({ ok: true });

      const text = question.trim();
      const delay = options.chatDelayMs ?? CHATBOT_REPLY_DELAY_MS;
      setTimeout(
        async () => {
          const reply = chatReply(text);
          try {
            await options.db
              .insert(chatbotConversations)
              .values({ userId: caller.userId, question: text, answer: reply, createdAt: clock.now() });
          } catch (err) {
            // The spec keeps the chat going when the log fails; the failure is only logged.
            log.warn({ err }, 'could not store the chat conversation');
          }
          socket.data.chatPending = false;
          socket.emit('chat:reply', { question: text, answer: reply, at: clock.now().toISOString() });
        },
        delay.min + Math.random() * (delay.max - delay.min),
      );
    });
  });

  bus.on('live', (event) => {
    const { audience, ...payload } = event;
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

  io.on('session:ended', (sessionId) => auth.forgetSession(sessionId));
  bus.on('session:ended', ({ sessionId, reason }) => {
    if (redisClients.length > 0) io.serverSideEmit('session:ended', sessionId); // one process: nobody else to tell
    const room = io.in(sessionRoom(sessionId));
    room.emit('session:ended', { reason });
    room.disconnectSockets(true);
  });

  return {
    io,
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

/** At most `max` events per key in any `windowMs`; keys with no recent event are dropped. */
function slidingWindow({ max, windowMs }: { max: number; windowMs: number }) {
  const times = new Map<string, number[]>();
  let lastSweep = 0;
  return {
    allow(key: string, now: number): boolean {
      if (now - lastSweep > windowMs) {
        lastSweep = now;
        for (const [k, list] of times) if (now - list[list.length - 1]! >= windowMs) times.delete(k);
      }
      const recent = (times.get(key) ?? []).filter((t) => now - t < windowMs);
      if (recent.length >= max) {
        times.set(key, recent);
        return false;
      }
      recent.push(now);
      times.set(key, recent);
      return true;
    },
  };
}
