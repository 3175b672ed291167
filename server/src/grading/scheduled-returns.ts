import { randomUUID } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { Tx } from '../db/client.js';
import { assignments, courses, jobs } from '../db/schema.js';
import { scheduleJob, type JobHandler, type JobRow } from '../jobs/schedule.js';
import { releaseHeld } from './release.js';

/**
 * A Return with an undo window (DESIGN §13), kept on the server: a row in the jobs table that runs
 * at the end of the window. The window used to live in the teacher's tab (a timer), so closing the
 * tab cancelled the Return without a word, and "Return all" sent `{}` at the end, releasing grades
 * given during the window as well. Here the exact submissions are fixed when Return is pressed, and
 * the jobs table's FOR UPDATE SKIP LOCKED makes one process, once, send them, after a restart too.
 */
export const RETURN_JOB_KIND = 'return_grades';

const keyOf = (returnId: string) => `return:${returnId}`;

export interface ReturnPayload {
  assignmentId: string;
  submissionIds: string[];
  /** Set when the teacher undid it: the row is kept (done) so a late Undo can tell "undone" from "sent". */
  undoneAt?: string;
}

const payloadOf = (job: JobRow): ReturnPayload => {
  const p = job.payload as Partial<ReturnPayload>;
  return {
    assignmentId: String(p.assignmentId),
    submissionIds: Array.isArray(p.submissionIds) ? p.submissionIds.map(String) : [],
    ...(typeof p.undoneAt === 'string' ? { undoneAt: p.undoneAt } : {}),
  };
};

/** Schedules the return of exactly `submissionIds` at `runAt`; answers the scheduled return's id. */
export async function scheduleReturn(
  tx: Tx,
  payload: Omit<ReturnPayload, 'undoneAt'>,
  runAt: Date,
): Promise<string> {
  const id = randomUUID();
  await scheduleJob(tx, { kind: RETURN_JOB_KIND, key: keyOf(id), runAt, payload: { ...payload } });
  return id;
}

/**
 * A scheduled return, locked until the transaction ends (FOR UPDATE, not SKIP LOCKED: while a
 * process is sending it, an Undo waits and then sees it sent), or undefined when there is none.
 */
export async function lockReturn(tx: Tx, returnId: string) {
  const [job] = await tx
    .select()
    .from(jobs)
    .where(eq(jobs.key, keyOf(returnId)))
    .for('update');
  if (!job || job.kind !== RETURN_JOB_KIND) return undefined;
  return { job, payload: payloadOf(job) };
}

/** Marks a locked, unsent return undone: it will never run. */
export async function markUndone(tx: Tx, job: JobRow, now: Date): Promise<void> {
  await tx
    .update(jobs)
    .set({ doneAt: now, payload: { ...payloadOf(job), undoneAt: now.toISOString() } })
    .where(eq(jobs.id, job.id));
}

/**
 * The job's handler (registered by the grading module): releases the
 * submissions fixed at Return that are still held. A grade given during the window is not among
 * them; one changed during it goes out as it now stands. The assignment is share-locked as a grade
 * write locks it, so switching its release mode cannot interleave.
 */
export const returnJobs: Readonly<Record<string, JobHandler>> = {
  async [RETURN_JOB_KIND](job, { tx, record, now }) {
    const { assignmentId, submissionIds } = payloadOf(job);
    const [row] = await tx
      .select({ assignment: assignments, teacherId: courses.teacherId })
      .from(assignments)
      .innerJoin(courses, eq(courses.id, assignments.courseId))
      .where(and(eq(assignments.id, assignmentId), isNull(assignments.deletedAt)))
      .for('share', { of: assignments });
    // Deleted (or binned) during the window: nothing is left to send.
    if (row) await releaseHeld(tx, record, row, now, submissionIds);
    return { done: true };
  },
};
