import { and, eq, inArray, or } from 'drizzle-orm';
import type { Tx } from '../db/client.js';
import { assignments, courseMembers } from '../db/schema.js';
import type { PendingEvent } from '../events.js';
import { assignedTo } from '../assignments/visibility.js';
import { ASSIGNEES_PREFIX, userRoom } from './rooms.js';

/**
 * Replaces each `assigneesRoom` in the pending events' audiences by the own rooms of the course's
 * active members the assignment is for (the one condition of assignments/visibility.ts), share-
 * locking their memberships as member-rooms.ts does. Runs after the rules, which read the room as
 * recorded ("the assignment's students"), and before the events are written: the stored audience,
 * which replays read, is the resolved one. Only assignments for some students use it, so an
 * assignment for the whole class costs no statement here.
 */
export async function resolveAssigneeRooms(tx: Tx, pending: readonly PendingEvent[]): Promise<void> {
  const rooms = new Set(
    pending.flatMap((e) => e.audience.filter((room) => room.startsWith(ASSIGNEES_PREFIX))),
  );
  if (rooms.size === 0) return;
  const parsed = [...rooms].map((room) => {
    const [assignmentId = '', studentId] = room.slice(ASSIGNEES_PREFIX.length).split(':');
    return { room, assignmentId, studentId };
  });
  const whole = parsed.filter((p) => p.studentId === undefined).map((p) => p.assignmentId);
  const one = parsed.filter((p) => p.studentId !== undefined);
  const rows = await tx
    .select({ assignmentId: assignments.id, studentId: courseMembers.studentId })
    .from(assignments)
    .innerJoin(courseMembers, eq(courseMembers.courseId, assignments.courseId))
    .where(
      and(
        // A binned one too: its students hear that it went.
        or(
          whole.length > 0 ? inArray(assignments.id, whole) : undefined,
          ...one.map((p) =>
            and(eq(assignments.id, p.assignmentId), eq(courseMembers.studentId, p.studentId!)),
          ),
        ),
        eq(courseMembers.status, 'active'),
        assignedTo(courseMembers.studentId),
      ),
    )
    .for('share', { of: courseMembers });
  const resolved = new Map<string, string[]>();
  const add = (room: string, to: string) => resolved.set(room, [...(resolved.get(room) ?? []), to]);
  for (const r of rows) {
    add(`${ASSIGNEES_PREFIX}${r.assignmentId}`, userRoom(r.studentId));
    add(`${ASSIGNEES_PREFIX}${r.assignmentId}:${r.studentId}`, userRoom(r.studentId));
  }
  for (const event of pending) {
    if (!event.audience.some((room) => room.startsWith(ASSIGNEES_PREFIX))) continue;
    event.audience = [
      ...new Set(
        event.audience.flatMap((room) =>
          room.startsWith(ASSIGNEES_PREFIX) ? (resolved.get(room) ?? []) : [room],
        ),
      ),
    ];
  }
}
