import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../db/schema.js';
import { linkIn } from '../../test/support/mail-catcher.js';
import {
  createTestApp,
  createVerifiedUser,
  PASSWORD,
  uniqueEmail,
  type TestApp,
} from '../../test/support/app.js';

let t: TestApp;
beforeAll(async () => {
  // Limits high enough that this file's many requests are judged on their input alone.
  const roomy = { max: 10_000, timeWindow: 60_000 };
  t = await createTestApp({ rateLimits: { signUp: roomy, signIn: roomy, resend: roomy, refresh: roomy } });
});
afterAll(() => t.close());

const valid: Record<string, object> = {
  '/api/auth/signup': {
    email: 'someone@school.test',
    password: PASSWORD,
    fullName: 'Some One',
    role: 'student',
  },
  '/api/auth/signin': { email: 'someone@school.test', password: PASSWORD },
  '/api/auth/resend': { email: 'someone@school.test' },
};

interface Case {
  name: string;
  body: string;
  contentType?: string;
  status: number;
  code: string;
  /** Words the message must contain, so the client learns which field was wrong. */
  mentions?: string;
}

const casesFor = (url: string): Case[] => {
  const good = valid[url]!;
  const required = Object.keys(good).filter((k) => k !== 'role');
  return [
    { name: 'malformed JSON', body: '{"email": ', status: 400, code: 'invalid_json' },
    { name: 'a JSON array', body: '[]', status: 400, code: 'validation_failed' },
    { name: 'JSON null', body: 'null', status: 400, code: 'validation_failed' },
    { name: 'an empty body', body: '', status: 400, code: 'invalid_json' },
    ...required.map((field) => {
      const { [field]: _omitted, ...rest } = good as Record<string, unknown>;
      return {
        name: `missing ${field}`,
        body: JSON.stringify(rest),
        status: 400,
        code: 'validation_failed',
        mentions: field,
      };
    }),
    ...required.map((field) => ({
      name: `${field} of the wrong type`,
      body: JSON.stringify({ ...good, [field]: 12345 }),
      status: 400,
      code: 'validation_failed',
      mentions: field,
    })),
    {
      name: 'an unknown field',
      body: JSON.stringify({ ...good, isAdmin: true }),
      status: 400,
      code: 'validation_failed',
      mentions: 'isAdmin',
    },
    {
      name: 'a __proto__ key',
      body: `{"__proto__": {"role": "teacher"}, ${JSON.stringify(good).slice(1)}`,
      status: 400,
      code: 'validation_failed',
    },
    {
      name: 'a constructor.prototype key',
      body: `{"constructor": {"prototype": {"x": 1}}, ${JSON.stringify(good).slice(1)}`,
      status: 400,
      code: 'validation_failed',
    },
    {
      name: 'an invalid e-mail',
      body: JSON.stringify({ ...good, email: 'not-an-email' }),
      status: 400,
      code: 'validation_failed',
      mentions: 'email',
    },
    {
      name: 'a huge e-mail',
      body: JSON.stringify({ ...good, email: `${'a'.repeat(300)}@school.test` }),
      status: 400,
      code: 'validation_failed',
      mentions: 'email',
    },
    {
      name: 'a body over the size limit',
      body: JSON.stringify({ ...good, padding: 'x'.repeat(300 * 1024) }),
      status: 413,
      code: 'payload_too_large',
    },
    {
      name: 'a form-encoded body',
      body: 'email=a%40b.c',
      contentType: 'application/x-www-form-urlencoded',
      status: 415,
      code: 'unsupported_media_type',
    },
    {
      name: 'a text body',
      body: JSON.stringify(good),
      contentType: 'text/plain',
      status: 415,
      code: 'unsupported_media_type',
    },
  ];
};

describe.each(Object.keys(valid))('POST %s with bad input', (url) => {
  it.each(casesFor(url))(
    'answers $name with $status $code',
    async ({ body, contentType, status, code, mentions }) => {
      const res = await t.app.inject({
        method: 'POST',
        url,
        body,
        headers: { 'content-type': contentType ?? 'application/json' },
      });
      expect(res.statusCode).toBe(status);
      const json = res.json();
      expect(json).toEqual({
        statusCode: status,
        code,
        error: expect.any(String),
        message: expect.any(String),
      });
      if (mentions) expect(json.message).toContain(mentions);
      expect(res.body).not.toMatch(/at .*\.(js|ts):\d+|stack|argon2|\$argon/);
    },
  );
});

describe('POST /api/auth/signup field rules', () => {
  it.each([
    ['a password of 7 characters', { password: 'short12' }, 'password'],
    ['a password of 129 characters', { password: 'p'.repeat(129) }, 'password'],
    ['a blank full name', { fullName: '   ' }, 'fullName'],
    ['an unknown role', { role: 'admin' }, 'role'],
  ])('refuses %s', async (_name, change, field) => {
    const email = uniqueEmail();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { ...valid['/api/auth/signup'], email, ...change },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(field);
    expect(t.mail.countTo(email)).toBe(0);
  });

  it('accepts a 128-character password in full: one character less does not sign in', async () => {
    const password = 'p'.repeat(127) + 'Q';
    const email = uniqueEmail();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { email, password, fullName: 'Long Pass' },
    });
    expect(res.statusCode).toBe(200);
    const link = new URL(linkIn(await t.mail.latestTo(email)));
    await t.app.inject({ method: 'GET', url: link.pathname + link.search });
    const truncated = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signin',
      payload: { email, password: password.slice(0, 127) },
    });
    expect(truncated.json().code).toBe('invalid_credentials');
    const full = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signin',
      payload: { email, password },
    });
    expect(full.statusCode).toBe(200);
  });

  it('keeps one account when the same address signs up twice at once', async () => {
    const email = uniqueEmail();
    const payload = { email, password: PASSWORD, fullName: 'Racer' };
    const results = await Promise.all(
      [1, 2, 3].map(() => t.app.inject({ method: 'POST', url: '/api/auth/signup', payload })),
    );
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    const accounts = await t.app.core.database.db.$count(users, sql`lower(${users.email}) = lower(${email})`);
    expect(accounts).toBe(1);
  });
});

describe('unsigned or odd requests to protected routes', () => {
  it.each([
    ['no header', {}],
    ['a Basic header', { authorization: 'Basic dXNlcjpwYXNz' }],
    ['an empty Bearer', { authorization: 'Bearer ' }],
    ['two tokens', { authorization: 'Bearer a b' }],
  ])('answers 401 for %s', async (_name, headers) => {
    const res = await t.app.inject({ method: 'GET', url: '/api/me', headers });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('unauthorized');
  });

  it('still serves a verified user afterwards', async () => {
    const { email } = await createVerifiedUser(t);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signin',
      payload: { email, password: PASSWORD },
    });
    expect(res.statusCode).toBe(200);
  });
});
