import { and, asc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';
import type { Tx } from '../db/client.js';
import { jobs, profiles, submissions } from '../db/schema.js';
import type { RecordEvent } from '../events.js';
import type { Outbox } from '../realtime/outbox.js';
import { onSubmissionCreated } from './batch.js';
import type { JobHandler } from '../jobs/schedule.js';

/**
 * The teacher's "new submissions" batch is brought up to date after the submission commits, not
 * inside it (issue 15). Inside, every submission to one assignment took the batch's lock and held
 * it through its commit (a disk flush each), so a class submitting at the deadline queued one by
 * one: at 150 submissions/s to one assignment the answers took seconds and some timed out. Now the
 * submission's transaction only writes a job row of its own (no lock, no shared row), and right
 * after the commit this process applies it to the batch; the job is the net: a process that dies
 * in between leaves it pending, and the job poller applies it BATCH_NET_MS later. Applying a job
 * and marking it done are one transaction, and a job is claimed with SKIP LOCKED, so each
 * submission reaches its batch once (the batch's count is a recount anyway, batch.ts).
 */

const KIND = 'submission_batch';
/** When the poller takes over a submission this process did not apply (it died first). */
const BATCH_NET_MS = 60_000;

const keyOf = (submissionId: string) => `${KIND}:${submissionId}`;

/**
 * The job that brings the teacher's batch up to date, for the submission's own transaction: the
 * submit writes it in its one write statement (submissions/service.ts; issue 30, a write in three
 * round trips), as `scheduleJob` would.
 */
export const batchUpdateJob = (submissionId: string, now: Date) => ({
  kind: KIND,
  key: keyOf(submissionId),
  runAt: new Date(now.getTime() + BATCH_NET_MS),
  payload: { submissionId },
});

/** These submissions, oldest first, with the student's name (taken-back ones are gone). */
async function submissionsOf(tx: Tx, ids: string[]) {
  return (
    tx
      .select({
        assignmentId: submissions.assignmentId,
        submittedAt: submissions.submittedAt,
        fullName: profiles.fullName,
      })
      .from(submissions)
      .innerJoin(profiles, eq(profiles.id, submissions.studentId))
      // A grade for missing work is no submission (DESIGN §17); these ids are submissions made.
      .where(and(inArray(submissions.id, ids), isNotNull(submissions.submittedAt)))
      .orderBy(asc(submissions.submittedAt), asc(submissions.id))
  );
}

/**
 * Applies submissions of one assignment to its batch: the first (which may start a batch) and the
 * last (whose student the entry names as the latest); the recount covers those in between.
 */
async function apply(tx: Tx, record: RecordEvent, now: Date, ids: string[]): Promise<void> {
  const rows = await submissionsOf(tx, ids);
  const ends = rows.length > 1 ? [rows[0]!, rows[rows.length - 1]!] : rows;
  for (const row of ends)
    await onSubmissionCreated(tx, record, now, {
      assignmentId: row.assignmentId,
      submittedAt: (row.submittedAt ?? now).toISOString(),
      student: { fullName: row.fullName },
    });
}

/** The poller's handler, for a submission no process applied right after its commit. */
export const submissionBatchJobs: Readonly<Record<string, JobHandler>> = {
  async [KIND](job, { tx, record, now }) {
    const submissionId = (job.payload as { submissionId?: unknown }).submissionId;
    if (typeof submissionId === 'string') await apply(tx, record, now, [submissionId]);
    return { done: true };
  },
};

/**
 * Right after a submission commits: its job applied to the batch in a transaction of its own. One
 * run at a time per assignment in this process; submissions arriving meanwhile are applied together
 * by the next run, so a burst costs a few runs, not one per submission.
 */
export function createSubmissionBatcher({
  outbox,
  clock,
  log,
}: {
  outbox: Outbox;
  clock: Clock;
  log: FastifyBaseLogger;
}) {
  /** Per assignment: the submissions waiting for the next run, each with its caller's resolve. */
  const queues = new Map<string, { id: string; applied: () => void }[]>();

  async function run(submissionIds: string[]): Promise<void> {
    await outbox.transaction(async (tx, record) => {
      // The batch is derived state and the job stays pending until this commits: a crash that
      // loses this commit only means the poller applies the job again, so no disk flush to wait for
      // while the batch's lock is held.
      await tx.execute(sql`set local synchronous_commit to off`);
      const claimed = await tx
        .select({ id: jobs.id, key: jobs.key })
        .from(jobs)
        .where(and(inArray(jobs.key, submissionIds.map(keyOf)), isNull(jobs.doneAt)))
        .for('update', { skipLocked: true });
      if (claimed.length === 0) return;
      const prefix = `${KIND}:`;
      await apply(
        tx,
        record,
        clock.now(),
        claimed.map((job) => job.key.slice(prefix.length)),
      );
      await tx
        .update(jobs)
        .set({ doneAt: clock.now() })
        .where(
          inArray(
            jobs.id,
            claimed.map((job) => job.id),
          ),
        );
    });
  }

  async function drain(assignmentId: string, waiting: { id: string; applied: () => void }[]) {
    while (waiting.length > 0) {
      const taken = waiting.splice(0);
      await run(taken.map((w) => w.id)).catch((err: unknown) =>
        log.warn({ err, assignmentId }, 'submissions batch not updated now; its jobs will be'),
      );
      for (const w of taken) w.applied();
    }
    queues.delete(assignmentId);
  }

  return {
    /**
     * The submission committed: resolves once its batch is up to date (or its job is left to the
     * poller). The submit's answer does not wait for it (issue 15: at 200 submissions/s the wait was
     * most of the answer's p99); the teacher hears the batch as a live event.
     */
    submitted(assignmentId: string, submissionId: string): Promise<void> {
      return new Promise<void>((applied) => {
        const waiting = queues.get(assignmentId);
        if (waiting) return void waiting.push({ id: submissionId, applied });
        const fresh = [{ id: submissionId, applied }];
        queues.set(assignmentId, fresh);
        void drain(assignmentId, fresh);
      });
    },
  };
}
export type SubmissionBatcher = ReturnType<typeof createSubmissionBatcher>;
