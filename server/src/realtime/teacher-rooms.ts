import { inArray, sql, type SQL } from 'drizzle-orm';
import { txQuery, type Db, type Tx } from '../db/client.js';
import { courseTeachers, events } from '../db/schema.js';
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

/**
 * SQL for the own rooms of a course's teachers, inside the statement that writes an event for them
 * (a write that is one statement, outbox.ts `committed`): its owner's (`ownerId`, SQL the statement
 * computes) and its co-teachers' now, share-locked as `insertEvents` locks them, so a removal
 * committing at the same moment waits for the event or is seen by it.
 */
export function teacherRoomsSql(courseId: string, ownerId: SQL): SQL {
  const own = userRoom('');
  return sql`array[${own} || ${ownerId}] || array(select ${own} || ${courseTeachers.teacherId}
    from ${courseTeachers} where ${courseTeachers.courseId} = ${courseId}::uuid for share)`;
}

/**
 * Writes the pending events with each `coTeachersRoom` in their audience replaced by the own rooms
 * of the course's co-teachers at that moment, share-locked (a removal committing meanwhile waits for
 * the event or is seen by it), in the one insert statement: resolving them first was a round trip
 * more for every write that tells the teachers (DESIGN §22: a write in three). Returns each event's
 * id and stored audience, in the order given.
 */
export async function insertEvents(
  tx: Tx,
  pending: readonly PendingEvent[],
  at: Date,
): Promise<Array<{ id: number; audience: string[] }>> {
  const rows = pending.map((e) => ({
    type: e.type,
    data: e.data,
    rooms: e.audience.filter((r) => !r.startsWith(CO_TEACHERS_PREFIX)),
    courses: e.audience
      .filter((r) => r.startsWith(CO_TEACHERS_PREFIX))
      .map((r) => r.slice(CO_TEACHERS_PREFIX.length)),
  }));
  const courseIds = [...new Set(rows.flatMap((r) => r.courses))];
  // Ids are handed out in the select's order (ord), so sorting what comes back by id restores it.
  // One text whatever the events (their rows travel as one JSON parameter): prepared once per
  // connection (txQuery), where a multi-row insert's text changed with the number of events.
  const result = await txQuery<{ id: number | string; audience: string[] }>(
    tx,
    'insert_events',
    sql`with co as (
      select ${courseTeachers.courseId} as course_id, ${courseTeachers.teacherId} as teacher_id
      from ${courseTeachers}
      where ${courseTeachers.courseId} = any(array(select jsonb_array_elements_text(${JSON.stringify(courseIds)}::jsonb))::uuid[])
      for share),
    v as (
      select x.ord, x.e->>'type' as type, x.e->'data' as data,
        array(select jsonb_array_elements_text(x.e->'rooms')) as rooms,
        array(select jsonb_array_elements_text(x.e->'courses'))::uuid[] as courses
      from jsonb_array_elements(${JSON.stringify(rows)}::jsonb) with ordinality as x(e, ord))
    insert into ${events} (type, data, audience, created_at)
    select v.type, v.data,
      v.rooms || coalesce((select array_agg(distinct 'user:' || co.teacher_id::text) from co
        where co.course_id = any(v.courses)), '{}'::text[]),
      ${at.toISOString()}::timestamptz
    from v order by v.ord
    returning id, audience`,
  );
  return result
    .map((r) => ({ id: Number(r.id), audience: [...new Set(r.audience)] }))
    .sort((a, b) => a.id - b.id);
}
