import type { Database } from '../../src/db/client.js';
import { createDeriver } from '../../src/notifications/derive.js';
import { createJobRunner, defaultJobHandlers, type JobHandler } from '../../src/notifications/jobs.js';
import { createOutbox } from '../../src/realtime/outbox.js';
import type { TestApp } from './app.js';

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
  const runner = createJobRunner({
    db: database.db,
    outbox: createOutbox({
      db: database.db,
      bus: t.app.domainEvents,
      clock: t.clock,
      derive: createDeriver(t.clock),
    }),
    clock: t.clock,
    mailer: { send: async () => {}, close: () => {} },
    appOrigin: t.config.appOrigin,
    log: t.app.log,
    handlers: { ...defaultJobHandlers, [kind]: slow },
  });
  return { runner, running };
}
