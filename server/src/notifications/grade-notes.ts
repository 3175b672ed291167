import { and, desc, eq, gt, sql, type SQL } from 'drizzle-orm';
import { inQuietHours, SUBMISSION_BATCH_MINUTES, type NotificationSettings } from '@classwave/shared';
import type { Tx } from '../db/client.js';
import { notifications } from '../db/schema.js';
import type { RecordEvent } from '../events.js';
import { userRoom } from '../realtime/rooms.js';
import { settingsOf, toNotification } from './store.js';

/**
 * A grade reaching a student is one entry per burst (DESIGN §17): a teacher correcting a grade
 * they just gave (on 'auto' every save reaches the student) updates the entry of a few minutes ago
 * instead of adding another, so the student is told once, with the grade as it now stands.
 */
const BURST_MS = SUBMISSION_BATCH_MINUTES * 60_000;

/** The student's latest "grade returned" entry for the assignment, as a burst decides on it. */
export interface LastGradeNote {
  id: string;
  updatedAt: Date;
  readAt: Date | null;
}

/** What a grade reaching its student tells them. */
export interface GradeNote {
  userId: string;
  title: string;
  body: string;
  link: string;
  courseId: string;
  assignmentId: string;
}

/**
 * The entry to write (pure, so a grade's own statement can write it: issue 30): a new one, or inside
 * the burst the one of a few minutes ago brought up to date (only while it is still inside the
 * burst when written: `since`).
 */
export function planGradeNotification(
  last: LastGradeNote | undefined,
  settings: NotificationSettings,
  now: Date,
  note: GradeNote,
):
  | { insert: typeof notifications.$inferInsert }
  | { update: { id: string; since: Date; set: Partial<typeof notifications.$inferInsert> } } {
  // A grade given before (and told then) that is given again: the student hears it changed.
  const title = `${last ? 'Grade changed' : 'Grade returned'}: ${note.title}`;
  const alert = !inQuietHours(now, settings.quietHours);
  if (!last || now.getTime() - last.updatedAt.getTime() >= BURST_MS)
    return {
      insert: {
        ...note,
        kind: 'grade_returned',
        title,
        count: 1,
        createdAt: now,
        updatedAt: now,
        alert,
      },
    };
  // Inside the burst: the same entry says what the grade is now. Still unread, it stays as it was
  // in the inbox (its title too); read already, the change is news again: unread, on top.
  return {
    update: {
      id: last.id,
      since: new Date(now.getTime() - BURST_MS),
      set: { body: note.body, ...(last.readAt ? { title, updatedAt: now, readAt: null, alert } : {}) },
    },
  };
}

/** The write planGradeNotification decided, as a statement returning the entry written (if any). */
export function gradeNotificationWrite(tx: Tx, plan: ReturnType<typeof planGradeNotification>) {
  return 'insert' in plan
    ? tx.insert(notifications).values(plan.insert).returning()
    : tx
        .update(notifications)
        .set(plan.update.set)
        .where(and(eq(notifications.id, plan.update.id), gt(notifications.updatedAt, plan.update.since)))
        .returning();
}

/** SQL: the student's latest "grade returned" entry for the assignment as json text (LastGradeNote), or null. */
export const lastGradeNoteColumn = (userId: SQL, assignmentId: SQL) =>
  sql`(select json_build_object('id', n.id, 'updatedAt', n.updated_at, 'readAt', n.read_at)::text
    from notifications n where n.user_id = ${userId} and n.assignment_id = ${assignmentId}
      and n.kind = 'grade_returned' order by n.updated_at desc limit 1)`;

export function lastGradeNoteFrom(text: string | null): LastGradeNote | undefined {
  if (text === null) return undefined;
  const json = JSON.parse(text) as { id: string; updatedAt: string; readAt: string | null };
  return {
    id: json.id,
    updatedAt: new Date(json.updatedAt),
    readAt: json.readAt === null ? null : new Date(json.readAt),
  };
}

export async function storeGradeNotification(
  tx: Tx,
  record: RecordEvent,
  now: Date,
  note: GradeNote,
): Promise<void> {
  const [last] = await tx
    .select({ id: notifications.id, updatedAt: notifications.updatedAt, readAt: notifications.readAt })
    .from(notifications)
    .where(
      and(
        eq(notifications.userId, note.userId),
        eq(notifications.assignmentId, note.assignmentId),
        eq(notifications.kind, 'grade_returned'),
      ),
    )
    .orderBy(desc(notifications.updatedAt))
    .limit(1);
  const settings = (await settingsOf(tx, [note.userId])).get(note.userId)!;
  const [written] = await gradeNotificationWrite(tx, planGradeNotification(last, settings, now, note));
  if (written) record('notification:created', toNotification(written), [userRoom(note.userId)]);
}
