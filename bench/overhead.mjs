#!/usr/bin/env node
// Per-request overhead, before and after: two builds of the server, each pinned to core 1 with the
// embedded database and LOG_LEVEL=info (logs to /dev/null), measured with autocannon from this
// process in interleaved rounds, so both see the same machine noise.
//
//   taskset -c 0 node bench/overhead.mjs <before: server dist dir> <after: server dist dir> [--rounds N]
//
// A dist dir must sit beside server/dist (e.g. server/dist-before) so it resolves the same modules.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';

const [beforeDir, afterDir] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const roundsArg = process.argv.indexOf('--rounds');
const rounds = roundsArg > 0 ? Number(process.argv[roundsArg + 1]) : 3;
if (!beforeDir || !afterDir) throw new Error('usage: node bench/overhead.mjs <before dist> <after dist>');

const root = path.resolve(import.meta.dirname, '..');
const asset = readdirSync(path.join(root, 'client/dist/assets')).find((f) => /^index-.*\.js$/.test(f));

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

async function start(distDir) {
  const work = mkdtempSync(path.join(tmpdir(), 'classwave-overhead-'));
  mkdirSync(path.join(work, 'data'));
  const port = await freePort();
  const child = spawn('taskset', ['-c', '1', process.execPath, path.resolve(distDir, 'main.js')], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      JWT_SECRET: randomBytes(48).toString('base64'),
      LOG_LEVEL: 'info',
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_ORIGIN: `http://127.0.0.1:${port}`,
      DATA_DIR: path.join(work, 'data'),
      DATABASE_URL: '',
      REDIS_URL: '',
      WORKERS: '',
      // Production asks for a teacher invite code by default; nobody signs up here.
      TEACHER_SIGNUP: 'open',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let exited = false;
  child.once('exit', () => (exited = true));
  const url = `http://127.0.0.1:${port}`;
  while (
    !exited &&
    !(await fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    ))
  )
    await new Promise((r) => setTimeout(r, 200));
  if (exited) throw new Error(`${distDir}/main.js exited before it answered (its errors are above)`);
  return {
    url,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      rmSync(work, { recursive: true, force: true });
    },
  };
}

const load = (url, seconds) =>
  autocannon({ url, connections: 10, duration: seconds, headers: { 'accept-encoding': 'br, gzip' } });

const targets = { 'GET /api/health': '/api/health', [`GET /assets/index.js (br)`]: `/assets/${asset}` };
const results = { before: {}, after: {} };
for (let round = 0; round < rounds; round++) {
  // Alternate which build goes first, so neither always gets the quieter half of a round.
  const order = round % 2 === 0 ? ['before', 'after'] : ['after', 'before'];
  for (const variant of order) {
    const server = await start(variant === 'before' ? beforeDir : afterDir);
    for (const [name, route] of Object.entries(targets)) {
      await load(server.url + route, 2); // warm-up
      const r = await load(server.url + route, 5);
      if (r.non2xx || r.errors)
        throw new Error(`${variant} ${name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
      (results[variant][name] ??= []).push(r.requests.average);
      console.log(`round ${round + 1} ${variant} ${name}: ${Math.round(r.requests.average)} req/s`);
    }
    await server.stop();
  }
}

const median = (v) => [...v].sort((a, b) => a - b)[Math.floor((v.length - 1) / 2)];
console.log('\n| route | before (req/s) | after (req/s) | after ÷ before |\n| --- | ---: | ---: | ---: |');
for (const name of Object.keys(targets)) {
  const b = median(results.before[name]);
  const a = median(results.after[name]);
  console.log(`| ${name} | ${Math.round(b)} | ${Math.round(a)} | ${(a / b).toFixed(2)} |`);
}
