#!/usr/bin/env node
// `npm run soak [-- --minutes 5] [-- --rate 160] [-- --ci] [-- --no-build]`
// The app under sustained load: the built app on a fresh PostgreSQL database (core 0), 2,000
// connected users (light clients and five socket.io-client ones), the product mix of S8 sent open
// loop at --rate for --minutes, and autocannon on a student's GET /api/assignments alongside (the
// load generator, autocannon and the database backends on core 1). Every --window seconds it reads
// the requests done, HTTP errors, events delivered, lost, duplicated or misdirected, the app's
// event-loop delay, CPU and RSS; every few windows, the heap after a forced GC.
// Exits non-zero on any HTTP error, any lost, duplicated, misdirected or malformed event, a dropped
// socket, or post-GC heap growth from the first to the last third of the run beyond the limit.
// Writes bench/results/soak.{json,md} (runs of 5 minutes or more) or soak-ci.{json,md} (shorter).
// Default rate: S8 on a quiet 2-core machine (bench/results/bench-full.md) kept the app process 81 %
// busy at 330 req/s of this mix, about 2.5 ms of app CPU per request; 160 req/s of the mix plus 20 of
// autocannon is about 45 % of the app core, so the load can be held with room for garbage collection,
// the data growing over the run (a new assignment every 5 s) and whatever else shares the machine.
import { execSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  APP_CORE,
  BENCH,
  LOAD_CORE,
  ROOT,
  cleanupStack,
  cpuMeter,
  rssBytes,
  startNode,
  stop,
} from './lib/procs.mjs';
import { mulberry32, productMix, productSockets, seedProduct } from './lib/product-mix.mjs';
import { formatted, machineContext } from './lib/report.mjs';
import { appOnPostgres } from './lib/scenario.mjs';
import { probe, startLoadgen } from './lib/servers.mjs';
import { median } from './lib/stats.mjs';
import { trial } from './lib/trial.mjs';

const HELP = `node bench/soak.mjs [options]   (npm run soak -- [options])
  --minutes N        measured duration (default 5; --ci: 1)
  --rate N           product-mix requests per second, open loop (default 160)
  --clients N        connected users, 1 in 25 a teacher (default 2000)
  --ac-rate N        autocannon requests per second on GET /api/assignments (default 20; 0: none)
  --ac-connections N autocannon connections (default 10)
  --window S         seconds per sample (default 10)
  --warmup S         seconds of the same load before the start readings (default 20; --ci: 10)
  --heap-limit-mb N  post-GC heap growth allowed, first to last third (default 4 MB or 10 %, the larger)
  --ci               the CI form: --minutes 1 --warmup 10
  --out NAME         bench/results/NAME.{json,md} (default soak, or soak-ci under 5 minutes)
  --no-build         do not run tsc -b first`;

function parseArgs(argv) {
  const o = {
    minutes: null,
    rate: 160,
    clients: 2000,
    acRate: 20,
    acConnections: 10,
    window: 10,
    warmup: null,
    heapLimitMb: 4,
    heapLimitPct: 10,
    ci: false,
    out: null,
    build: true,
  };
  const num = (i, name) => {
    const v = Number(argv[i]);
    if (!Number.isFinite(v) || v < 0) throw new Error(`${name} needs a number, got ${argv[i]}`);
    return v;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--minutes') o.minutes = num(++i, a);
    else if (a === '--rate') o.rate = num(++i, a);
    else if (a === '--clients') o.clients = num(++i, a);
    else if (a === '--ac-rate') o.acRate = num(++i, a);
    else if (a === '--ac-connections') o.acConnections = num(++i, a);
    else if (a === '--window') o.window = num(++i, a);
    else if (a === '--warmup') o.warmup = num(++i, a);
    else if (a === '--heap-limit-mb') o.heapLimitMb = num(++i, a);
    else if (a === '--ci') o.ci = true;
    else if (a === '--out') o.out = argv[++i];
    else if (a === '--no-build') o.build = false;
    else if (a === '--help' || a === '-h') {
      console.log(HELP);
      process.exit(0);
    } else throw new Error(`unknown argument ${a}\n${HELP}`);
  }
  o.minutes ??= o.ci ? 1 : 5;
  o.warmup ??= o.ci ? 10 : 20;
  // The mix creates an assignment every `rate * 5` requests: a whole number of requests per second.
  o.rate = Math.round(o.rate);
  if (o.rate < 1) throw new Error('--rate must be at least 1');
  if (o.clients < 100) throw new Error('--clients must be at least 100');
  o.out ??= o.minutes >= 5 ? 'soak' : 'soak-ci';
  return o;
}

if (process.argv[2] === '--autocannon-worker') {
  await autocannonWorker(JSON.parse(process.argv[3]));
  process.exit(0);
}

const opts = parseArgs(process.argv.slice(2));
const PREFIX = 'soak';
const MB = 2 ** 20;
const started = Date.now();
const log = (line) => console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s] ${line}`);

if (opts.build) {
  log('building server and shared (tsc -b)');
  execSync('npx tsc -b', { cwd: ROOT, stdio: 'inherit' });
}

// The users: 1 in 25 a teacher (S8's 200 of 5,000); active, as in S8: 50 teachers and 950 students
// (fewer when there are fewer users: half the students, and enough idle ones to have submissions to grade).
const TEACHERS = Math.max(2, Math.round(opts.clients / 25));
const STUDENTS = opts.clients - TEACHERS;
const ACTIVE_TEACHERS = Math.min(50, TEACHERS);
const ACTIVE_STUDENTS = Math.min(950, Math.floor(STUDENTS / 2));
const windowsTotal = Math.max(1, Math.ceil((opts.minutes * 60) / opts.window));
// About ten post-GC heap readings over the run (each forces a full GC: not after every window).
const gcEvery = Math.max(1, Math.round(windowsTotal / 10));

const context = machineContext();
log(
  `soak: ${opts.minutes} min, ${opts.rate} req/s product mix + ${opts.acRate} req/s autocannon, ${opts.clients} sockets; ` +
    `load before start ${context.loadavg.join(' ')}; busiest: ${context.busiest.slice(0, 3).join('; ')}`,
);

const cleanups = cleanupStack();
const problems = [];
let report;
try {
  const loadgen = await startLoadgen();
  cleanups.add(() => loadgen.stop());
  const dbName = `bench_soak_${process.pid}_${Date.now().toString(36)}`;
  const { app, q, db } = await appOnPostgres(cleanups, dbName);
  log(`app on ${app.url} (core ${APP_CORE}), database ${dbName}; seeding ${opts.clients} users`);
  const data = await seedProduct(q, {
    teachers: TEACHERS,
    students: STUDENTS,
    activeTeachers: ACTIVE_TEACHERS,
    activeStudents: ACTIVE_STUDENTS,
    name: 'Soak',
  });
  cleanups.add(() => loadgen.call('disconnect', { prefix: PREFIX }));
  const c = await loadgen.call('connect', { url: app.url, specs: productSockets(data, PREFIX) });
  if (c.failed) throw new Error(`${c.failed} sockets failed to connect: ${c.errors.join('; ')}`);
  log(`${c.connected} users connected in ${(c.ms / 1000).toFixed(1)} s (5 on socket.io-client)`);

  // Its own random generator: S8's repeats itself after about 16,000 draws (see product-mix.mjs).
  const mix = productMix(data, {
    url: app.url,
    rate: opts.rate,
    prefix: PREFIX,
    random: mulberry32(12345),
  });
  const runWindow = (seconds) =>
    loadgen.call('run', {
      requests: mix.take(Math.round(opts.rate * seconds)),
      rate: opts.rate,
      drainMs: 3000,
    });

  log(`warm-up: ${opts.warmup} s of the same mix`);
  const warm = await trial({ serverPids: [app.pid], db, loadgen }, () => runWindow(opts.warmup));
  log(`  ${warm.requests} requests, ${warm.httpErrors} errors, ${warm.eventsAll.count ?? 0} events`);

  const memStart = await probe(app, 'mem');
  if (!memStart.gcExposed)
    throw new Error('the app runs without --expose-gc: heap readings would not be post-GC');
  const heapReadings = [{ t: 0, ...memStart }];
  const t0 = performance.now();
  const since = () => (performance.now() - t0) / 1000;

  // autocannon alongside, for the whole measured time, on the load core.
  const student = data.students[0];
  const ac =
    opts.acRate > 0
      ? startAutocannon({
          url: `${app.url}/api/assignments`,
          token: student.token,
          rate: opts.acRate,
          connections: opts.acConnections,
          // Stopped when the last window ends; a bound in case this process dies first.
          maxSeconds: Math.round(opts.minutes * 60 * 4 + 300),
        })
      : null;

  log(`measuring: ${windowsTotal} windows of ${opts.window} s, post-GC heap every ${gcEvery}`);
  let acResult = null;
  await probe(app, 'eld:start');
  const measured = await trial({ serverPids: [app.pid], db, loadgen }, async () => {
    const windows = [];
    for (let w = 0; w < windowsTotal; w++) {
      const seconds = Math.min(opts.window, opts.minutes * 60 - w * opts.window);
      const t = since();
      const meter = cpuMeter({ app: app.pid, load: loadgen.pid });
      const r = await runWindow(seconds);
      // autocannon stops with the mix, before the last forced GC.
      if (w === windowsTotal - 1 && ac) acResult = await ac.result(30_000);
      const eld = await probe(app, 'eld:stop');
      const cpu = meter.end();
      const sockets = await loadgen.call('connectedCount', { prefix: PREFIX });
      const win = {
        window: w + 1,
        t: +t.toFixed(1),
        seconds: +cpu.wall.toFixed(2),
        requests: r.requests,
        achievedRate: r.achievedRate,
        httpErrors: r.httpErrors,
        status: r.status,
        badSamples: r.badSamples,
        http: r.httpAll,
        httpByLabel: r.http,
        events: r.eventsAll,
        received: r.received,
        lost: r.lost,
        duplicated: r.duplicated,
        unexpected: r.unexpected,
        unkeyed: r.unkeyed,
        wrongData: r.wrongData,
        malformed: r.malformed,
        samples: r.samples,
        schedulerLagP99: r.schedulerLag?.p99,
        eld,
        appCpu: cpu.procs.app / cpu.wall,
        loadCpu: cpu.procs.load / cpu.wall,
        appCoreBusy: cpu.busy[APP_CORE],
        loadCoreBusy: cpu.busy[LOAD_CORE],
        rss: rssBytes(app.pid),
        sockets,
      };
      // A forced GC between windows, while no request of the mix is in flight and the event-loop
      // delay is not being recorded (its pause is the probe's, not the app's).
      if ((w + 1) % gcEvery === 0 || w === windowsTotal - 1) {
        const mem = await probe(app, 'mem');
        heapReadings.push({ t: +since().toFixed(1), ...mem });
        win.heapUsed = mem.heapUsed;
      }
      if (w < windowsTotal - 1) await probe(app, 'eld:start');
      windows.push(win);
      log(
        `  ${String(w + 1).padStart(3)}/${windowsTotal} t=${win.t.toFixed(0)}s ${win.requests} req ` +
          `(${win.achievedRate.toFixed(0)}/s) err ${win.httpErrors} | API p99 ${ms(win.http.p99)} | ` +
          `events ${win.events.count ?? 0} lost ${win.lost} dup ${win.duplicated} | ` +
          `ELD p99 ${ms(eld?.p99)} max ${ms(eld?.max)} | app CPU ${pct(win.appCpu)} of core ${APP_CORE} (busy ${pct(win.appCoreBusy)}) | ` +
          `RSS ${mb(win.rss)}${win.heapUsed ? ` heap ${mb(win.heapUsed)}` : ''} | sockets down ${sockets.down}`,
      );
    }
    return { windows };
  });
  const measuredSeconds = since();
  const memEnd = heapReadings.at(-1);
  const appAlive = app.child.exitCode === null && app.child.signalCode === null;

  report = analyse({ windows: measured.windows, measured, warm, heapReadings, memStart, memEnd, acResult });
  report.measuredSeconds = measuredSeconds;
  report.appAlive = appAlive;
  if (!appAlive) problems.push('the app exited during the soak');
} catch (error) {
  problems.push(`soak failed: ${error.stack ?? error}`);
  console.error(error);
} finally {
  await cleanups.run();
}

report = {
  command: `npm run soak${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
  options: opts,
  users: {
    teachers: TEACHERS,
    students: STUDENTS,
    activeTeachers: ACTIVE_TEACHERS,
    activeStudents: ACTIVE_STUDENTS,
  },
  startedAt: new Date(started).toISOString(),
  seconds: (Date.now() - started) / 1000,
  context,
  contextAfter: { loadavg: os.loadavg().map((x) => +x.toFixed(2)) },
  ...report,
  problems: [...(report?.problems ?? []), ...problems],
};
const out = path.join(BENCH, 'results');
mkdirSync(out, { recursive: true });
const jsonFile = path.join(out, `${opts.out}.json`);
writeFileSync(jsonFile, await formatted(JSON.stringify(report, null, 1), jsonFile));
const mdFile = path.join(out, `${opts.out}.md`);
const md = await formatted(markdown(report), mdFile);
writeFileSync(mdFile, md);
console.log(`\n${md}`);
log(`done in ${report.seconds.toFixed(0)} s; results in bench/results/${opts.out}.{json,md}`);
if (report.problems.length) {
  console.error(`\nSOAK FAILED:\n- ${report.problems.join('\n- ')}`);
  process.exit(1);
}
process.exit(0);

// ---- autocannon ---------------------------------------------------------------------------------

/**
 * autocannon at a fixed overall rate, in a process of its own on the load core (this script again,
 * as `--autocannon-worker`), until `result()` stops it and returns its summary.
 */
function startAutocannon({ url, token, rate, connections, maxSeconds }) {
  const job = { url, headers: { authorization: `Bearer ${token}` }, connections, overallRate: rate };
  const child = startNode(
    'autocannon',
    LOAD_CORE,
    [path.join(BENCH, 'soak.mjs'), '--autocannon-worker', JSON.stringify({ ...job, duration: maxSeconds })],
    { ipc: true, quiet: true },
  );
  const done = new Promise((resolve) => {
    child.on('message', (m) => m?.autocannon && resolve(m.autocannon));
    child.exited.then(({ code, signal }) =>
      resolve({ failed: `autocannon exited (${code ?? signal}): ${child.output().slice(-500)}` }),
    );
  });
  return {
    async result(timeoutMs) {
      if (child.exitCode === null) child.send({ stop: true });
      const timer = setTimeout(() => stop(child), timeoutMs);
      const r = await done;
      clearTimeout(timer);
      await stop(child);
      return r.failed ? r : { url, connections, rate, ...r };
    },
  };
}

/** The autocannon process: runs the job given on the command line until told to stop. */
async function autocannonWorker(job) {
  const { default: autocannon } = await import('autocannon');
  const tracker = autocannon({ ...job, pipelining: 1 });
  process.on('message', (m) => m?.stop && tracker.stop());
  const r = await tracker;
  process.send({
    autocannon: {
      seconds: r.duration,
      requests: r.requests.total,
      rps: r.requests.total / r.duration,
      latency: { p50: r.latency.p50, p99: r.latency.p99, max: r.latency.max },
      status: Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([k, v]) => [k, v.count])),
      non2xx: r.non2xx,
      errors: r.errors,
      timeouts: r.timeouts,
    },
  });
  process.disconnect();
}

// ---- analysis -----------------------------------------------------------------------------------

function analyse({ windows, measured, warm, heapReadings, memStart, memEnd, acResult }) {
  const problems = [];
  const sum = (f) => windows.reduce((a, w) => a + (f(w) ?? 0), 0);
  const worst = (f) => {
    const v = windows.map(f).filter(Number.isFinite);
    return v.length ? Math.max(...v) : null;
  };
  const med = (f) => median(windows.map(f));
  const runs = [warm, ...windows];
  const total = (f) => runs.reduce((a, r) => a + (f(r) ?? 0), 0);

  const errors = {
    mix: total((r) => r.httpErrors),
    autocannon: acResult ? (acResult.non2xx ?? 0) + (acResult.errors ?? 0) + (acResult.timeouts ?? 0) : 0,
  };
  const events = {
    delivered: (warm.eventsAll?.count ?? 0) + sum((w) => w.events.count),
    lost: total((r) => r.lost),
    duplicated: total((r) => r.duplicated),
    misdirected: total((r) => r.unexpected),
    wrongData: total((r) => r.wrongData),
    malformed: total((r) => r.malformed),
    unmatched: total((r) => r.unkeyed),
  };
  const socketsDown = Math.max(0, ...windows.map((w) => w.sockets.down));
  if (acResult?.failed) problems.push(acResult.failed);
  if (errors.mix) problems.push(`${errors.mix} HTTP errors in the product mix (warm-up included)`);
  if (errors.autocannon) problems.push(`${errors.autocannon} autocannon errors (non-2xx, errors, timeouts)`);
  const what = {
    lost: 'lost',
    duplicated: 'duplicated',
    misdirected: 'misdirected (at a socket that should not get them)',
    wrongData: 'with the wrong type or data',
    malformed: 'malformed',
    unmatched:
      'matching no write awaited (the late event of a write whose request failed, or a copy after its window)',
  };
  for (const [k, text] of Object.entries(what)) if (events[k]) problems.push(`${events[k]} events ${text}`);
  if (socketsDown) problems.push(`${socketsDown} sockets dropped`);
  const samples = runs.flatMap((r) => [...(r.badSamples ?? []), ...(r.samples ?? [])]).slice(0, 5);
  if (problems.length && samples.length) problems.push(`samples: ${samples.join(' | ')}`);

  // Memory: post-GC heap, first third against last third (medians), and its slope.
  const T = heapReadings.at(-1).t;
  const first = heapReadings.filter((h) => h.t <= T / 3);
  const last = heapReadings.filter((h) => h.t >= (2 * T) / 3);
  const heapFirst = median(first.map((h) => h.heapUsed));
  const heapLast = median(last.map((h) => h.heapUsed));
  const heapGrowth = heapLast - heapFirst;
  const heapLimit = Math.max(opts.heapLimitMb * MB, (opts.heapLimitPct / 100) * heapFirst);
  const slope = slopePerMinute(heapReadings.map((h) => [h.t, h.heapUsed]));
  if (heapGrowth > heapLimit)
    problems.push(
      `post-GC heap grew ${mb(heapGrowth)} from the first to the last third (limit ${mb(heapLimit)}): a leak?`,
    );
  const third = Math.ceil(windows.length / 3);
  const rssFirst = median(windows.slice(0, third).map((w) => w.rss));
  const rssLast = median(windows.slice(-third).map((w) => w.rss));

  const requests = sum((w) => w.requests);
  // Held: each window's requests answered within 5 % of its sending time (a queue that keeps
  // growing shows as windows that fall behind). Reported, not failed: neighbours on a shared
  // machine can cause it; errors and losses are what fail a soak.
  const behind = windows.filter((w) => w.achievedRate < 0.95 * opts.rate).length;
  const sendingSeconds = sum((w) => w.requests / w.achievedRate);
  return {
    problems,
    requests: {
      mix: requests,
      warmup: warm.requests,
      achievedRate: requests / sendingSeconds,
      windowsBehind: behind,
      status: mergeCounts(runs.map((r) => r.status)),
      autocannon: acResult,
    },
    errors,
    events,
    socketsDown,
    latency: {
      apiP50Median: med((w) => w.http.p50),
      apiP95Median: med((w) => w.http.p95),
      apiP99Median: med((w) => w.http.p99),
      apiP99Worst: worst((w) => w.http.p99),
      apiMax: worst((w) => w.http.max),
      eventP99Median: med((w) => w.events.p99),
      eventP99Worst: worst((w) => w.events.p99),
      eventMax: worst((w) => w.events.max),
    },
    eventLoopDelay: {
      p50Median: med((w) => w.eld?.p50),
      p99Median: med((w) => w.eld?.p99),
      p99Worst: worst((w) => w.eld?.p99),
      max: worst((w) => w.eld?.max),
      note: 'per window; the worst window p99 bounds the whole run p99 from above',
    },
    memory: {
      rssStart: memStart.rss,
      rssEnd: memEnd.rss,
      heapStart: memStart.heapUsed,
      heapEnd: memEnd.heapUsed,
      heapFirstThird: heapFirst,
      heapLastThird: heapLast,
      heapGrowth,
      heapLimit,
      heapSlopePerMinute: slope,
      rssSampledFirstThird: rssFirst,
      rssSampledLastThird: rssLast,
      rssSampledMin: Math.min(...windows.map((w) => w.rss)),
      rssSampledMax: Math.max(...windows.map((w) => w.rss)),
      readings: heapReadings.map((h) => ({
        t: h.t,
        heapUsed: h.heapUsed,
        heapTotal: h.heapTotal,
        rss: h.rss,
        external: h.external,
        arrayBuffers: h.arrayBuffers,
      })),
    },
    cpu: {
      appPerSecond: measured.cpu.server / measured.cpu.wall,
      dbPerSecond: measured.cpu.db / measured.cpu.wall,
      loadgenPerSecond: measured.cpu.load / measured.cpu.wall,
      appCoreBusy: measured.cpu.appCoreBusy,
      loadCoreBusy: measured.cpu.loadCoreBusy,
      appPerSecondFirstWindow: windows[0].appCpu,
      appPerSecondLastWindow: windows.at(-1).appCpu,
      loadCoreSaturated: measured.saturated,
    },
    lockWaits: measured.lockWaits,
    warmup: {
      requests: warm.requests,
      httpErrors: warm.httpErrors,
      apiP99: warm.httpAll?.p99,
      cpu: warm.cpu,
    },
    windows: windows.map(({ httpByLabel: _, ...w }) => w),
  };
}

/** Least-squares slope of [t seconds, bytes] points, in bytes per minute. */
function slopePerMinute(points) {
  if (points.length < 2) return 0;
  const n = points.length;
  const mt = points.reduce((a, [t]) => a + t, 0) / n;
  const mv = points.reduce((a, [, v]) => a + v, 0) / n;
  const num = points.reduce((a, [t, v]) => a + (t - mt) * (v - mv), 0);
  const den = points.reduce((a, [t]) => a + (t - mt) ** 2, 0);
  return den ? (num / den) * 60 : 0;
}

function mergeCounts(list) {
  const out = {};
  for (const counts of list) for (const [k, v] of Object.entries(counts ?? {})) out[k] = (out[k] ?? 0) + v;
  return out;
}

// ---- report -------------------------------------------------------------------------------------

function ms(v) {
  return typeof v === 'number' ? `${v >= 100 ? v.toFixed(0) : v.toPrecision(3)} ms` : '—';
}
function mb(bytes) {
  return typeof bytes === 'number' ? `${(bytes / MB).toFixed(1)} MB` : '—';
}
function pct(v) {
  return typeof v === 'number' ? `${(v * 100).toFixed(0)} %` : '—';
}
function signedMb(bytes) {
  return `${bytes >= 0 ? '+' : '−'}${mb(Math.abs(bytes))}`;
}
function int(v) {
  return typeof v === 'number' ? Math.round(v).toLocaleString('en-US') : '—';
}

function markdown(r) {
  const o = r.options;
  const when = r.startedAt.slice(0, 16).replace('T', ' ');
  const lines = [
    `### Soak (${o.minutes} min, ${when} UTC)`,
    '',
    `\`${r.command}\` · commit ${r.context.commit ?? '—'} · node ${r.context.node} · ${r.context.cores} cores · ` +
      `load average ${r.context.loadavg.join(' ')} before, ${r.contextAfter.loadavg.join(' ')} after · ` +
      `${r.seconds.toFixed(0)} s in all`,
    '',
    `${o.clients.toLocaleString('en-US')} users connected (${r.users.teachers} teachers, ${r.users.students} students; 5 on socket.io-client), ` +
      `${r.users.activeTeachers + r.users.activeStudents} active: the S8 product mix open loop at ${o.rate} req/s` +
      (o.acRate
        ? `, and autocannon at ${o.acRate} req/s (${o.acConnections} connections) on a student's GET /api/assignments`
        : '') +
      `, for ${o.minutes} min after ${o.warmup} s of warm-up. App on core ${APP_CORE}; load generator, autocannon and PostgreSQL backends on core ${LOAD_CORE}.`,
    '',
  ];
  if (!r.memory) {
    lines.push(`**Failed before measuring:**`, '', ...r.problems.map((p) => `- ${p}`), '');
    return lines.join('\n');
  }
  const m = r.memory;
  const e = r.events;
  const ok = (bad) => (bad ? '✗' : '✓');
  const growthPct = m.heapFirstThird ? (m.heapGrowth / m.heapFirstThird) * 100 : 0;
  lines.push(
    '| check | value | limit | |',
    '| --- | ---: | ---: | :-: |',
    `| HTTP errors (product mix, warm-up included) | ${r.errors.mix} | 0 | ${ok(r.errors.mix)} |`,
    `| HTTP errors (autocannon: non-2xx, errors, timeouts) | ${r.errors.autocannon} | 0 | ${ok(r.errors.autocannon)} |`,
    `| events lost / duplicated / misdirected | ${e.lost} / ${e.duplicated} / ${e.misdirected} | 0 | ${ok(e.lost + e.duplicated + e.misdirected)} |`,
    `| events with wrong data / malformed / unmatched | ${e.wrongData} / ${e.malformed} / ${e.unmatched} | 0 | ${ok(e.wrongData + e.malformed + e.unmatched)} |`,
    `| sockets dropped | ${r.socketsDown} | 0 | ${ok(r.socketsDown)} |`,
    `| post-GC heap growth, first → last third (medians) | ${signedMb(m.heapGrowth)} (${growthPct < 0 ? '−' : '+'}${Math.abs(growthPct).toFixed(1)} %) | ${mb(m.heapLimit)} | ${ok(m.heapGrowth > m.heapLimit)} |`,
    '',
    '| measure | value |',
    '| --- | ---: |',
    `| product-mix requests (achieved rate) | ${int(r.requests.mix)} (${r.requests.achievedRate.toFixed(1)} req/s) |`,
    ...(r.requests.autocannon && !r.requests.autocannon.failed
      ? [
          `| autocannon requests (rate); latency p50 / p99 / max | ${int(r.requests.autocannon.requests)} (${r.requests.autocannon.rps.toFixed(1)} req/s); ${ms(r.requests.autocannon.latency.p50)} / ${ms(r.requests.autocannon.latency.p99)} / ${ms(r.requests.autocannon.latency.max)} |`,
        ]
      : []),
    `| windows that fell behind (achieved < 95 % of ${o.rate} req/s) | ${r.requests.windowsBehind} of ${r.windows.length} |`,
    `| live events delivered | ${int(e.delivered)} |`,
    `| API latency p50 / p95 / p99, median window | ${ms(r.latency.apiP50Median)} / ${ms(r.latency.apiP95Median)} / ${ms(r.latency.apiP99Median)} |`,
    `| API latency p99 worst window; max | ${ms(r.latency.apiP99Worst)}; ${ms(r.latency.apiMax)} |`,
    `| event latency p99 median window; worst window; max | ${ms(r.latency.eventP99Median)}; ${ms(r.latency.eventP99Worst)}; ${ms(r.latency.eventMax)} |`,
    `| **event-loop delay p99** (worst ${o.window}-s window; median window) | **${ms(r.eventLoopDelay.p99Worst)}** (${ms(r.eventLoopDelay.p99Median)}) |`,
    `| **event-loop delay max** | **${ms(r.eventLoopDelay.max)}** |`,
    `| **RSS start → end** (after forced GC) | **${mb(m.rssStart)} → ${mb(m.rssEnd)}** (${signedMb(m.rssEnd - m.rssStart)}) |`,
    `| RSS sampled each window: first third → last third (medians); min–max | ${mb(m.rssSampledFirstThird)} → ${mb(m.rssSampledLastThird)}; ${mb(m.rssSampledMin)}–${mb(m.rssSampledMax)} |`,
    `| **heap used start → end** (after forced GC) | **${mb(m.heapStart)} → ${mb(m.heapEnd)}** (${signedMb(m.heapEnd - m.heapStart)}) |`,
    `| post-GC heap trend (least squares over ${m.readings.length} readings) | ${signedMb(m.heapSlopePerMinute)}/min |`,
    `| app CPU per second (core ${APP_CORE}): whole run; first → last window | ${r.cpu.appPerSecond.toFixed(2)}; ${r.cpu.appPerSecondFirstWindow.toFixed(2)} → ${r.cpu.appPerSecondLastWindow.toFixed(2)} |`,
    `| PostgreSQL backends CPU per second; load generator CPU per second | ${r.cpu.dbPerSecond.toFixed(2)}; ${r.cpu.loadgenPerSecond.toFixed(2)} |`,
    `| core ${APP_CORE} / core ${LOAD_CORE} busy (everything on the machine) | ${pct(r.cpu.appCoreBusy)} / ${pct(r.cpu.loadCoreBusy)}${r.cpu.loadCoreSaturated ? ' (load core saturated)' : ''} |`,
    '',
  );
  if (r.problems.length) lines.push('**Problems:**', '', ...r.problems.map((p) => `- ${p}`), '');
  lines.push(
    '- Each window sends its share of the mix open loop, then waits for its events (up to 3 s) to count losses, so the load pauses for a fraction of a second between windows; the forced GCs of the heap readings run in those pauses, outside the event-loop delay recording (autocannon runs on throughout, so its maximum latency includes them).',
    '- Event-loop delay is recorded per window (monitorEventLoopDelay, 1 ms resolution); the worst window p99 is an upper bound of the whole run p99.',
    `- Rate: S8 on a quiet machine used 0.81 of the app core at 330 req/s (about 2.5 ms of app CPU per request, bench-full.md), so ${o.rate} + ${o.acRate} req/s needs about ${(((o.rate + o.acRate) * 2.46) / 1000).toFixed(2)} of it, leaving the rest for garbage collection, the growing data and neighbours on a shared machine.`,
    '- The data grows as in use: a new assignment every 5 s (the students list grows by one) and every submission stays, so later windows do more work per request.',
    '',
    `<details><summary>Per window (${r.windows.length} × ${o.window} s)</summary>`,
    '',
    `| t (s) | requests | req/s | errors | API p95 | API p99 | events | lost | dup | event p99 | ELD p99 | ELD max | app CPU | core ${APP_CORE} busy | RSS | heap (post-GC) |`,
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...r.windows.map(
      (w) =>
        `| ${w.t.toFixed(0)} | ${w.requests} | ${w.achievedRate.toFixed(0)} | ${w.httpErrors} | ${ms(w.http.p95)} | ${ms(w.http.p99)} | ${w.events.count ?? 0} | ${w.lost} | ${w.duplicated} | ${ms(w.events.p99)} | ${ms(w.eld?.p99)} | ${ms(w.eld?.max)} | ${pct(w.appCpu)} | ${pct(w.appCoreBusy)} | ${mb(w.rss)} | ${w.heapUsed ? mb(w.heapUsed) : ''} |`,
    ),
    '',
    '</details>',
    '',
  );
  return lines.join('\n');
}
