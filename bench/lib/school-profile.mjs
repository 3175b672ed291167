// `node bench/profile.mjs school [seconds] [rate]`: where the app's CPU goes in S8school's mix. The
// quick school (every student still in 7 classes of 28 with 30 assignments each, so each request
// reads and writes what it would in the full one), every user connected, a 5 s warm-up, then the
// probe's CPU profile of `seconds` of the mix at `rate` (start-up, seeding and connecting left
// out), after the same load measured without the profiler. Then each kind of request alone, at a
// low rate, for its app and PostgreSQL CPU per request and its latency. PROFILE_KINDS (labels,
// comma-separated: "POST assignment,POST submission") measures only those kinds alone, and
// profiles them instead of the mix.
import { probe } from './servers.mjs';
import { QUICK_SCHOOL, schoolMix, schoolSockets, seedSchool } from './school.mjs';
import { trial } from './trial.mjs';

export async function profileSchool({
  app,
  q,
  dbName,
  loadgen,
  seconds,
  rate = 40,
  profilePath,
  /** Only these kinds of request (their labels), each alone, then profiled together: no whole mix. */
  kinds,
  log = console.log,
}) {
  const data = await seedSchool(q, QUICK_SCHOOL, { name: 'P', log });
  const specs = schoolSockets(data, 'ps');
  const c = await loadgen.call('connect', { url: app.url, specs });
  if (c.failed) throw new Error(`${c.failed} sockets failed: ${c.errors.join('; ')}`);
  const mix = schoolMix(data, { url: app.url, rate, prefix: 'ps' });
  const lastEventId = async () => Number((await q('select coalesce(max(id), 0) as n from events'))[0].n);
  const run = async (requests, r) => {
    mix.setEventCursor(await lastEventId());
    return loadgen.call('run', { requests, rate: r, drainMs: 3000 });
  };
  await run(mix.take(rate * 5), rate); // warm-up
  if (!kinds) {
    // Measured without the profiler (it costs CPU of its own), then profiled.
    mix.setEventCursor(await lastEventId());
    const measured = mix.take(rate * seconds);
    const whole = await trial({ serverPids: [app.pid], db: { q, name: dbName }, loadgen }, () =>
      loadgen.call('run', { requests: measured, rate, drainMs: 3000 }),
    );
    log(
      `\nthe mix at ${rate} req/s for ${seconds} s: app ${us(whole.cpu.server / whole.requests)} µs, PostgreSQL ${us(whole.cpu.db / whole.requests)} µs per request; API p95 ${whole.httpAll.p95?.toFixed(1)} ms, event p99 ${whole.eventsAll.p99?.toFixed(1)} ms, ${whole.httpErrors} errors, ${whole.lost} events lost`,
    );
    mix.setEventCursor(await lastEventId());
    const profiled = mix.take(rate * seconds);
    await probe(app, 'cpu:start');
    await loadgen.call('run', { requests: profiled, rate, drainMs: 3000 });
    await probe(app, 'cpu:stop', { path: profilePath });
  }

  // Each kind alone: a pool from the same mix (new assignments one in 50), its first requests of a kind.
  mix.setRate(10);
  const pool = mix.take(20_000);
  log(
    '\neach kind of request alone, 25 req/s, per request: app CPU, PostgreSQL CPU, statements sent (round trips, with the after-commit work), p50:',
  );
  const alone = (label) =>
    pool.filter((r) => r.label === label).slice(0, label === 'POST assignment' ? 40 : 150);
  for (const label of kinds ?? mix.labels) {
    const some = alone(label);
    if (some.length === 0) continue;
    mix.setEventCursor(await lastEventId());
    await probe(app, 'queries:start');
    const r = await trial({ serverPids: [app.pid], db: { q, name: dbName }, loadgen }, () =>
      loadgen.call('run', { requests: some, rate: 25, drainMs: 2000 }),
    );
    const statements = (await probe(app, 'queries:stop')) / r.requests;
    log(
      `  ${label.padEnd(16)} ${us(r.cpu.server / r.requests).padStart(6)} µs ${us(r.cpu.db / r.requests).padStart(6)} µs ${statements.toFixed(1).padStart(5)} ${r.http[label]?.p50?.toFixed(1).padStart(6)} ms  (${some.length} requests, ${r.httpErrors} errors)`,
    );
  }
  if (kinds) {
    // The profile of those kinds alone, one after the other (fresh requests of each, from the pool).
    const rest = kinds.flatMap((label) => pool.filter((r) => r.label === label).slice(alone(label).length));
    mix.setEventCursor(await lastEventId());
    await probe(app, 'cpu:start');
    await loadgen.call('run', { requests: rest.slice(0, 25 * seconds), rate: 25, drainMs: 2000 });
    await probe(app, 'cpu:stop', { path: profilePath });
  }
  await loadgen.call('disconnect', { prefix: 'ps:' });
}

const us = (s) => (s * 1e6).toFixed(0);
