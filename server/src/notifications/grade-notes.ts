import { and, desc, eq, gt } from 'drizzle-orm';
import { inQuietHours, SUBMISSION_BATCH_MINUTES } from '@classwave/shared';
import type { Tx } from '../db/client.js';
import { notifications } from '../db/schema.js';
import type { RecordEvent } from '../events.js';
import { userRoom } from '../realtime/rooms.js';
import { settingsOf, storeNotifications, toNotification } from './store.js';

/**
 * A grade reaching a student is one entry per burst (DESIGN §17): a teacher correcting a grade
 * they just gave (on 'auto' every save reaches the student) updates the entry of a few minutes ago
 * instead of adding another, so the student is told once, with the grade as it now stands.
 */
const BURST_MS = SUBMISSION_BATCH_MINUTES * 60_000;

export async function storeGradeNotification(
  tx: Tx,
  record: RecordEvent,
  now: Date,
  note: { userId: string; title: string; body: string; link: string; courseId: string; assignmentId: string },
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
  // A grade given before (and told then) that is given again: the student hears it changed.
  const title = `${last ? 'Grade changed' : 'Grade returned'}: ${note.title}`;
  if (!last || now.getTime() - last.updatedAt.getTime() >= BURST_MS) {
    await storeNotifications(tx, record, now, [{ ...note, kind: 'grade_returned', title }]);
    return;
  }
  // Inside the burst: the same entry says what the grade is now. Still unread, it stays as it was
  // in the inbox (its title too); read already, the change is news again: unread, on top.
  const settings = (await settingsOf(tx, [note.userId])).get(note.userId)!;
  const [updated] = await tx
    .update(notifications)
    .set({
      body: note.body,
      ...(last.readAt
        ? { title, updatedAt: now, readAt: null, alert: !inQuietHours(now, settings.quietHours) }
        : {}),
    })
    .where(
      and(eq(notifications.id, last.id), gt(notifications.updatedAt, new Date(now.getTime() - BURST_MS))),
    )
    .returning();
  if (updated) record('notification:created', toNotification(updated), [userRoom(note.userId)]);
}
