#!/usr/bin/env node
// `npm run bench [-- --quick] [-- --only S1,S3] [-- --runs N] [-- --no-build] [-- --merge]`
// Measures the real app beside bare baselines in one run (app and baselines on core 0, the load
// generator on core 1), writes bench/results/bench-<mode>.{json,md}, and exits non-zero only when
// something is broken (errors, lost or duplicated events, failed connections), never for a slow figure.
import { execSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BENCH, ROOT } from './lib/procs.mjs';
import { startLoadgen } from './lib/servers.mjs';
import { formatted, machineContext, markdownReport } from './lib/report.mjs';
// In the order of the issue's priorities; each is loaded only when it runs.
const SCENARIOS = {
  S1: ['s1-http', 'runS1'],
  S2: ['s2-submissions', 'runS2'],
  S3: ['s3-fanout', 'runS3'],
  S5: ['s5-memory', 'runS5'],
  S4: ['s4-rooms', 'runS4'],
  S7: ['s7-redis', 'runS7'],
  S6: ['s6-restart', 'runS6'],
  S8: ['s8-product', 'runS8'],
  S8school: ['s8-school', 'runS8school'],
  S9: ['s9-workers', 'runS9'],
  S10uploads: ['s10-uploads', 'runS10uploads'],
  S11lessons: ['s11-lessons', 'runS11lessons'],
  S12posts: ['s12-posts', 'runS12posts'],
};

function parseArgs(argv) {
  const opts = { quick: false, only: null, runs: null, build: true, merge: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--quick') opts.quick = true;
    else if (a === '--no-build') opts.build = false;
    else if (a === '--merge') opts.merge = true;
    else if (a === '--only') opts.only = argv[++i].toUpperCase().split(',');
    else if (a === '--runs') opts.runs = Number(argv[++i]);
    else if (a === '--help' || a === '-h') {
      console.log(
        'npm run bench -- [--quick] [--only S1,S2,S8school,S10uploads,S11lessons,S12posts,...] [--runs N] [--no-build] [--merge]',
      );
      process.exit(0);
    } else throw new Error(`unknown argument ${a}`);
  }
  return opts;
}

const opts = parseArgs(process.argv.slice(2));
const mode = opts.quick ? 'quick' : 'full';
const runs = opts.runs ?? (opts.quick ? 1 : 5);
// Quick mode retries no saturated run: it proves the suite works, its figures are not the point.
process.env.BENCH_RETRIES ??= opts.quick ? '0' : '2';
// Nor does it warm up before measuring (a warm-up run steadies a figure; quick mode proves the harness).
process.env.BENCH_WARMUP ??= opts.quick ? '0' : '1';
// No retry starts after 7 minutes, so a noisy machine cannot push a full run far past its usual length.
process.env.BENCH_RETRY_UNTIL ??= String(Date.now() + 7 * 60_000);
const started = Date.now();
const log = (line) => console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s] ${line}`);

if (opts.build) {
  log('building server and shared (tsc -b)');
  execSync('npx tsc -b', { cwd: ROOT, stdio: 'inherit' });
}

const context = machineContext();
log(
  `load before start: ${context.loadavg.join(' ')}; busiest other processes: ${context.busiest.slice(0, 3).join('; ')}`,
);
const loadgen = await startLoadgen();
const results = {};
const broken = [];
const selected = Object.keys(SCENARIOS).filter((id) => !opts.only || opts.only.includes(id.toUpperCase()));
if (opts.only && selected.length < opts.only.length)
  throw new Error(
    `unknown scenario in --only ${opts.only.join(',')} (known: ${Object.keys(SCENARIOS).join(', ')})`,
  );
const stamp = `${process.pid}_${Date.now().toString(36)}`;
try {
  for (const id of selected) {
    log(`${id}`);
    const t0 = Date.now();
    try {
      const [file, fn] = SCENARIOS[id];
      const scenario = (await import(`./scenarios/${file}.mjs`))[fn];
      const result = await scenario({
        loadgen,
        quick: opts.quick,
        runs,
        log,
        dbName: `bench_${id.toLowerCase()}_${stamp}`,
      });
      result.seconds = (Date.now() - t0) / 1000;
      results[id] = result;
      broken.push(...(result.broken ?? []));
      for (const t of result.targets ?? [])
        log(
          `  ${t.met === null ? '—' : t.met ? 'met' : 'MISSED'}: ${t.name}: ${fmt(t.value)} (limit ${t.op} ${fmt(t.limit)})`,
        );
    } catch (error) {
      results[id] = { error: error.stack ?? String(error), seconds: (Date.now() - t0) / 1000 };
      broken.push(`${id} failed: ${error.message.split('\n')[0]}`);
      log(`  ${id} FAILED: ${error.stack}`);
    }
  }
} finally {
  await loadgen.stop();
}

const report = {
  mode,
  command: `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
  runs,
  startedAt: new Date(started).toISOString(),
  seconds: (Date.now() - started) / 1000,
  context,
  contextAfter: { loadavg: os.loadavg().map((x) => +x.toFixed(2)) },
  broken,
  results,
};
const out = path.join(BENCH, 'results');
mkdirSync(out, { recursive: true });
// --merge: the scenarios run here replace theirs in bench-<mode>.{json,md}, the others are kept
// from the run that wrote it, and the table's head names both runs.
const suffix = opts.only && !opts.merge ? `-${opts.only.join('').toLowerCase()}` : '';
const took = report.seconds;
if (opts.merge) mergeInto(report, path.join(out, `bench-${mode}.json`));
const jsonFile = path.join(out, `bench-${mode}${suffix}.json`);
writeFileSync(jsonFile, await formatted(JSON.stringify(report, null, 1), jsonFile));
const mdFile = path.join(out, `bench-${mode}${suffix}.md`);
const md = await formatted(markdownReport(report), mdFile);
writeFileSync(mdFile, md);
console.log(`\n${md}`);
log(`done in ${took.toFixed(0)} s; results in bench/results/bench-${mode}${suffix}.{json,md}`);
if (broken.length) {
  console.error(`\nBROKEN:\n- ${broken.join('\n- ')}`);
  process.exit(1);
}
process.exit(0);

/** Folds `report` (some scenarios) into the report in `file`, if there is one. */
function mergeInto(report, file) {
  if (!existsSync(file)) return;
  const before = JSON.parse(readFileSync(file, 'utf8'));
  const merged = {
    ...before,
    merges: [
      ...(before.merges ?? []),
      {
        command: report.command,
        scenarios: Object.keys(report.results),
        startedAt: report.startedAt,
        seconds: report.seconds,
        runs: report.runs,
        node: report.context.node,
        loadavg: report.context.loadavg,
        loadavgAfter: report.contextAfter.loadavg,
        commit: report.context.commit,
      },
    ],
    broken: [
      ...before.broken.filter(
        (b) => !Object.keys(report.results).some((id) => /^(\S+?):? /.exec(b)?.[1] === id),
      ),
      ...report.broken,
    ],
    results: { ...before.results },
  };
  // In the order of SCENARIOS, so a merged table reads as a whole run would.
  for (const id of Object.keys(SCENARIOS)) {
    if (report.results[id]) merged.results[id] = report.results[id];
  }
  merged.results = Object.fromEntries(
    Object.keys(SCENARIOS)
      .filter((id) => merged.results[id])
      .map((id) => [id, merged.results[id]]),
  );
  Object.assign(report, merged);
}

function fmt(v) {
  return typeof v === 'number' ? (Math.abs(v) >= 100 ? v.toFixed(0) : v.toPrecision(3)) : String(v);
}
