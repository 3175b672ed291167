import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Session } from '@classwave/shared';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp, type AppOptions } from '../../src/app.js';
import type { Clock } from '../../src/clock.js';
import { loadConfig, type Config } from '../../src/config.js';
import { openDatabase, type Database } from '../../src/db/client.js';
import { databaseUrlWithName } from './global-setup.js';
import { linkIn, MailCatcher } from './mail-catcher.js';

export const TEST_ORIGIN = 'http://localhost:5173';
export const TEST_SECRET = 'test-secret-that-is-long-enough-for-hs256-signing';

/** A clock the test moves by hand. */
export class TestClock implements Clock {
  private offsetMs = 0;
  /** Set by freezeAt: the clock stands still there (advance still moves it). */
  private frozenMs: number | undefined;
  now(): Date {
    return new Date(this.frozenMs ?? Date.now() + this.offsetMs);
  }
  advance(ms: number): void {
    if (this.frozenMs !== undefined) this.frozenMs += ms;
    else this.offsetMs += ms;
  }
  /** Stops the clock at `at`, for a test that needs an exact instant (e.g. the due second). */
  freezeAt(at: Date): void {
    this.frozenMs = at.getTime();
  }
}

let templateBlob: Blob | undefined;

/**
 * A fresh database for one test app: a copy of the migrated template, on PGlite or the PostgreSQL
 * server. PGlite keeps it in memory, or in `dataDir` when given (for another process to open after
 * this one closes it).
 */
export async function openTestDatabase(
  options: { dataDir?: string } = {},
): Promise<Database & { dispose(): Promise<void>; url?: string }> {
  const url = process.env.DATABASE_URL;
  const template = inject('postgresTemplate');
  if (url && template) {
    const name = `${template}_${randomUUID().slice(0, 8)}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    // Copies made at the same moment from one template can collide; try again briefly.
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`create database "${name}" template "${template}"`);
        break;
      } catch (error) {
        if (attempt >= 10) throw error;
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
      }
    }
    const copyUrl = databaseUrlWithName(url, name);
    const database = await openDatabase({ url: copyUrl, poolSize: 5 });
    return Object.assign(database, {
      /** For another process (a child) to reach the same database. */
      url: copyUrl,
      async dispose() {
        await database.close();
        await admin.query(`drop database if exists "${name}" with (force)`);
        await admin.end();
      },
    });
  }
  templateBlob ??= new Blob([readFileSync(inject('pgliteTemplate'))]);
  const database = await openDatabase({ loadDataDir: templateBlob, dataDir: options.dataDir });
  return Object.assign(database, { dispose: () => database.close() });
}

export interface TestApp {
  app: FastifyInstance;
  mail: MailCatcher;
  clock: TestClock;
  config: Config;
  close(): Promise<void>;
}

/** Builds the real app on a fresh database with a real SMTP catcher and a movable clock. */
export async function createTestApp(
  options: Omit<AppOptions, 'clock'> & {
    env?: Record<string, string>;
    config?: Partial<Config>;
  } = {},
): Promise<TestApp> {
  const mail = await new MailCatcher().start();
  const clock = new TestClock();
  // A database passed in (several server instances over one database) belongs to the caller.
  const database = options.database
    ? Object.assign(Object.create(options.database) as Database, { dispose: async () => {} })
    : await openTestDatabase();
  const config = loadConfig(
    {
      NODE_ENV: 'test',
      APP_ORIGIN: TEST_ORIGIN,
      SMTP_URL: mail.url,
      DATA_DIR: path.join(tmpdir(), 'classwave-unused'),
      // Timed jobs run when a test says so (app.core.jobs.runDue()), or with JOB_POLL_MS given.
      JOB_POLL_MS: '0',
      ...options.env,
    },
    { jwtSecret: TEST_SECRET, ...options.config },
  );
  const app = await buildApp(config, { ...options, database, clock, skipMigrations: true });
  await app.ready();
  return {
    app,
    mail,
    clock,
    config,
    async close() {
      await app.close();
      await database.dispose();
      await mail.stop();
    },
  };
}

let counter = 0;
/** An address no other test uses. */
export const uniqueEmail = (name = 'user') => `${name}.${Date.now().toString(36)}.${++counter}@school.test`;

export const PASSWORD = 'correct horse battery';

/** Signs up, follows the mailed link and returns the address; the account is ready to sign in. */
export async function createVerifiedUser(
  t: TestApp,
  input: { role?: 'student' | 'teacher'; fullName?: string; email?: string } = {},
): Promise<{ email: string; password: string }> {
  const email = input.email ?? uniqueEmail(input.role ?? 'student');
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/signup',
    payload: {
      email,
      password: PASSWORD,
      fullName: input.fullName ?? 'Test Person',
      role: input.role ?? 'student',
    },
  });
  if (res.statusCode !== 200) throw new Error(`sign-up failed: ${res.statusCode} ${res.body}`);
  const link = new URL(linkIn(await t.mail.latestTo(email)));
  const verified = await t.app.inject({ method: 'GET', url: link.pathname + link.search });
  if (verified.statusCode !== 302 || !String(verified.headers.location).includes('verified=1')) {
    throw new Error(`verification failed: ${verified.statusCode} ${String(verified.headers.location)}`);
  }
  return { email, password: PASSWORD };
}

/** The refresh cookie a response set, as a Cookie header value. */
export function refreshCookieOf(res: LightMyRequestResponse): string {
  const cookie = res.cookies.find((c) => c.name === 'classwave_refresh');
  if (!cookie) throw new Error('no refresh cookie was set');
  return `classwave_refresh=${cookie.value}`;
}

/** Signs in and returns the access token and the refresh cookie. */
export async function signIn(t: TestApp, email: string, password = PASSWORD) {
  const res = await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email, password } });
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
  const body = res.json<{ session: Session }>();
  return { accessToken: body.session.accessToken, cookie: refreshCookieOf(res), session: body.session };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
