import { AsyncLocalStorage } from 'node:async_hooks';
import { expect } from 'vitest';
import type { Logger } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { TestApp } from './app.js';

type Session = { logger: Logger; options: { logger?: Logger } };

/** Marks the statements sent on behalf of the work being counted. */
const workContext = new AsyncLocalStorage<symbol>();

/** The read-only check of an archived course, sent before every write to a course. */
const ARCHIVE_GUARD = /^select "archived_at" is not null/;

/**
 * The SQL statements the app sends while `work` runs (outside and inside transactions), counted
 * at the driver as PostgreSQL receives them (those made on `work`'s behalf: its async context), BEGIN and COMMIT aside (the transaction's own).
 * `work` must answer `status`. `guarded`: whether the archive guard may read before the write (a
 * write whose own statement checks the archive skips it, and must send no such read).
 */
export async function statementsOf(
  t: TestApp,
  status: number,
  work: () => Promise<{ statusCode: number; body: string }>,
  { guarded = true }: { guarded?: boolean } = {},
): Promise<string[]> {
  const session = (t.app.core.db as unknown as { session: Session }).session;
  const sent: string[] = [];
  const before = { logger: session.logger, option: session.options.logger };
  // Only what `work` causes: a poller of the app's own (jobs, outbox, timers) may query meanwhile,
  // and on a loaded machine its statement fell inside the window and was counted as the write's.
  const mine = Symbol('statementsOf');
  const logger: Logger = {
    logQuery: (query) => {
      if (workContext.getStore() === mine) sent.push(query);
    },
  };
  // The session's logger, and the one each transaction's session is made with.
  session.logger = logger;
  session.options.logger = logger;
  // Fastify's promise-returning inject starts the request from a thenable, which drops the async
  // context; its callback form starts it at once, inside `work`'s.
  const inject = t.app.inject;
  const withCallback = inject.bind(t.app) as (
    options: InjectOptions | string,
    callback: (error: Error | undefined, res?: LightMyRequestResponse) => void,
  ) => void;
  t.app.inject = ((options: InjectOptions | string) =>
    new Promise((resolve, reject) =>
      withCallback(options, (error, res) => (error ? reject(error) : resolve(res!))),
    )) as typeof inject;
  try {
    const res = await workContext.run(mine, work);
    expect(res.statusCode, res.body).toBe(status);
  } finally {
    t.app.inject = inject;
    session.logger = before.logger;
    session.options.logger = before.option;
  }
  // The archive guard's read (archive/guard.ts) runs before the write, outside its transaction: one
  // round trip more for every write until each write's standing reads `archived_at` itself (issue 30).
  const guard = sent.filter((statement) => ARCHIVE_GUARD.test(statement));
  expect(guard.length).toBeLessThanOrEqual(guarded ? 1 : 0);
  return sent.filter(
    (statement) => !/^\s*(begin|commit)\b/i.test(statement) && !ARCHIVE_GUARD.test(statement),
  );
}
