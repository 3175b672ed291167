import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MailCatcher } from '../server/test/support/mail-catcher.js';
import { startServer } from './server.js';

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
    onMail: (mail) => {
      // Written under another name and renamed, so a journey's reader never parses half a mail.
      const name = path.join(mailDir, String(++count).padStart(5, '0'));
      writeFileSync(`${name}.part`, JSON.stringify(mail));
      renameSync(`${name}.part`, `${name}.json`);
    },
  }).start();

  const server = await startServer({ SMTP_URL: catcher.url });
  process.env.E2E_BASE_URL = server.baseUrl;
  process.env.E2E_MAIL_DIR = mailDir;
  // A journey that starts a server of its own (the drafts chaos) sends its mail to the same catcher.
  process.env.E2E_SMTP_URL = catcher.url;

  return async () => {
    await server.stop();
    await catcher.stop();
    rmSync(work, { recursive: true, force: true });
  };
}
