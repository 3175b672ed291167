import { TYPING_EVERY_MS, ErrorCode, type Ack, type TypingEvent, type TypingTarget } from '@classwave/shared';
import type { Clock } from '../clock.js';
import type { Db } from '../db/client.js';
import { AppError } from '../http/errors.js';
import { isUuid, refuse } from '../realtime/listener.js';
import { audience } from '../realtime/rooms.js';
import { resolveCoTeacherRooms } from '../realtime/teacher-rooms.js';
import type { Realtime } from '../realtime/socket-server.js';
import type { AppSocket } from '../realtime/types.js';
import { postStanding, requireMayComment, requireReader, requireVisiblePost } from './access.js';
import { threadTypingAudience } from './threads.js';

/**
 * "typing…" (DESIGN §19): a tab says its user is writing a comment on a post or in a private
 * thread; the server checks, as for the comment itself, that they may write there now, and relays
 * it to the others who read it (the course, or the thread's two sides), never to the sender's
 * socket. Not stored and never replayed: it is stale a few seconds later. Each socket may say it
 * once every TYPING_EVERY_MS per target; more is refused (rate_limited) before any query.
 */
export function installTyping(realtime: Realtime, { db, clock }: { db: Db; clock: Clock }): void {
  const lastSaid = new WeakMap<AppSocket, Map<string, number>>();

  /** The target named by a well-formed payload, or undefined. */
  function targetOf(payload: unknown): TypingTarget | undefined {
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return undefined;
    const keys = Object.keys(payload);
    const { postId, thread } = payload as { postId?: unknown; thread?: unknown };
    if (keys.length === 1 && typeof postId === 'string' && isUuid(postId)) return { postId };
    if (keys.length !== 1 || typeof thread !== 'object' || thread === null) return undefined;
    const { assignmentId, studentId } = thread as { assignmentId?: unknown; studentId?: unknown };
    if (Object.keys(thread).length !== 2 || typeof assignmentId !== 'string' || typeof studentId !== 'string')
      return undefined;
    return isUuid(assignmentId) && isUuid(studentId) ? { thread: { assignmentId, studentId } } : undefined;
  }

  /** Whether this socket may say it again now about this target (and notes that it did). */
  function allowed(socket: AppSocket, key: string): boolean {
    const now = clock.now().getTime();
    let said = lastSaid.get(socket);
    if (!said) lastSaid.set(socket, (said = new Map()));
    const last = said.get(key);
    if (last !== undefined && now - last < TYPING_EVERY_MS) return false;
    // A tab types in a few places at most: forget the oldest rather than grow.
    if (said.size >= 20) said.clear();
    said.set(key, now);
    return true;
  }

  async function audienceOf(socket: AppSocket, target: TypingTarget) {
    const { caller } = socket.data;
    if ('thread' in target)
      return threadTypingAudience(db, caller, target.thread.assignmentId, target.thread.studentId);
    const found = await postStanding(db, caller, target.postId);
    requireReader(found?.standing, 'Post');
    requireVisiblePost(found!.post, found!.standing);
    requireMayComment(found!.post, found!.standing);
    const { standing } = found!;
    return {
      courseId: standing.courseId,
      callerName: standing.callerName,
      rooms: audience.course(standing.courseId, standing.teacherId),
    };
  }

  realtime.handle('typing', async (socket, payload, ack) => {
    const answer = (result: Ack) => {
      if (typeof ack === 'function') (ack as (result: Ack) => void)(result);
      else if (!result.ok) socket.emit('error:message', { code: result.code, message: result.message });
    };
    const target = targetOf(payload);
    if (!target)
      return answer(
        refuse(
          ErrorCode.validationFailed,
          'Send { postId } or { thread: { assignmentId, studentId } }, each a uuid, and nothing else.',
        ),
      );
    const key =
      'postId' in target ? target.postId : `${target.thread.assignmentId}:${target.thread.studentId}`;
    if (!allowed(socket, key))
      return answer(
        refuse(ErrorCode.rateLimited, `Say "typing" at most once every ${TYPING_EVERY_MS / 1000} s.`),
      );
    try {
      const { courseId, callerName, rooms } = await audienceOf(socket, target);
      const event: TypingEvent = {
        ...target,
        courseId,
        user: { id: socket.data.caller.userId, fullName: callerName },
        at: clock.now().toISOString(),
      };
      // Not through the outbox: the co-teachers' rooms are resolved here (teacher-rooms.ts).
      const [to = []] = await resolveCoTeacherRooms(db, [rooms]);
      socket.to(to).emit('typing', event);
      answer({ ok: true });
    } catch (error) {
      if (error instanceof AppError) return answer(refuse(error.code, error.message));
      answer(refuse(ErrorCode.internal, 'Something went wrong on our side.'));
    }
  });
}
