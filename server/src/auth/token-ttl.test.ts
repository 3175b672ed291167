import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, createVerifiedUser, signIn, type TestApp } from '../../test/support/app.js';

/** ACCESS_TOKEN_TTL: how long an access token lives (the chaos e2e uses seconds to watch sessions expire). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { ACCESS_TOKEN_TTL: '30' } });
});
afterAll(() => t.close());

describe('ACCESS_TOKEN_TTL', () => {
  it('sets the lifetime of access tokens: accepted before it, token_expired after', async () => {
    const { email } = await createVerifiedUser(t);
    const { session, accessToken } = await signIn(t, email);
    expect(session.expiresIn).toBe(30);
    const me = () => t.app.inject({ method: 'GET', url: '/api/me', headers: bearer(accessToken) });
    expect((await me()).statusCode).toBe(200);
    t.clock.advance(31_000);
    try {
      const late = await me();
      expect(late.statusCode).toBe(401);
      expect(late.json().code).toBe('token_expired');
    } finally {
      t.clock.advance(-31_000);
    }
  });
});
