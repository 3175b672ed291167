import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  t = await createTestApp({
    rateLimits: { signIn: { max: 3, timeWindow: 60_000 }, signUpPerIp: { max: 2, timeWindow: 60_000 } },
  });
});
afterAll(() => t.close());

describe('rate limits', () => {
  it('answers 429 with Retry-After once sign-in attempts for an address exceed the limit', async () => {
    const email = uniqueEmail();
    const attempt = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/signin',
        payload: { email, password: 'wrong password' },
      });
    for (let i = 0; i < 3; i++) expect((await attempt()).statusCode).toBe(400);
    const limited = await attempt();
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json()).toMatchObject({
      statusCode: 429,
      code: 'rate_limited',
      error: 'Too Many Requests',
    });
    // Another address from the same place is still let through: a class can sign in together.
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signin',
      payload: { email: uniqueEmail(), password: PASSWORD },
    });
    expect(other.statusCode).toBe(400);
  });

  it('is not bypassed by a forged X-Forwarded-For when no proxy is trusted', async () => {
    const signup = (i: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/signup',
        headers: { 'x-forwarded-for': `203.0.113.${i}` },
        payload: { email: uniqueEmail(), password: PASSWORD, fullName: 'Flood' },
      });
    expect((await signup(1)).statusCode).toBe(200);
    expect((await signup(2)).statusCode).toBe(200);
    const third = await signup(3);
    expect(third.statusCode).toBe(429);
    expect(third.headers['retry-after']).toBeDefined();
  });
});

describe('rate limits with the default budgets', () => {
  let d: TestApp;
  beforeAll(async () => {
    d = await createTestApp();
  });
  afterAll(() => d.close());

  it('lets a class of 40 sign up and sign in for the first time from one school address', async () => {
    const emails = Array.from({ length: 40 }, (_, i) => uniqueEmail(`pupil${i}`));
    for (const email of emails) {
      const res = await d.app.inject({
        method: 'POST',
        url: '/api/auth/signup',
        payload: { email, password: PASSWORD, fullName: 'Pupil' },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    for (const email of emails) {
      const link = new URL(linkIn(await d.mail.latestTo(email)));
      await d.app.inject({ method: 'GET', url: link.pathname + link.search });
      const res = await d.app.inject({
        method: 'POST',
        url: '/api/auth/signin',
        payload: { email, password: PASSWORD },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
  });

  it('stops the sixth wrong password on one account, in minutes, without locking out the others', async () => {
    const victim = await createVerifiedUser(d);
    const classmate = await createVerifiedUser(d);
    const guess = () =>
      d.app.inject({
        method: 'POST',
        url: '/api/auth/signin',
        payload: { email: victim.email, password: 'a wrong guess' },
      });
    for (let i = 0; i < 5; i++) expect((await guess()).statusCode).toBe(400);
    const limited = await guess();
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toMatch(/^Too many attempts\. Please try again in (10|9) minutes\.$/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(500);
    const other = await d.app.inject({
      method: 'POST',
      url: '/api/auth/signin',
      payload: { email: classmate.email, password: PASSWORD },
    });
    expect(other.statusCode).toBe(200);
  });
});

describe('PER_IP_LIMIT_SCALE', () => {
  it('raises the per-address limits for a school behind one address', async () => {
    const scaled = await createTestApp({ config: { perIpLimitScale: 2 } });
    try {
      const refresh = () => scaled.app.inject({ method: 'POST', url: '/api/auth/refresh' });
      // Refresh is 120 a minute per address by default; twice that here.
      for (let i = 0; i < 240; i++) expect((await refresh()).statusCode).not.toBe(429);
      expect((await refresh()).statusCode).toBe(429);
    } finally {
      await scaled.close();
    }
  });
});
