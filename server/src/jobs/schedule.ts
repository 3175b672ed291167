import { sql, type SQL } from 'drizzle-orm';
import type { Mailer } from '../auth/mailer.js';
import type { Db, Tx } from '../db/client.js';
import { jobs } from '../db/schema.js';
import type { RecordEvent } from '../events.js';

/** The jobs table's vocabulary: what a job is, what running one decides, and how one is scheduled. */

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

/** The job that keeps the tables from growing for ever (notifications/jobs.ts handles it). */
export const RETENTION_JOB_KEY = 'retention';

/** A job to schedule: its kind, its unique key, when it runs and what it is given. */
export interface NewJob {
  kind: string;
  key: string;
  runAt: Date;
  payload?: Record<string, unknown>;
}

/** Adds a job, or moves the one with that key to `runAt` and makes it pending again. */
export async function scheduleJob(tx: Db | Tx, job: NewJob): Promise<void> {
  await tx
    .insert(jobs)
    .values({ kind: job.kind, key: job.key, runAt: job.runAt, payload: job.payload ?? {} })
    .onConflictDoUpdate({
      target: jobs.key,
      set: { runAt: job.runAt, doneAt: null, attempts: 0, lastError: null },
    });
}

/**
 * `scheduleJob` for several jobs as one SQL statement, for a write's CTE (`j as (…)`): a write that
 * schedules its jobs in its own statement saves a round trip each (issue 30, DESIGN §22).
 */
export function upsertJobsSql(jobsToSchedule: readonly NewJob[]): SQL {
  const values = sql.join(
    jobsToSchedule.map(
      (job) =>
        sql`(${job.kind}, ${job.key}, ${job.runAt.toISOString()}::timestamptz, ${JSON.stringify(job.payload ?? {})}::jsonb)`,
    ),
    sql`, `,
  );
  return sql`insert into ${jobs} (kind, key, run_at, payload) values ${values}
    on conflict (key) do update set run_at = excluded.run_at, done_at = null, attempts = 0, last_error = null`;
}
