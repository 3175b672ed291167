/**
 * A job-runner process for scheduler-crash.test.ts: the server's own runner (jobs/runner.ts),
 * notification rules and jobs, and mailer on the test's database — PostgreSQL at DATABASE_URL, else PGlite in DATA_DIR —
 * run until no job is due, then exit. With HOLD=<kind> it does that kind's real work and then, still
 * inside the claiming transaction, prints `holding <key>` and waits there for the test to SIGKILL it.
 *
 * Run with tsx (--conditions=classwave-source), from the test only.
 */
import type { FastifyBaseLogger } from 'fastify';
import { createMailer } from '../../src/auth/mailer.js';
import { systemClock } from '../../src/clock.js';
import { openDatabase } from '../../src/db/client.js';
import type { JobHandler } from '../../src/jobs/schedule.js';
import { notificationJobs } from '../../src/notifications/jobs.js';
import { otherProcessJobs } from './jobs.js';

const env = process.env;
const database = await openDatabase(
  env.DATABASE_URL ? { url: env.DATABASE_URL, poolSize: 2 } : { dataDir: env.DATA_DIR },
);
// A logger that says nothing (importing Fastify for its own would cost this process a second).
const quiet: FastifyBaseLogger = new Proxy({} as FastifyBaseLogger, {
  get: (_target, name) => (name === 'child' ? () => quiet : name === 'level' ? 'silent' : () => {}),
});
const log = quiet;
const mailer = createMailer({ smtpUrl: env.SMTP_URL, from: 'Classwave <no-reply@classwave.test>', log });

const hold = env.HOLD;
const handlers: Record<string, JobHandler> = {};
if (hold) {
  const real = notificationJobs[hold]!;
  handlers[hold] = async (job, context) => {
    const outcome = await real(job, context);
    process.stdout.write(`holding ${job.key}\n`);
    // Never resolves: the transaction stays open, its row locked, until the process is killed.
    await new Promise(() => {});
    return outcome;
  };
}

const runner = otherProcessJobs({
  db: database.db,
  clock: systemClock,
  mailer,
  appOrigin: env.APP_ORIGIN ?? 'http://localhost:5173',
  log,
  handlers,
});
const ran = await runner.runDue();
process.stdout.write(`idle after ${ran}\n`);
mailer.close();
await database.close();
