import { inArray } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.js';
import { courseTeachers } from '../db/schema.js';
import type { PendingEvent } from '../events.js';
import { CO_TEACHERS_PREFIX, userRoom } from './rooms.js';

/**
 * Replaces each `coTeachersRoom` in `rooms` by the own rooms of the course's co-teachers now.
 * `lock` share-locks their rows inside an event's transaction, so a removal committing at the same
 * moment either waits for the event or is seen by it (as member-rooms.ts does for students).
 */
export async function resolveCoTeacherRooms(
  tx: Db | Tx,
  audiences: readonly string[][],
  lock = false,
): Promise<string[][]> {
  const courseIds = new Set(
    audiences.flatMap((rooms) =>
      rooms.filter((r) => r.startsWith(CO_TEACHERS_PREFIX)).map((r) => r.slice(CO_TEACHERS_PREFIX.length)),
    ),
  );
  if (courseIds.size === 0) return audiences.map((rooms) => rooms);
  const query = tx
    .select({ courseId: courseTeachers.courseId, teacherId: courseTeachers.teacherId })
    .from(courseTeachers)
    .where(inArray(courseTeachers.courseId, [...courseIds]));
  const rows = lock ? await query.for('share') : await query;
  const byCourse = new Map<string, string[]>();
  for (const r of rows)
    byCourse.set(r.courseId, [...(byCourse.get(r.courseId) ?? []), userRoom(r.teacherId)]);
  return audiences.map((rooms) => [
    ...new Set(
      rooms.flatMap((room) =>
        room.startsWith(CO_TEACHERS_PREFIX)
          ? (byCourse.get(room.slice(CO_TEACHERS_PREFIX.length)) ?? [])
          : [room],
      ),
    ),
  ]);
}

/** The pending events' audiences with their co-teachers resolved, before they are written. */
export async function resolveTeacherRooms(tx: Tx, pending: readonly PendingEvent[]): Promise<void> {
  const resolved = await resolveCoTeacherRooms(
    tx,
    pending.map((e) => e.audience),
    true,
  );
  pending.forEach((event, i) => (event.audience = resolved[i]!));
}
