import { and, eq, inArray, isNull } from 'drizzle-orm';
import { DUE_SOON_HOURS } from '@classwave/shared';
import type { Tx } from '../db/client.js';
import { assignments, jobs } from '../db/schema.js';
import { RETENTION_JOB_KEY, scheduleJob, type NewJob } from '../jobs/schedule.js';

/** An assignment's reminders (DESIGN §14): "due soon" to its students, "closed" to its teacher. */

const HOUR_MS = 3600_000;

export const jobKeys = {
  dueSoon: (assignmentId: string) => `due_soon:${assignmentId}`,
  /** One student's "due soon" on their own due date (an extension, DESIGN §20). */
  dueSoonOf: (assignmentId: string, studentId: string) => `due_soon:${assignmentId}:${studentId}`,
  closed: (assignmentId: string) => `closed:${assignmentId}`,
  email: (notificationId: string) => `email:${notificationId}`,
  retention: RETENTION_JOB_KEY,
};

/** When an assignment's reminders run for a due date: 24 h before (at once when already inside that), and at it. */
function assignmentJobs(assignmentId: string, due: Date, now: Date): NewJob[] {
  const dueSoonAt = new Date(due.getTime() - DUE_SOON_HOURS * HOUR_MS);
  return [
    {
      kind: 'due_soon',
      key: jobKeys.dueSoon(assignmentId),
      runAt: dueSoonAt < now ? now : dueSoonAt,
      payload: { assignmentId },
    },
    { kind: 'assignment_closed', key: jobKeys.closed(assignmentId), runAt: due, payload: { assignmentId } },
  ];
}

/**
 * A new assignment's reminders. One made already past its due time gets none: nobody can submit on
 * time any more, and its teacher, who just set that date, needs no "closed" notice. One due within
 * 24 h reminds its students at once.
 */
export async function scheduleReminders(tx: Tx, assignmentId: string, due: Date, now: Date): Promise<void> {
  for (const job of newReminders(assignmentId, due, now)) await scheduleJob(tx, job);
}

/**
 * The jobs `scheduleReminders` schedules, for a writer that schedules them in its own statement
 * (a new assignment's write, assignments/create.ts): none when it is made past its due time.
 */
export function newReminders(assignmentId: string, due: Date, now: Date): NewJob[] {
  return due <= now ? [] : assignmentJobs(assignmentId, due, now);
}

/**
 * Call after an assignment changed (PATCH /api/assignments/:id), in that transaction: its reminders
 * move to the current due date (one already sent runs again for a later date, refreshing its entry:
 * timed notifications are one per user and assignment).
 */
export async function rescheduleReminders(tx: Tx, assignmentId: string, now = new Date()): Promise<void> {
  const [row] = await tx
    .select({ dueDate: assignments.dueDate })
    .from(assignments)
    .where(and(eq(assignments.id, assignmentId), isNull(assignments.deletedAt)));
  if (!row) return cancelReminders(tx, assignmentId);
  // A job already done stays done when its time has passed and the date did not move past now.
  for (const job of assignmentJobs(assignmentId, row.dueDate, now)) {
    const [existing] = await tx.select().from(jobs).where(eq(jobs.key, job.key));
    if (existing?.doneAt && job.runAt <= now) continue;
    if (existing && !existing.doneAt && existing.runAt.getTime() === job.runAt.getTime()) continue;
    await scheduleJob(tx, job);
  }
}

/** An assignment was deleted: its pending reminders go with it. */
export async function cancelReminders(tx: Tx, assignmentId: string): Promise<void> {
  await tx
    .delete(jobs)
    .where(inArray(jobs.key, [jobKeys.dueSoon(assignmentId), jobKeys.closed(assignmentId)]));
}

/** The job kind of one student's "due soon" (their extension's date, DESIGN §20). */
export const DUE_SOON_STUDENT_KIND = 'due_soon_student';

/**
 * In the extension's transaction: the student's own "due soon", 24 h before their date (at once
 * when already inside that), or none once the extension is gone or its date has passed (the
 * class's reminder leaves out students with an extension, notifications/jobs.ts).
 */
export async function rescheduleStudentReminder(
  tx: Tx,
  assignmentId: string,
  studentId: string,
  due: Date | null,
  now: Date,
): Promise<void> {
  const key = jobKeys.dueSoonOf(assignmentId, studentId);
  if (!due || due <= now) {
    await tx.delete(jobs).where(eq(jobs.key, key));
    return;
  }
  const at = new Date(due.getTime() - DUE_SOON_HOURS * HOUR_MS);
  await scheduleJob(tx, {
    kind: DUE_SOON_STUDENT_KIND,
    key,
    runAt: at < now ? now : at,
    payload: { assignmentId, studentId },
  });
}
