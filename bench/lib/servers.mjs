// Starting what is measured (the app, the baselines) on the app core and the load generator on the
// load core, and talking to them over IPC.
import net from 'node:net';
import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { APP_CORE, BENCH, LOAD_CORE, PROBE, ROOT, startNode, stop, waitForHttp } from './procs.mjs';
import { JWT_SECRET, pgUrl } from './db.mjs';

export async function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

let nextCall = 1;
/** Sends an IPC request and waits for the answer with the same id. */
function ipcCall(child, message, replyKey, timeoutMs) {
  const id = nextCall++;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.off('message', listen);
      reject(
        new Error(
          `${child.benchName}: no answer to ${JSON.stringify(message).slice(0, 80)} in ${timeoutMs} ms`,
        ),
      );
    }, timeoutMs);
    const listen = (reply) => {
      if (reply?.[replyKey] !== id) return;
      clearTimeout(timer);
      child.off('message', listen);
      if (reply.error) reject(new Error(`${child.benchName}: ${reply.error}`));
      else resolve(reply.value);
    };
    child.on('message', listen);
    child.send({ ...message, id });
  });
}

/** Asks a server started with the probe preload: 'mem', 'eld:start', 'eld:stop', 'snapshot' (with `path`). */
export const probe = (server, what, args = {}, timeoutMs = 30_000) =>
  ipcCall(server.child, { ...args, probe: what }, 'probeReply', timeoutMs);

/** The load generator, pinned to the load core. `call(cmd, args)` runs one of its commands. */
export async function startLoadgen() {
  const child = startNode(
    'loadgen',
    LOAD_CORE,
    ['--max-old-space-size=4096', path.join(BENCH, 'lib/loadgen.mjs')],
    { ipc: true },
  );
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`loadgen did not start:\n${child.output()}`)), 15_000);
    child.on('message', function ready(m) {
      if (!m?.ready) return;
      clearTimeout(timer);
      child.off('message', ready);
      resolve();
    });
    child.once('exit', () => reject(new Error(`loadgen exited:\n${child.output()}`)));
  });
  child.on('message', (m) => {
    if (m?.id === undefined && !m?.ready) process.stderr.write(`[loadgen] ${JSON.stringify(m)}\n`);
  });
  return {
    child,
    pid: child.pid,
    call: (cmd, args, timeoutMs = 600_000) => ipcCall(child, { cmd, args }, 'id', timeoutMs),
    stop: () => stop(child),
  };
}

/** node flags for every measured server: forced GC available to the probe, the probe preloaded. */
const serverFlags = (extra = []) => ['--expose-gc', '--import', PROBE, ...extra];

/**
 * The real app (server/dist/main.js) on the app core. `db` is { kind: 'postgres', name } or
 * { kind: 'pglite', dataDir }. Resolves once /api/health answers.
 */
export async function startApp({
  name = 'app',
  db,
  port,
  redisUrl,
  env = {},
  nodeFlags = [],
  core = APP_CORE,
}) {
  port ??= await freePort();
  const origin = `http://127.0.0.1:${port}`;
  // BENCH_APP_DIST: another build beside server/dist (e.g. server/dist-before), for before and after.
  const main = path.join(ROOT, process.env.BENCH_APP_DIST ?? 'server/dist', 'main.js');
  const child = startNode(name, core, [...serverFlags(nodeFlags), main], {
    ipc: true,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_ORIGIN: origin,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      JWT_SECRET,
      DATA_DIR: db.dataDir ?? path.join(os.tmpdir(), 'classwave-bench-unused'),
      DATABASE_URL: db.kind === 'postgres' ? pgUrl(db.name) : '',
      REDIS_URL: redisUrl ?? '',
      ...env,
    },
  });
  await waitForHttp(`${origin}/api/health`, child, 60_000);
  return { name, child, pid: child.pid, port, url: origin, stop: (graceMs) => stop(child, graceMs) };
}

/** A baseline server from bench/baselines/<kind>.mjs on the app core. */
export async function startBaseline(kind, { core = APP_CORE } = {}) {
  const port = await freePort();
  const child = startNode(
    `baseline:${kind}`,
    core,
    [...serverFlags(), path.join(BENCH, `baselines/${kind}.mjs`)],
    {
      ipc: true,
      env: { PORT: String(port) },
    },
  );
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/health`, child, 20_000);
  return { name: kind, child, pid: child.pid, port, url, stop: () => stop(child) };
}

/** A temporary directory removed by `cleanup()`. */
export function tempDir(prefix) {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
