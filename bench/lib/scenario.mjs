// What scenarios share: the app on a fresh PostgreSQL database, write keys, targets and report lines.
import { createDatabase, dropDatabase, pgQuery } from './db.mjs';
import { startApp } from './servers.mjs';
import { spread } from './stats.mjs';

export { keyMark } from './clients.mjs';

let lastKey = 0;
/** A number unique within this bench run, carried by a write into its event. */
export const nextKey = () => ++lastKey;

/** Creates database `dbName`, starts the app on it; everything is undone by `cleanups.run()`. */
export async function appOnPostgres(cleanups, dbName, options = {}) {
  await createDatabase(dbName);
  cleanups.add(() => dropDatabase(dbName));
  const app = await startApp({ db: { kind: 'postgres', name: dbName }, ...options });
  cleanups.add(() => app.stop());
  const q = await pgQuery(dbName);
  cleanups.add(() => q.close());
  return { app, q, db: { q, name: dbName } };
}

/**
 * A write to a socket baseline (`baselines/socketio.mjs`, `ws.mjs`): POST /broadcast sends `payload`
 * (an event of the app's shape, carrying `key`) as `type` to `rooms`; `expect` lists the clients
 * that must get it.
 */
export const broadcastRequest = (server, { rooms, type, payload, key, expect, check }) => ({
  url: `${server.url}/broadcast`,
  method: 'POST',
  body: { rooms, type, payload },
  status: 204,
  label: 'broadcast',
  key,
  type,
  expect,
  check,
});

/** A target line: the median (and range) of a measure against a limit. */
export function target(name, spreadValue, limit, op) {
  const value = spreadValue?.median;
  const met = value === undefined || value === null ? null : op === '≥' ? value >= limit : value <= limit;
  return {
    name,
    value,
    range: spreadValue?.min !== undefined ? [spreadValue.min, spreadValue.max] : null,
    n: spreadValue?.n,
    limit,
    op,
    met,
  };
}

/** Report lines for an event/HTTP latency summary picked from each run. */
export function latencyLines(runs, label, pick, which = ['p50', 'p95', 'p99', 'max']) {
  return which.map((p) => ({ metric: `${label} ${p}`, value: spread(runs, (r) => pick(r)[p]), unit: 'ms' }));
}

/** The problems that make a run broken (not merely slow): errors, lost, duplicated or wrong events. */
export function integrity(id, runs, { allowUnexpected = false } = {}) {
  const problems = [];
  const sum = (f) => runs.reduce((a, r) => a + (f(r) ?? 0), 0);
  const checks = {
    'HTTP errors': sum((r) => r.httpErrors),
    'lost events': sum((r) => r.lost),
    'duplicated events': sum((r) => r.duplicated),
    'events with wrong type or data': sum((r) => r.wrongData),
    'malformed events': sum((r) => r.malformed),
    ...(allowUnexpected ? {} : { 'events to the wrong audience': sum((r) => r.unexpected) }),
  };
  for (const [what, n] of Object.entries(checks)) if (n > 0) problems.push(`${id}: ${n} ${what}`);
  const samples = runs.flatMap((r) => [...(r.badSamples ?? []), ...(r.samples ?? [])]).slice(0, 5);
  if (problems.length && samples.length) problems.push(`${id} samples: ${samples.join(' | ')}`);
  return { problems, counts: checks };
}

/** How many of the app's database sessions waited on a lock, sampled every 100 ms (mean and max). */
export function lockLines(runs, label = '') {
  return [
    {
      metric: `${label}DB sessions waiting on a lock, mean`,
      value: spread(runs, (r) => r.lockWaits?.meanWaiting),
      unit: 'of the pool of 10',
    },
    {
      metric: `${label}DB sessions waiting on a lock, max`,
      value: spread(runs, (r) => r.lockWaits?.maxWaiting),
      unit: '',
    },
    {
      metric: `${label}… of them on the advisory lock, max`,
      value: spread(runs, (r) => r.lockWaits?.maxAdvisory),
      unit: '',
    },
  ];
}
