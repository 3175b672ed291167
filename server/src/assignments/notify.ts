import type { Tx } from '../db/client.js';
import type { assignments } from '../db/schema.js';
import type { RecordEvent } from '../events.js';
import { assignmentLink, formatDue, settingsOf, storeNotifications } from '../notifications/store.js';

/**
 * "New assignment" in the inbox of students given a published assignment by an edit (DESIGN §20):
 * the class got theirs when it was published (notifications/member-inbox.ts); these few are told
 * in the edit's own transaction, each with the due date in their own time zone.
 */
export async function storeNewAssignmentFor(
  tx: Tx,
  record: RecordEvent,
  now: Date,
  studentIds: string[],
  row: typeof assignments.$inferSelect,
  courseTitle: string,
): Promise<void> {
  const settings = await settingsOf(tx, studentIds);
  await storeNotifications(
    tx,
    record,
    now,
    studentIds.map((userId) => ({
      userId,
      kind: 'assignment_created' as const,
      title: `New assignment in ${courseTitle}: ${row.title}`,
      body: `Due ${formatDue(row.dueDate, settings.get(userId)!.quietHours.timeZone)}`,
      link: assignmentLink(row.id),
      courseId: row.courseId,
      assignmentId: row.id,
    })),
    settings,
  );
}
