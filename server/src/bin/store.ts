import { and, count, eq, inArray, isNotNull } from 'drizzle-orm';
import { BIN_KEEP_DAYS, type BinContents, type BinKind } from '@classwave/shared';
import type { Db, Tx } from '../db/client.js';
import { assignments, courseMembers, courses, jobs, submissionDrafts, submissions } from '../db/schema.js';
import { scheduleJob, type JobHandler } from '../jobs/schedule.js';

/**
 * The bin's storage (DESIGN §17): deleting a course or an assignment sets its `deleted_at` (every
 * read skips such rows) and schedules its purge for BIN_KEEP_DAYS later; restoring clears both.
 * The courses and assignments modules bin through `moveToBin`; the bin module lists and restores.
 */

const DAY_MS = 24 * 3600 * 1000;
export const BIN_PURGE_KIND = 'bin_purge';
const purgeKey = (kind: BinKind, id: string) => `${BIN_PURGE_KIND}:${kind}:${id}`;

/** When something binned at `deletedAt` is purged for good. */
export const purgeAt = (deletedAt: Date) => new Date(deletedAt.getTime() + BIN_KEEP_DAYS * DAY_MS);

const tableOf = (kind: BinKind) => (kind === 'course' ? courses : assignments);

/** In the delete's transaction: the row goes to the bin, and its purge is scheduled. */
export async function moveToBin(tx: Tx, kind: BinKind, id: string, by: string, now: Date): Promise<void> {
  const table = tableOf(kind);
  await tx.update(table).set({ deletedAt: now, deletedBy: by }).where(eq(table.id, id));
  await scheduleJob(tx, {
    kind: BIN_PURGE_KIND,
    key: purgeKey(kind, id),
    runAt: purgeAt(now),
    payload: { kind, id },
  });
}

/**
 * In the restore's transaction: the row is live again and its purge is called off (marked done,
 * not deleted, so the restore's own outbox rules can tell it from something new: `restoredNow`).
 */
export async function takeOutOfBin(tx: Tx, kind: BinKind, id: string, now: Date) {
  const table = tableOf(kind);
  await tx.update(table).set({ deletedAt: null, deletedBy: null }).where(eq(table.id, id));
  await tx
    .update(jobs)
    .set({ doneAt: now })
    .where(eq(jobs.key, purgeKey(kind, id)));
}

/**
 * Whether this transaction's `*:created` for it is a restore (DESIGN §17): a restored row's purge
 * job was just called off. A new one never had a purge job; done jobs are kept a week, longer
 * than any transaction.
 */
export async function restoredNow(tx: Tx, kind: BinKind, id: string): Promise<boolean> {
  const [row] = await tx
    .select({ doneAt: jobs.doneAt })
    .from(jobs)
    .where(and(eq(jobs.key, purgeKey(kind, id)), isNotNull(jobs.doneAt)));
  return row !== undefined;
}

/**
 * What a course or an assignment holds, as its delete confirmation and the bin name it. A course
 * counts all its assignments, binned ones too: binning the course keeps them with it.
 */
export async function contentsOf(tx: Db | Tx, kind: BinKind, id: string): Promise<BinContents> {
  const ofWork = (column: typeof submissions.assignmentId | typeof submissionDrafts.assignmentId) =>
    kind === 'course'
      ? inArray(
          column,
          tx.select({ id: assignments.id }).from(assignments).where(eq(assignments.courseId, id)),
        )
      : eq(column, id);
  const tally = async (query: Promise<{ n: number }[]>) => (await query)[0]?.n ?? 0;
  const [work, graded, drafts, held, students] = await Promise.all([
    // Grades for missing work are grades, not submissions (DESIGN §17).
    tally(
      tx
        .select({ n: count() })
        .from(submissions)
        .where(and(ofWork(submissions.assignmentId), isNotNull(submissions.submittedAt))),
    ),
    tally(
      tx
        .select({ n: count() })
        .from(submissions)
        .where(and(ofWork(submissions.assignmentId), isNotNull(submissions.grade))),
    ),
    tally(tx.select({ n: count() }).from(submissionDrafts).where(ofWork(submissionDrafts.assignmentId))),
    kind === 'course'
      ? tally(tx.select({ n: count() }).from(assignments).where(eq(assignments.courseId, id)))
      : 0,
    kind === 'course'
      ? tally(tx.select({ n: count() }).from(courseMembers).where(eq(courseMembers.courseId, id)))
      : 0,
  ]);
  return { submissions: work, grades: graded, drafts, assignments: held, students };
}

/**
 * The purge, BIN_KEEP_DAYS after binning: the course or assignment and everything in it (the
 * submissions, drafts, excusals and revisions go with their assignment by foreign key; a course's
 * assignments are all binned, DESIGN §17). Restored meanwhile, or binned again later: nothing now.
 */
export const binJobs: Readonly<Record<string, JobHandler>> = {
  async [BIN_PURGE_KIND](job, { tx, now }) {
    const { kind, id } = job.payload as { kind?: unknown; id?: unknown };
    if ((kind !== 'course' && kind !== 'assignment') || typeof id !== 'string') return { done: true };
    const table = tableOf(kind);
    const [row] = await tx
      .select({ deletedAt: table.deletedAt })
      .from(table)
      .where(and(eq(table.id, id), isNotNull(table.deletedAt)))
      .for('update');
    if (!row?.deletedAt) return { done: true };
    const due = purgeAt(row.deletedAt);
    if (due > now) return { runAt: due };
    if (kind === 'course') await tx.delete(assignments).where(eq(assignments.courseId, id));
    await tx.delete(table).where(eq(table.id, id));
    return { done: true };
  },
};
