import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/**
 * The undo window of a Return on the e2e servers (RETURN_UNDO_SECONDS, a test setting): the
 * product's 10 s, waited out by four journeys (twice by one), cost the suite half a minute; 6 s
 * still leaves a reload and its checks seconds to spare inside it.
 */
export const UNDO_WINDOW_SECONDS = 6;

/** A running built server on its own port and data directory. */
export interface E2EServer {
  baseUrl: string;
  stop(): Promise<void>;
}

/**
 * Starts the built server (server/dist/main.js) on a free loopback port with a fresh data
 * directory and waits until it is healthy. `env` adds to or overrides its environment (the drafts
 * chaos journey gives its own server short-lived access tokens).
 */
export async function startServer(env: Record<string, string>): Promise<E2EServer> {
  const work = mkdtempSync(path.join(tmpdir(), 'classwave-e2e-server-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const server: ChildProcess = spawn(process.execPath, [path.join(root, 'server/dist/main.js')], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_ORIGIN: baseUrl,
      DATA_DIR: path.join(work, 'data'),
      DATABASE_URL: '',
      REDIS_URL: '',
      // Every journey signs people up from 127.0.0.1: the whole suite is one school behind one address.
      PER_IP_LIMIT_SCALE: '10',
      RETURN_UNDO_SECONDS: String(UNDO_WINDOW_SECONDS),
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (server.exitCode !== null)
      throw new Error(`the server exited with code ${server.exitCode} before it was ready`);
    try {
      const res = await fetch(`${baseUrl}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      server.kill('SIGKILL');
      throw new Error('the server did not become healthy within 60 s');
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    baseUrl,
    async stop() {
      if (server.exitCode === null) {
        server.kill('SIGTERM');
        await new Promise((r) => server.once('exit', r));
      }
      rmSync(work, { recursive: true, force: true });
    },
  };
}
