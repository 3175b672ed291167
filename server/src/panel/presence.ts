import { ErrorCode, type Ack, type PresenceState } from '@classwave/shared';
import type { Caller } from '../auth/caller.js';
import { isUuid, refuse } from '../realtime/listener.js';
import { courseRoom, presenceRoom } from '../realtime/rooms.js';
import type { Realtime } from '../realtime/socket-server.js';
import type { AppIo } from '../realtime/types.js';

export interface PresenceRules {
  /** The course of an assignment this student may report on (an active member's), or null. */
  courseOf(caller: Caller, assignmentId: string): Promise<string | null>;
  /** Who is where on this assignment changed: the teacher's panel is due an update. */
  changed(assignmentId: string): void;
}

/**
 * `presence:set` (DESIGN §13 live panel): a student's tab says which assignment it shows and
 * whether they are typing. Only an active member's report on an assignment of their course is
 * kept; the state lives on the socket (socket.data), so it goes when the socket goes.
 */
export function installPresence(realtime: Realtime, rules: PresenceRules): void {
  realtime.handle('presence:set', async (socket, payload, ack) => {
    const answer = (result: Ack) => (typeof ack === 'function' ? ack(result) : undefined);
    const { caller } = socket.data;
    if (caller.role !== 'student')
      return answer(refuse(ErrorCode.forbidden, 'Only students report presence.'));
    const body = payload as { assignmentId?: unknown; state?: unknown } | null;
    const before = socket.data.presence;
    if (body?.assignmentId === null) {
      socket.data.presence = undefined;
      if (before) {
        void socket.leave(presenceRoom(before.assignmentId));
        rules.changed(before.assignmentId);
      }
      return answer({ ok: true });
    }
    if (typeof body?.assignmentId !== 'string' || !isUuid(body.assignmentId)) {
      return answer(refuse(ErrorCode.validationFailed, 'assignmentId must be an assignment id or null.'));
    }
    if (body.state !== 'viewing' && body.state !== 'writing') {
      return answer(refuse(ErrorCode.validationFailed, "state must be 'viewing' or 'writing'."));
    }
    const assignmentId = body.assignmentId;
    const state = body.state;
    let courseId: string | null;
    try {
      courseId = await rules.courseOf(caller, assignmentId);
    } catch {
      return answer(refuse(ErrorCode.serviceUnavailable, 'Presence could not be checked; try again.'));
    }
    if (!courseId || socket.disconnected) return answer(refuse(ErrorCode.notFound, 'Assignment not found.'));
    socket.data.presence = { assignmentId, courseId, state };
    if (before && before.assignmentId !== assignmentId) {
      void socket.leave(presenceRoom(before.assignmentId));
      rules.changed(before.assignmentId);
    }
    void socket.join(presenceRoom(assignmentId));
    if (before?.assignmentId !== assignmentId || before.state !== state) rules.changed(assignmentId);
    answer({ ok: true });
  });
  realtime.onDisconnect((socket) => {
    const gone = socket.data.presence;
    if (gone) rules.changed(gone.assignmentId);
  });
}

/**
 * Who is on an assignment now, over every process: the sockets that report it which are still in
 * the course room (its active members: a removed student's socket has left it), a student's
 * busiest tab winning (writing over viewing).
 */
export async function presenceOn(
  io: AppIo,
  courseId: string,
  assignmentId: string,
): Promise<Map<string, PresenceState>> {
  const states = new Map<string, PresenceState>();
  for (const socket of await io.in(presenceRoom(assignmentId)).fetchSockets()) {
    const p = socket.data.presence;
    if (p?.assignmentId !== assignmentId || !socket.rooms.has(courseRoom(courseId))) continue;
    const studentId = socket.data.caller.userId;
    if (states.get(studentId) !== 'writing') states.set(studentId, p.state);
  }
  return states;
}
