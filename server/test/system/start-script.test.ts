/**
 * `npm start` (scripts/start.mjs) from the outside: it builds what is stale, runs the server as its
 * child, and stopping it must never leave a server holding the port.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../reliability/child-server.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const cleanups: Array<() => void> = [];
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

/** The pids of a process's direct children (Linux /proc). */
function childrenOf(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
    readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
  );
}

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const portIsFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });

async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Runs `node scripts/start.mjs` on a free port and waits until the server answers. */
async function startApp(): Promise<{ start: ChildProcess; serverPid: number; port: number }> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'classwave-start-'));
  const start = spawn(process.execPath, [path.join(repoRoot, 'scripts/start.mjs')], {
    cwd: repoRoot,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_ORIGIN: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
    },
    stdio: 'ignore',
  });
  cleanups.push(() => {
    if (start.exitCode === null) start.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });
  await until(
    () =>
      fetch(`http://127.0.0.1:${port}/api/health`).then(
        (r) => r.ok,
        () => false,
      ),
    'the server to answer',
  );
  const serverPid = childrenOf(start.pid!).find((pid) =>
    readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('server/dist/main.js'),
  );
  if (!serverPid) throw new Error('npm start runs no server child');
  cleanups.push(() => {
    if (isRunning(serverPid)) process.kill(serverPid, 'SIGKILL');
  });
  return { start, serverPid, port };
}

const exitOf = (child: ChildProcess) =>
  new Promise<number | null>((resolve) =>
    child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code)),
  );

describe('npm start', { timeout: 180_000 }, () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'passes %s on to the server, which shuts down and frees the port',
    async (signal) => {
      const { start, serverPid, port } = await startApp();
      start.kill(signal);
      expect(await exitOf(start)).toBe(0); // the server's own exit code: a graceful shutdown
      expect(isRunning(serverPid)).toBe(false);
      expect(await portIsFree(port)).toBe(true);
    },
  );

  it('leaves no server behind when it is killed outright (SIGKILL cannot be forwarded)', async () => {
    const { start, serverPid, port } = await startApp();
    start.kill('SIGKILL');
    await exitOf(start);
    await until(() => !isRunning(serverPid), 'the orphaned server to stop', 15_000);
    expect(await portIsFree(port)).toBe(true);
  });
});
