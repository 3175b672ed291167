import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MailCatcher } from '../server/src/test/mail-catcher.js';

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
 * Starts a real SMTP catcher (each mail written as JSON where test workers read it) and the built
 * server on a free port with a fresh data directory; returns the teardown.
 */
export default async function globalSetup() {
  const work = mkdtempSync(path.join(tmpdir(), 'classwave-e2e-'));
  const mailDir = path.join(work, 'mail');
  mkdirSync(mailDir);
  let count = 0;
  const catcher = await new MailCatcher({
    onMail: (mail) =>
      writeFileSync(path.join(mailDir, `${String(++count).padStart(5, '0')}.json`), JSON.stringify(mail)),
  }).start();

  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, [path.join(root, 'server/dist/main.js')], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_ORIGIN: baseUrl,
      DATA_DIR: path.join(work, 'data'),
      SMTP_URL: catcher.url,
      DATABASE_URL: '',
      REDIS_URL: '',
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
    if (Date.now() > deadline) throw new Error('the server did not become healthy within 60 s');
    await new Promise((r) => setTimeout(r, 250));
  }
  process.env.E2E_BASE_URL = baseUrl;
  process.env.E2E_MAIL_DIR = mailDir;

  return async () => {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    await catcher.stop();
    rmSync(work, { recursive: true, force: true });
  };
}
