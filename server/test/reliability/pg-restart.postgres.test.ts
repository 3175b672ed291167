import { afterAll, describe, expect, it } from 'vitest';
import { MailCatcher } from '../support/mail-catcher.js';
import { call } from './http.js';
import { ensureRunning, localCluster, pgCtlCluster, scratchDatabase } from './postgres.js';
import { arrivals, checkTabs, startScenario } from './scenario.js';
import { checkStored } from './verify.js';
import { Ledger, runLoad, settle } from './workload.js';

/**
 * The PostgreSQL server restarted the hard way (`pg_ctlcluster … restart -m immediate`: no
 * checkpoint, every connection cut, crash recovery on start) while the app serves a steady stream of
 * writes. The app is not restarted: meanwhile it answers 503 in the error shape (never a 500, never
 * a hang), then serves 2xx again by itself, and every write it acknowledged is stored and shown.
 *
 * PG_RESTARTS sets how many restarts: 1 by default and in CI, 3 through `npm run test:reliability`.
 */
/** This pass includes the file only when DATABASE_URL is set. */
const url = process.env.DATABASE_URL!;
const RESTARTS = Number(process.env.PG_RESTARTS ?? 1);
const SIZE = { teachers: 2, students: 20 };
/** Load before each restart, and how long to keep going once the app answers 2xx again. */
const STEADY_MS = 3000;
/** The most any answer may take while the database is away (the pool's connect timeout is 5 s). */
const MAX_ANSWER_MS = 10_000;
/** How soon after PostgreSQL is back the app must be acknowledging writes again. */
const MAX_RECOVERY_MS = 15_000;

const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  // Whatever happened, PostgreSQL is left running for whatever comes next.
  await ensureRunning(url, localCluster(url));
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the PostgreSQL server restarted under load (-m immediate)', () => {
  it('answers 503 meanwhile, recovers without a restart of its own, and loses no acknowledged write', async () => {
    const cluster = localCluster(url);
    const database = await scratchDatabase(url, 'pgrestart');
    cleanups.push(database.drop);
    const mail = await new MailCatcher().start();
    cleanups.push(() => mail.stop());
    const s = await startScenario({ databaseUrl: database.url, mail, size: SIZE, cleanups });
    const base = s.server.url;
    const pid = s.server.pid;
    const ledger = new Ledger({ retryable: [503] });
    for (const course of s.school.courses) await ledger.createAssignment(base, course);

    // The health check every 100 ms: when the app itself says its database is down.
    const health: Array<{ at: number; status: number | 'none' }> = [];
    let loading = true;
    const poll = (async () => {
      while (loading) {
        const o = await call(base, 'GET', '/api/health');
        health.push({ at: Date.now(), status: o.answered ? o.status : 'none' });
        await sleep(100);
      }
    })();
    const load = runLoad(base, s.school, ledger, () => loading);

    const acknowledged = () => {
      const a = ledger.acknowledged();
      return a.submissions.length + a.grades.length + a.assignments.length;
    };
    const restarts: Array<{
      commandMs: number;
      recoveredMs: number | null;
      answers503: number;
      first503ToLastMs: number;
    }> = [];
    try {
      for (let i = 0; i < RESTARTS; i++) {
        await sleep(STEADY_MS);
        const seen503 = ledger.retryableAt.length;
        const commandMs = await pgCtlCluster(cluster, 'restart', '-m', 'immediate');
        const back = Date.now();
        const before = acknowledged();
        while (acknowledged() === before && Date.now() - back < MAX_RECOVERY_MS) await sleep(20);
        const recoveredMs = acknowledged() > before ? Date.now() - back : null;
        const outage = ledger.retryableAt.slice(seen503);
        restarts.push({
          commandMs,
          recoveredMs,
          answers503: outage.length,
          first503ToLastMs: outage.length > 0 ? outage.at(-1)! - outage[0]! : 0,
        });
      }
      await sleep(STEADY_MS);
    } finally {
      loading = false;
      await Promise.all([load, poll]);
    }
    if (!s.server.running) throw new Error(`the app died with PostgreSQL:\n${s.server.output()}`);
    await settle(base, s.school, ledger);
    const stored = await checkStored(base, s.school, ledger);
    const shown = await checkTabs(s, ledger);

    const down = health.filter((h) => h.status !== 200);
    // How long the health check said "down", from its first such answer to the next 200.
    let healthDownMs = 0;
    let downSince: number | undefined;
    for (const h of health) {
      if (h.status !== 200) downSince ??= h.at;
      else if (downSince !== undefined) {
        healthDownMs += h.at - downSince;
        downSince = undefined;
      }
    }
    const acked = ledger.acknowledged();
    console.log(
      `PostgreSQL restart: ${JSON.stringify({
        restarts,
        answers503: ledger.retryableAt.length,
        healthDownMs,
        slowestAnswerMs: ledger.slowestMs,
        statuses: Object.fromEntries(ledger.statuses),
        acknowledged: {
          submissions: acked.submissions.length,
          grades: acked.grades.length,
          assignments: acked.assignments.length,
        },
        landedDespite503: [...ledger.submissions.values()].filter((w) => w.landedId).length,
        tabs: s.tabs.length,
        eventsShown: arrivals(s.tabs),
      })}`,
    );

    const failures = {
      unexpectedAnswers: ledger.unexpected.slice(0, 20),
      stored: stored.slice(0, 20),
      shown: shown.slice(0, 20),
    };
    expect(failures, s.server.output()).toEqual({ unexpectedAnswers: [], stored: [], shown: [] });
    // The app stayed up: every request got an answer, and none took long.
    expect(ledger.unanswered).toBe(0);
    expect(ledger.slowestMs).toBeLessThan(MAX_ANSWER_MS);
    for (const r of restarts) {
      expect(r.answers503, 'a restart no request noticed').toBeGreaterThan(0);
      expect(r.recoveredMs, 'no 2xx after PostgreSQL was back').not.toBeNull();
    }
    // The same process throughout: it recovered by itself.
    expect(s.server.running).toBe(true);
    expect(s.server.pid).toBe(pid);
    expect(s.server.startMs).toHaveLength(1);
    expect(down.length, 'the health check never reported the database down').toBeGreaterThan(0);
    expect(health.at(-1)?.status).toBe(200);
  });
});
