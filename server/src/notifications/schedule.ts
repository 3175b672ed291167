import { eq, inArray } from 'drizzle-orm';
import { DUE_SOON_HOURS } from '@classwave/shared';
import type { Mailer } from '../auth/mailer.js';
import type { Db, Tx } from '../db/client.js';
import { assignments, jobs } from '../db/schema.js';
import type { RecordEvent } from '../realtime/outbox.js';
import { bumpSequence } from './revisions.js';

/** The job table's vocabulary, and the scheduling of an assignment's reminders (DESIGN §14). */

const HOUR_MS = 3600_000;

export type JobRow = typeof jobs.$inferSelect;

/** What a job's run decided: done, or not yet (run again at `runAt`, e.g. the due date moved later). */
export type JobOutcome = { done: true } | { runAt: Date };

export interface JobContext {
  tx: Tx;
  record: RecordEvent;
  now: Date;
  mailer: Mailer;
  appOrigin: string;
}
export type JobHandler = (job: JobRow, context: JobContext) => Promise<JobOutcome>;

export const jobKeys = {
  dueSoon: (assignmentId: string) => `due_soon:${assignmentId}`,
  closed: (assignmentId: string) => `closed:${assignmentId}`,
  email: (notificationId: string) => `email:${notificationId}`,
  retention: 'retention',
};

/** Adds a job, or moves the one with that key to `runAt` and makes it pending again. */
export async function scheduleJob(
  tx: Db | Tx,
  job: { kind: string; key: string; runAt: Date; payload?: Record<string, unknown> },
): Promise<void> {
  await tx
    .insert(jobs)
    .values({ kind: job.kind, key: job.key, runAt: job.runAt, payload: job.payload ?? {} })
    .onConflictDoUpdate({
      target: jobs.key,
      set: { runAt: job.runAt, doneAt: null, attempts: 0, lastError: null },
    });
}

/** When an assignment's reminders run for a due date: 24 h before (at once when already inside that), and at it. */
function assignmentJobs(assignmentId: string, due: Date, now: Date) {
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
export async function scheduleAssignment(tx: Tx, assignmentId: string, due: Date, now: Date): Promise<void> {
  if (due <= now) return;
  for (const job of assignmentJobs(assignmentId, due, now)) await scheduleJob(tx, job);
}

/**
 * Call after an assignment changed (PATCH /api/assignments/:id), in that transaction: its reminders
 * move to the current due date (one already sent runs again for a later date, refreshing its entry:
 * timed notifications are one per user and assignment), and its calendar SEQUENCE grows so
 * subscribed calendars take the change.
 */
export async function rescheduleAssignment(tx: Tx, assignmentId: string, now = new Date()): Promise<void> {
  const [row] = await tx
    .select({ dueDate: assignments.dueDate })
    .from(assignments)
    .where(eq(assignments.id, assignmentId));
  if (!row) return cancelAssignment(tx, assignmentId);
  await bumpSequence(tx, assignmentId);
  // A job already done stays done when its time has passed and the date did not move past now.
  for (const job of assignmentJobs(assignmentId, row.dueDate, now)) {
    const [existing] = await tx.select().from(jobs).where(eq(jobs.key, job.key));
    if (existing?.doneAt && job.runAt <= now) continue;
    if (existing && !existing.doneAt && existing.runAt.getTime() === job.runAt.getTime()) continue;
    await scheduleJob(tx, job);
  }
}

/** An assignment was deleted: its pending reminders go with it. */
export async function cancelAssignment(tx: Tx, assignmentId: string): Promise<void> {
  await tx
    .delete(jobs)
    .where(inArray(jobs.key, [jobKeys.dueSoon(assignmentId), jobKeys.closed(assignmentId)]));
}
