import { expect } from 'vitest';
import type { Logger } from 'drizzle-orm';
import type { TestApp } from './app.js';

type Session = { logger: Logger; options: { logger?: Logger } };

/** The read-only check of an archived course, sent before every write to a course. */
const ARCHIVE_GUARD = /^select "archived_at" is not null/;

/**
 * The SQL statements the app sends while `work` runs (outside and inside transactions), counted
 * at the driver as PostgreSQL receives them, BEGIN and COMMIT aside (the transaction's own).
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
  const logger: Logger = { logQuery: (query) => void sent.push(query) };
  // The session's logger, and the one each transaction's session is made with.
  session.logger = logger;
  session.options.logger = logger;
  try {
    const res = await work();
    expect(res.statusCode, res.body).toBe(status);
  } finally {
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
