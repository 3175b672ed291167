import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, PASSWORD, uniqueEmail, type TestApp } from '../test/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    rateLimits: { signIn: { max: 3, timeWindow: 60_000 }, signUp: { max: 2, timeWindow: 60_000 } },
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
