import { expect } from 'vitest';
import { MailCatcher } from '../support/mail-catcher.js';
import { requestsInFlight } from './http.js';
import { arrivals, checkTabs, startScenario } from './scenario.js';
import { checkStored } from './verify.js';
import { Ledger, runLoad, settle } from './workload.js';

/**
 * The real server as a child process under a steady stream of submissions, grades and new
 * assignments from dozens of simulated people, killed with SIGKILL at random moments and started
 * again on the same data. Afterwards every write that was answered with a 2xx must be stored exactly
 * once with the values it was answered with, retries of unanswered writes must not have doubled
 * anything, and every open tab must end up showing each acknowledged write exactly once — through
 * the catch-up it makes after each reconnect.
 *
 * CRASH_ROUNDS sets the number of kills: 10 by default and in CI, 30 through `npm run test:reliability`.
 */
export const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 10);
const SIZE = { teachers: 3, students: Number(process.env.CRASH_STUDENTS ?? 36) };
/** A kill lands this long after the server is healthy again, while the load is running. */
const KILL_AFTER_MS = { min: 200, max: 2500 };

/** What a scenario started, undone after each test (see `undoAll`). */
export const cleanups: Array<() => Promise<unknown>> = [];
export async function undoAll(): Promise<void> {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
}

export async function crashScenario(databaseUrl: string | undefined) {
  const began = Date.now();
  const mail = await new MailCatcher().start();
  cleanups.push(() => mail.stop());
  const s = await startScenario({ databaseUrl, mail, size: SIZE, cleanups });
  const base = s.server.url;
  const ledger = new Ledger({ retryable: [] });
  for (const course of s.school.courses) await ledger.createAssignment(base, course);

  let loading = true;
  const load = runLoad(base, s.school, ledger, () => loading);
  const killedAfterMs: number[] = [];
  const inFlightAtKill: number[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const wait = KILL_AFTER_MS.min + Math.random() * (KILL_AFTER_MS.max - KILL_AFTER_MS.min);
      await new Promise((r) => setTimeout(r, wait));
      killedAfterMs.push(Math.round(wait));
      inFlightAtKill.push(requestsInFlight());
      await s.server.kill();
      await s.server.start();
    }
  } finally {
    loading = false;
    await load;
  }
  // Every attempt left open is finished now: a retry must find what landed, never store it twice.
  await settle(base, s.school, ledger);
  const stored = await checkStored(base, s.school, ledger);
  const shown = await checkTabs(s, ledger);

  const acked = ledger.acknowledged();
  const figures = {
    database: databaseUrl ? 'PostgreSQL server' : 'PGlite',
    kills: killedAfterMs.length,
    killedAfterMs,
    requestsInFlightAtKill: inFlightAtKill,
    acknowledged: {
      submissions: acked.submissions.length,
      grades: acked.grades.length,
      assignments: acked.assignments.length,
    },
    landedWithoutAnswer: [...ledger.submissions.values()].filter((w) => w.landedId).length,
    requests: ledger.requests,
    statuses: Object.fromEntries(ledger.statuses),
    tabs: s.tabs.length,
    eventsShown: arrivals(s.tabs),
    serverStartMs: s.server.startMs,
    seconds: Math.round((Date.now() - began) / 1000),
  };
  console.log(`crash scenario: ${JSON.stringify(figures)}`);
  return { figures, unexpected: ledger.unexpected, stored, shown, server: s.server };
}

/** Nothing lost, doubled or invented, every tab caught up — and the run really was under load. */
export function expectNothingLost(r: Awaited<ReturnType<typeof crashScenario>>) {
  const failures = {
    unexpectedAnswers: r.unexpected.slice(0, 20),
    stored: r.stored.slice(0, 20),
    shown: r.shown.slice(0, 20),
  };
  expect(failures, r.server.output()).toEqual({ unexpectedAnswers: [], stored: [], shown: [] });
  expect(r.figures.kills).toBe(ROUNDS);
  expect(r.figures.acknowledged.submissions).toBeGreaterThan(ROUNDS * 5);
  expect(r.figures.acknowledged.grades).toBeGreaterThan(ROUNDS * 5);
  expect(Math.max(...r.figures.requestsInFlightAtKill), 'no kill cut a request off').toBeGreaterThan(0);
  expect(r.figures.eventsShown.byReplay, 'no tab needed its catch-up').toBeGreaterThan(0);
}
