/**
 * A real crash of the scheduler: job-runner processes (test/job-child.ts, the server's own runner)
 * on one database — PostgreSQL when DATABASE_URL is set, PGlite in a directory otherwise — killed
 * with SIGKILL while they hold a claimed job, and the next process (another child, then this one)
 * running it. A reminder is
 * delivered exactly once; its e-mail at least once, a repeat carrying the same Message-ID.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db/client.js';
import { events, jobs, notifications } from '../db/schema.js';
import { createTestApp, openTestDatabase } from '../../test/support/app.js';
import {
  createAssignment,
  createCourse,
  createStudent,
  createTeacher,
  joinCourse,
} from '../../test/support/factories.js';
import { MailCatcher } from '../../test/support/mail-catcher.js';
import { createMailer } from '../auth/mailer.js';
import { systemClock } from '../clock.js';
import { jobKeys } from './reminders.js';
import { otherProcessJobs } from '../../test/support/jobs.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const childScript = path.join(repoRoot, 'server/test/support/job-child.ts');
const HOUR = 3600_000;

const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * Runs the job runner in a child process until no job is due, or — with `hold` — until it holds a
 * claimed job of that kind, which it is then killed in. Resolves with what it printed.
 */
function runChild(env: Record<string, string>, hold?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--conditions=classwave-source', '--import', 'tsx', childScript], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH, NODE_ENV: 'test', ...env, ...(hold ? { HOLD: hold } : {}) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    cleanups.push(() => void (child.exitCode === null && child.signalCode === null && child.kill('SIGKILL')));
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      // Mid-transaction, its job claimed: killed outright, no shutdown hook, no rollback of its own.
      if (hold && out.includes(`holding ${hold}:`)) child.kill('SIGKILL');
    });
    child.stderr.on('data', (chunk: Buffer) => void (err += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (hold ? signal === 'SIGKILL' && out.includes('holding') : code === 0) resolve(out);
      else reject(new Error(`job child (hold ${hold ?? 'none'}) exited ${code ?? signal}:\n${out}\n${err}`));
    });
  });
}

describe('a scheduler process killed with SIGKILL while it holds a claimed job', () => {
  it(
    'leaves the reminder to the next process, which delivers it exactly once; the e-mail comes again with its Message-ID',
    { timeout: 60_000 },
    async () => {
      const started = Date.now();
      const dataDir = mkdtempSync(path.join(tmpdir(), 'classwave-crash-'));
      cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
      const mail = await new MailCatcher().start();
      cleanups.push(() => mail.stop());

      // The data, made through the API: a student who wants e-mail, an assignment due within 24 h.
      const database = await openTestDatabase({ dataDir });
      const t = await createTestApp({ database });
      const teacher = await createTeacher(t);
      const course = await createCourse(t, teacher);
      const student = await createStudent(t);
      await joinCourse(t, student, course);
      const settings = await t.app.inject({
        method: 'PUT',
        url: '/api/me/notification-settings',
        headers: student.headers,
        payload: {
          quietHours: { enabled: false, start: '21:00', end: '07:00', timeZone: 'UTC' },
          email: true,
        },
      });
      expect(settings.statusCode).toBe(200);
      const assignment = await createAssignment(t, teacher, course, {
        title: 'Crash course',
        dueDate: new Date(Date.now() + 10 * HOUR).toISOString(),
      });
      await t.close();
      // PGlite is one process's at a time: the children open the directory after this one lets go.
      if (database.kind === 'pglite') await database.dispose();
      else cleanups.push(() => database.dispose());

      const env = {
        ...(database.url ? { DATABASE_URL: database.url } : { DATA_DIR: dataDir }),
        SMTP_URL: mail.url,
        APP_ORIGIN: 'http://localhost:5173',
      };
      /**
       * PostgreSQL ends a killed client's transaction when it sees the connection close, a moment
       * later: until then SKIP LOCKED passes its job by, as it should. Wait for that before the next
       * process looks (PGlite died with its process).
       */
      const released = async (key: string) => {
        if (database.kind === 'pglite') return;
        for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
          const free = await database.db.transaction((tx) =>
            tx.select().from(jobs).where(eq(jobs.key, key)).for('update', { skipLocked: true }),
          );
          if (free.length > 0) return;
          await new Promise((r) => setTimeout(r, 50));
        }
        throw new Error(`${key} stayed locked`);
      };

      // 1: killed inside the reminder's transaction, its notification written but not committed.
      const dueSoon = jobKeys.dueSoon(assignment.id);
      expect(await runChild(env, 'due_soon')).toContain(`holding ${dueSoon}`);
      await released(dueSoon);
      // 2: runs the reminder in full, then is killed after sending its e-mail, before that commits.
      const held = /holding (email:\S+)/.exec(await runChild(env, 'email'));
      expect(held).not.toBeNull();
      await released(held![1]!);
      // 3: this process finds the e-mail job still pending, and sends it again.
      const check: Database = database.kind === 'pglite' ? await openDatabase({ dataDir }) : database;
      if (check !== database) cleanups.push(() => check.close());
      const log = t.app.log;
      const runner = otherProcessJobs({
        db: check.db,
        clock: systemClock,
        mailer: createMailer({ smtpUrl: mail.url, from: 'Classwave <no-reply@classwave.test>', log }),
        appOrigin: env.APP_ORIGIN,
        log,
      });
      expect(await runner.runDue()).toBeGreaterThan(0);

      const reminders = await check.db
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, student.id), eq(notifications.kind, 'due_soon')));
      expect(reminders).toHaveLength(1);
      const [sent] = await check.db
        .select({ n: sql<number>`count(*)::int` })
        .from(events)
        .where(
          and(eq(events.type, 'notification:created'), sql`${events.data}->>'id' = ${reminders[0]!.id}`),
        );
      expect(sent!.n).toBe(1);
      const jobRows = await check.db.select().from(jobs);
      const jobOf = (key: string) => jobRows.find((j) => j.key === key);
      // Killed, not failed: no attempt was counted, and each job is done.
      expect(jobOf(jobKeys.dueSoon(assignment.id))).toMatchObject({ attempts: 0, doneAt: expect.any(Date) });
      expect(jobOf(jobKeys.email(reminders[0]!.id))).toMatchObject({ attempts: 0, doneAt: expect.any(Date) });

      const mails = mail.mails.filter((m) => m.to === student.email && m.subject.startsWith('Due soon'));
      expect(mails).toHaveLength(2);
      expect(mails[0]!.messageId).toMatch(
        new RegExp(`^<notification-${reminders[0]!.id}\\.\\d+@localhost>$`),
      );
      expect(mails[1]!.messageId).toBe(mails[0]!.messageId);
      console.info(`scheduler crash test (${check.kind}): ${Date.now() - started} ms`);
    },
  );
});
