import type { FastifyBaseLogger } from 'fastify';
import type { Mailer } from '../../src/auth/mailer.js';
import type { Clock } from '../../src/clock.js';
import type { Database, Db } from '../../src/db/client.js';
import { DomainEventBus } from '../../src/events.js';
import { createJobRunner } from '../../src/jobs/runner.js';
import type { JobHandler } from '../../src/jobs/schedule.js';
import { notificationJobs } from '../../src/notifications/jobs.js';
import { notificationRules } from '../../src/notifications/rules.js';
import { createOutbox } from '../../src/realtime/outbox.js';
import type { TestApp } from './app.js';

/**
 * The job runner of another server process over `db`, as its notifications module would set it up
 * (their outbox rules and job kinds), with `handlers` in place of some kinds' own.
 */
export function otherProcessJobs(options: {
  db: Db;
  clock: Clock;
  mailer: Mailer;
  appOrigin: string;
  log: FastifyBaseLogger;
  bus?: DomainEventBus;
  handlers?: Readonly<Record<string, JobHandler>>;
}) {
  const { db, clock } = options;
  const outbox = createOutbox({ db, bus: options.bus ?? new DomainEventBus(), clock });
  outbox.rules('notifications', notificationRules);
  const runner = createJobRunner({ ...options, outbox });
  runner.handle({ ...notificationJobs, ...options.handlers });
  return runner;
}

/**
 * A second process's job runner over the test app's database, whose `kind` jobs do their real
 * work (`handler`) and then wait at `gate` before committing: `running` resolves once one is that
 * far, so a test can act while it holds its job's row.
 */
export function slowJobProcess(
  t: TestApp,
  database: Database,
  kind: string,
  handler: JobHandler,
  gate: Promise<void>,
) {
  let started!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  const slow: JobHandler = async (job, context) => {
    const outcome = await handler(job, context);
    started();
    await gate;
    return outcome;
  };
  const runner = otherProcessJobs({
    db: database.db,
    bus: t.app.core.bus,
    clock: t.clock,
    mailer: { send: async () => {}, close: () => {} },
    appOrigin: t.config.appOrigin,
    log: t.app.log,
    handlers: { [kind]: slow },
  });
  return { runner, running };
}
