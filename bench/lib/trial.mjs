// One measured trial: CPU of the server (and of its database backends) and of the load generator
// over the trial, each core's busy fraction, and whether the load core was saturated (then the
// trial is discarded: the load, not the server, may have been the limit).
import { spawnSync } from 'node:child_process';
import { APP_CORE, LOAD_CORE, cpuMeter, cpuSeconds } from './procs.mjs';
import { DB_CORE } from './db.mjs';

export const SATURATED = Number(process.env.BENCH_SATURATED ?? 0.95);

/**
 * @param {object} o
 * @param {number[]} o.serverPids  the measured server process(es)
 * @param {{ q, name, core }} [o.db] the app's PostgreSQL database: its backends are pinned (to `core`,
 *                                 default DB_CORE) and measured while the trial runs
 * @param {{ pid }} o.loadgen
 * @param {() => Promise<any>} fn  the load
 */
export async function trial({ serverPids, db, loadgen }, fn) {
  const pids = { load: loadgen.pid };
  serverPids.forEach((pid, i) => (pids[`server${i}`] = pid));
  const backends = db ? await watchBackends(db) : null;
  const meter = cpuMeter(pids);
  const value = await fn();
  const m = meter.end();
  const dbStats = backends ? await backends.stop() : undefined;
  const cpu = {
    wall: m.wall,
    server: Object.entries(m.procs)
      .filter(([k]) => k.startsWith('server'))
      .reduce((a, [, v]) => a + v, 0),
    // Each server process's own share, in the order of serverPids (a cluster's primary first).
    servers: serverPids.map((_, i) => m.procs[`server${i}`]),
    db: dbStats?.cpu ?? 0,
    load: m.procs.load,
    appCoreBusy: m.busy[APP_CORE],
    loadCoreBusy: m.busy[LOAD_CORE],
  };
  return { ...value, cpu, lockWaits: dbStats?.locks, saturated: cpu.loadCoreBusy >= SATURATED };
}

/**
 * Watches the app's database backends during a trial, every 100 ms: pins each new one (the pool
 * opens and closes connections as it likes) to the database core, adds up their CPU from when they
 * were first seen, and counts the sessions waiting on a lock (the outbox's advisory lock serialises
 * every transaction that records an event).
 */
async function watchBackends({ q, name, core = DB_CORE }) {
  const cpuAt = new Map(); // pid -> { first, last }
  const samples = [];
  const look = async () => {
    const rows = await q(
      `select pid, wait_event_type, wait_event, state from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`,
      [name],
    );
    for (const { pid } of rows) {
      if (!cpuAt.has(pid)) {
        spawnSync('taskset', ['-p', '-c', String(core), String(pid)], { stdio: 'ignore' });
        const now = cpuSeconds(pid);
        cpuAt.set(pid, { first: now, last: now });
      } else {
        const c = cpuSeconds(pid);
        if (c > 0) cpuAt.get(pid).last = c;
      }
    }
    return {
      waiting: rows.filter((r) => r.wait_event_type === 'Lock').length,
      advisory: rows.filter((r) => r.wait_event === 'advisory').length,
      busy: rows.filter((r) => r.state === 'active' || r.state?.startsWith('idle in transaction')).length,
    };
  };
  await look();
  let running = false;
  const timer = setInterval(async () => {
    if (running) return;
    running = true;
    try {
      samples.push(await look());
    } catch {
      /* the sample is lost, not the run */
    } finally {
      running = false;
    }
  }, 100);
  return {
    async stop() {
      clearInterval(timer);
      for (const [pid, t] of cpuAt) {
        const c = cpuSeconds(pid);
        if (c > 0) t.last = c;
      }
      const cpu = [...cpuAt.values()].reduce((a, t) => a + (t.last - t.first), 0);
      if (samples.length === 0) return { cpu, locks: null };
      const mean = (k) => samples.reduce((a, x) => a + x[k], 0) / samples.length;
      return {
        cpu,
        locks: {
          samples: samples.length,
          meanWaiting: mean('waiting'),
          maxWaiting: Math.max(...samples.map((x) => x.waiting)),
          meanAdvisory: mean('advisory'),
          maxAdvisory: Math.max(...samples.map((x) => x.advisory)),
          meanInTransaction: mean('busy'),
          backends: cpuAt.size,
        },
      };
    },
  };
}

/** Warm-up rounds before measuring: one, or none in quick mode (bench/run.mjs sets BENCH_WARMUP). */
export const warmupRounds = () => Number(process.env.BENCH_WARMUP ?? 1);

/**
 * Runs `variants` (name -> async () => trial result) interleaved: a warm-up round (discarded), then
 * `runs` rounds, the order rotating each round so no variant always runs first. A round whose trial
 * ran on a saturated load core is retried (at most `retries` extra rounds in all).
 */
export async function interleave(
  variants,
  { runs, warmup = warmupRounds(), retries = Number(process.env.BENCH_RETRIES ?? 2), log = () => {} },
) {
  const names = Object.keys(variants);
  const results = Object.fromEntries(names.map((n) => [n, []]));
  const discarded = Object.fromEntries(names.map((n) => [n, 0]));
  for (let w = 0; w < warmup; w++)
    for (const name of names) {
      log(`  warm-up ${name}`);
      await variants[name]({ warmup: true });
    }
  let extra = 0;
  for (let round = 0; round < runs + extra; round++) {
    const order = names.map((_, i) => names[(i + round) % names.length]);
    for (const name of order) {
      if (results[name].length >= runs) continue;
      const result = await variants[name]({ warmup: false, round });
      const note = result.saturated ? ' (load core saturated: discarded)' : '';
      log(`  run ${round + 1} ${name}${note}`);
      if (result.saturated) {
        discarded[name]++;
        // Retries are spent only while the whole run is within its time budget.
        if (extra < retries && Date.now() < Number(process.env.BENCH_RETRY_UNTIL ?? Infinity)) extra++;
        results[name].discarded ??= [];
        results[name].discarded.push(result);
      } else results[name].push(result);
    }
  }
  // A variant with every run discarded keeps them, flagged, rather than reporting nothing.
  for (const name of names)
    if (results[name].length === 0 && results[name].discarded?.length) {
      results[name].push(...results[name].discarded.map((r) => ({ ...r, keptSaturated: true })));
    }
  return { results, discarded };
}
