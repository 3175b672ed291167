import { and, asc, eq, isNull, lte, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Mailer } from '../auth/mailer.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/client.js';
import { jobs } from '../db/schema.js';
import type { Outbox } from '../realtime/outbox.js';
import { RETENTION_JOB_KEY, type JobHandler, type JobOutcome, type JobRow } from './schedule.js';
import { createWakeUps } from './wake-ups.js';

/** A failing job is tried again after attempts × this, and given up after MAX_ATTEMPTS. */
const RETRY_STEP_MS = 30_000;
const MAX_ATTEMPTS = 5;
/** Jobs one poll runs at most, so a backlog cannot hold a process busy. */
const JOBS_PER_POLL = 100;
const DONE: JobOutcome = { done: true };

/**
 * Runs due jobs. One job per transaction: claimed with FOR UPDATE SKIP LOCKED (another process
 * skips it), run, and marked done or moved, then committed with the events it recorded. A crash
 * before the commit leaves the job pending, to be run again in full; after it, never again. What
 * each kind of job does is its module's: registered with `handle` in the module's setup.
 */
export function createJobRunner(options: {
  db: Db;
  outbox: Outbox;
  clock: Clock;
  mailer: Mailer;
  appOrigin: string;
  log: FastifyBaseLogger;
  /** Whether `wakeAt` sets timers (off when polling is: tests run jobs by hand). */
  wakeUps?: boolean;
}) {
  const { db, outbox, clock } = options;
  const handlers = new Map<string, JobHandler>();

  /** Runs one due job; false when none was due (or all due ones are being run elsewhere). */
  const runOne = () => runFirst((now) => and(isNull(jobs.doneAt), lte(jobs.runAt, now)));

  /**
   * Claims the first pending job `which` selects (skipping those another process holds), runs it
   * and marks it done or moved, in one transaction with its events; false when there was none.
   */
  async function runFirst(which: (now: Date) => SQL | undefined): Promise<boolean> {
    let claimed: JobRow | undefined;
    try {
      return await outbox.transaction(async (tx, record) => {
        const now = clock.now();
        const [job] = await tx
          .select()
          .from(jobs)
          .where(which(now))
          .orderBy(asc(jobs.runAt), asc(jobs.id))
          .limit(1)
          .for('update', { skipLocked: true });
        if (!job) return false;
        claimed = job;
        const handler = handlers.get(job.kind);
        const outcome = handler
          ? await handler(job, { tx, record, now, mailer: options.mailer, appOrigin: options.appOrigin })
          : DONE;
        await tx
          .update(jobs)
          .set('runAt' in outcome ? { runAt: outcome.runAt } : { doneAt: now })
          .where(eq(jobs.id, job.id));
        return true;
      });
    } catch (error) {
      if (!claimed) throw error;
      const attempts = claimed.attempts + 1;
      options.log.warn({ err: error, job: { id: claimed.id, kind: claimed.kind, attempts } }, 'job failed');
      const now = clock.now();
      await db
        .update(jobs)
        .set({
          attempts,
          lastError: String((error as Error)?.message ?? error).slice(0, 500),
          ...(attempts >= MAX_ATTEMPTS
            ? { doneAt: now }
            : { runAt: new Date(now.getTime() + attempts * RETRY_STEP_MS) }),
        })
        .where(eq(jobs.id, claimed.id));
      return true;
    }
  }

  /** Runs due jobs until none is left (or a poll's worth); returns how many ran. */
  async function runDue(limit = JOBS_PER_POLL): Promise<number> {
    let ran = 0;
    while (ran < limit && (await runOne())) ran++;
    return ran;
  }

  const wakeUps = createWakeUps({
    clock,
    runDue,
    enabled: options.wakeUps ?? false,
    log: options.log,
  });

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = false;

  return {
    /**
     * Registers what jobs of these kinds do (a module's setup). A kind nobody handles is marked
     * done when it falls due.
     */
    handle(kinds: Readonly<Record<string, JobHandler>>): void {
      for (const [kind, handler] of Object.entries(kinds)) {
        if (handlers.has(kind)) throw new Error(`job kind ${kind} is handled twice`);
        handlers.set(kind, handler);
      }
    },
    runOne,
    runDue,
    /**
     * Runs these jobs now, whatever their time, if still pending and not being run elsewhere: work a
     * transaction scheduled to follow its commit, run by a bus subscriber once it has. A failure is
     * the job's, to be tried again by the poller; nothing is thrown.
     */
    async runNow(keys: string[]): Promise<void> {
      for (const key of keys)
        await runFirst(() => and(eq(jobs.key, key), isNull(jobs.doneAt))).catch((err: unknown) =>
          options.log.warn({ err, job: { key } }, 'job not run after its commit; the poller will'),
        );
    },
    /** Runs due jobs just after `when`, in this process, rather than at the next poll. */
    wakeAt: wakeUps.at,
    /** Polls every `intervalMs` until stop(); makes sure the retention job exists. */
    async start(intervalMs: number): Promise<void> {
      await db
        .insert(jobs)
        .values({ kind: 'retention', key: RETENTION_JOB_KEY, runAt: clock.now() })
        .onConflictDoNothing();
      if (intervalMs <= 0) return;
      const tick = () => {
        running = runDue()
          .catch((err) => options.log.warn({ err }, 'job poll failed'))
          .finally(() => {
            running = undefined;
            if (!stopped) timer = setTimeout(tick, intervalMs);
          });
      };
      timer = setTimeout(tick, intervalMs);
    },
    /** Stops polling and the wake-up timers, and waits for a run in progress (before the database closes). */
    async stop(): Promise<void> {
      stopped = true;
      clearTimeout(timer);
      await Promise.all([running, wakeUps.close()]);
    },
  };
}
export type JobRunner = ReturnType<typeof createJobRunner>;
