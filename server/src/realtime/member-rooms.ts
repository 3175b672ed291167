import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Tx } from '../db/client.js';
import { assignments, courseMembers } from '../db/schema.js';
import type { PendingEvent } from '../events.js';
import { MEMBER_STUDENT_PREFIX, userRoom } from './rooms.js';

/**
 * Replaces each `memberStudentRoom` in the pending events' audiences by the student's own room
 * when they are an active member of the assignment's course, and drops it otherwise. Runs in the
 * events' transaction, before they are written: the stored audience (which replays read) is the
 * resolved one. The membership rows are share-locked, so a removal committing at the same moment
 * either waits for this event or is seen by it.
 */
export async function resolveMemberRooms(tx: Tx, pending: readonly PendingEvent[]): Promise<void> {
  const guarded = new Set(
    pending.flatMap((e) => e.audience.filter((room) => room.startsWith(MEMBER_STUDENT_PREFIX))),
  );
  if (guarded.size === 0) return;
  const pairs = [...guarded].map((room) => {
    const [assignmentId = '', studentId = ''] = room.slice(MEMBER_STUDENT_PREFIX.length).split(':');
    return { room, assignmentId, studentId };
  });
  const rows = await tx
    .select({ assignmentId: assignments.id, studentId: courseMembers.studentId })
    .from(assignments)
    .innerJoin(courseMembers, eq(courseMembers.courseId, assignments.courseId))
    .where(
      and(
        inArray(assignments.id, [...new Set(pairs.map((p) => p.assignmentId))]),
        isNull(assignments.deletedAt),
        inArray(courseMembers.studentId, [...new Set(pairs.map((p) => p.studentId))]),
        eq(courseMembers.status, 'active'),
      ),
    )
    .for('share', { of: courseMembers });
  const active = new Set(rows.map((r) => `${r.assignmentId}:${r.studentId}`));
  const resolved = new Map(
    pairs.map((p) => [p.room, active.has(`${p.assignmentId}:${p.studentId}`) ? userRoom(p.studentId) : null]),
  );
  for (const event of pending) {
    const rooms = event.audience.flatMap((room) => {
      if (!room.startsWith(MEMBER_STUDENT_PREFIX)) return [room];
      const to = resolved.get(room);
      return to ? [to] : [];
    });
    event.audience = [...new Set(rooms)];
  }
}
