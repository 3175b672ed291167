import { createSigner } from 'fast-jwt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkIn, MailCatcher } from '../../test/support/mail-catcher.js';
import {
  bearer,
  createTestApp,
  createVerifiedUser,
  PASSWORD,
  refreshCookieOf,
  signIn,
  TEST_ORIGIN,
  TEST_SECRET,
  uniqueEmail,
  type TestApp,
} from '../../test/support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload: payload as object, headers });
const pathOf = (link: string) => {
  const url = new URL(link);
  return url.pathname + url.search;
};

describe('sign-up → verify → sign-in → refresh → sign-out', () => {
  it('walks the whole path with the real verification mail', async () => {
    const email = uniqueEmail('ada');
    const signup = await post('/api/auth/signup', {
      email,
      password: PASSWORD,
      fullName: 'Ada Lovelace',
      role: 'teacher',
      redirectTo: `${TEST_ORIGIN}/login`,
    });
    expect(signup.statusCode).toBe(200);
    expect(signup.json()).toEqual({ message: 'Check your e-mail for a verification link.' });

    const mail = await t.mail.latestTo(email);
    expect(mail.subject).toMatch(/confirm/i);
    const verify = await t.app.inject({ method: 'GET', url: pathOf(linkIn(mail)) });
    expect(verify.statusCode).toBe(302);
    expect(verify.headers.location).toBe(`${TEST_ORIGIN}/login?verified=1`);

    const signin = await post('/api/auth/signin', { email, password: PASSWORD });
    expect(signin.statusCode).toBe(200);
    const { session } = signin.json();
    expect(session).toMatchObject({ tokenType: 'bearer', expiresIn: 900, user: { email } });
    expect(session.user.emailConfirmedAt).not.toBeNull();
    const cookie = signin.cookies.find((c) => c.name === 'classwave_refresh');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/api/auth' });

    const me = await t.app.inject({ method: 'GET', url: '/api/me', headers: bearer(session.accessToken) });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      user: { email },
      profile: { fullName: 'Ada Lovelace', role: 'teacher' },
    });
    expect(me.body).not.toContain('password');

    const refreshed = await post('/api/auth/refresh', {}, { cookie: refreshCookieOf(signin) });
    expect(refreshed.statusCode).toBe(200);
    const next = refreshed.json().session;
    // The profile comes with it (a tab restoring its session needs no GET /api/me), and nothing else.
    expect(refreshed.json().profile).toEqual({
      id: session.user.id,
      fullName: 'Ada Lovelace',
      role: 'teacher',
    });
    expect(Object.keys(refreshed.json()).sort()).toEqual(['liveFrom', 'profile', 'session']);
    expect(refreshCookieOf(refreshed)).not.toBe(refreshCookieOf(signin));
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/me', headers: bearer(next.accessToken) })).statusCode,
    ).toBe(200);

    const signout = await post(
      '/api/auth/signout',
      {},
      { ...bearer(next.accessToken), cookie: refreshCookieOf(refreshed) },
    );
    expect(signout.statusCode).toBe(204);
    const after = await t.app.inject({ method: 'GET', url: '/api/me', headers: bearer(next.accessToken) });
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe('session_ended');
    const refreshAfter = await post('/api/auth/refresh', {}, { cookie: refreshCookieOf(refreshed) });
    expect(refreshAfter.statusCode).toBe(401);
  });

  it('defaults the role to student and the redirect to the login page', async () => {
    const email = uniqueEmail();
    await post('/api/auth/signup', { email, password: PASSWORD, fullName: 'Sam Student' });
    const verify = await t.app.inject({ method: 'GET', url: pathOf(linkIn(await t.mail.latestTo(email))) });
    expect(verify.headers.location).toBe(`${TEST_ORIGIN}/login?verified=1`);
    const { accessToken } = await signIn(t, email);
    const me = await t.app.inject({ method: 'GET', url: '/api/me', headers: bearer(accessToken) });
    expect(me.json().profile.role).toBe('student');
  });

  it('treats e-mail addresses case-insensitively', async () => {
    const email = uniqueEmail('Mixed.Case');
    await createVerifiedUser(t, { email });
    const res = await post('/api/auth/signin', { email: email.toUpperCase(), password: PASSWORD });
    expect(res.statusCode).toBe(200);
  });
});

describe('POST /api/auth/signin', () => {
  it('gives one message for a wrong e-mail and a wrong password', async () => {
    const { email } = await createVerifiedUser(t);
    const wrongPassword = await post('/api/auth/signin', { email, password: 'not the password' });
    const wrongEmail = await post('/api/auth/signin', { email: uniqueEmail('nobody'), password: PASSWORD });
    for (const res of [wrongPassword, wrongEmail]) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        statusCode: 400,
        code: 'invalid_credentials',
        error: 'Bad Request',
        message: 'Invalid login credentials',
      });
    }
  });

  it('refuses an unconfirmed address with email_not_confirmed, but only with the right password', async () => {
    const email = uniqueEmail();
    await post('/api/auth/signup', { email, password: PASSWORD, fullName: 'Una Confirmed' });
    const right = await post('/api/auth/signin', { email, password: PASSWORD });
    expect(right.statusCode).toBe(403);
    expect(right.json()).toMatchObject({ code: 'email_not_confirmed', message: 'Email not confirmed' });
    const wrong = await post('/api/auth/signin', { email, password: 'wrong password' });
    expect(wrong.json().code).toBe('invalid_credentials');
  });
});

describe('GET /api/auth/verify', () => {
  it('says "already verified" for a link used twice once the account is confirmed', async () => {
    const email = uniqueEmail();
    await post('/api/auth/signup', { email, password: PASSWORD, fullName: 'Twice' });
    const link = pathOf(linkIn(await t.mail.latestTo(email)));
    expect((await t.app.inject({ method: 'GET', url: link })).headers.location).toContain('verified=1');
    const again = await t.app.inject({ method: 'GET', url: link });
    expect(again.statusCode).toBe(302);
    expect(again.headers.location).toBe(`${TEST_ORIGIN}/login?error=already_verified`);
  });

  it('refuses a link older than 24 hours, and a new link from resend works', async () => {
    const clockApp = await createTestApp();
    try {
      const email = uniqueEmail();
      await clockApp.app.inject({
        method: 'POST',
        url: '/api/auth/signup',
        payload: { email, password: PASSWORD, fullName: 'Late' },
      });
      const link = pathOf(linkIn(await clockApp.mail.latestTo(email)));
      clockApp.clock.advance(25 * 3600 * 1000);
      const late = await clockApp.app.inject({ method: 'GET', url: link });
      expect(late.headers.location).toBe(`${TEST_ORIGIN}/login?error=link_expired`);
      const signin = await clockApp.app.inject({
        method: 'POST',
        url: '/api/auth/signin',
        payload: { email, password: PASSWORD },
      });
      expect(signin.json().code).toBe('email_not_confirmed');

      const resend = await clockApp.app.inject({
        method: 'POST',
        url: '/api/auth/resend',
        payload: { email },
      });
      expect(resend.statusCode).toBe(200);
      expect(clockApp.mail.countTo(email)).toBe(2);
      const fresh = pathOf(linkIn(await clockApp.mail.latestTo(email)));
      expect(fresh).not.toBe(link);
      expect((await clockApp.app.inject({ method: 'GET', url: fresh })).headers.location).toContain(
        'verified=1',
      );
    } finally {
      await clockApp.close();
    }
  });

  it('sends an unknown or missing token to the login page with a reason', async () => {
    for (const url of ['/api/auth/verify?token=nope', '/api/auth/verify']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe(`${TEST_ORIGIN}/login?error=link_invalid`);
    }
  });
});

describe('open redirects', () => {
  it.each([
    'https://evil.example/login',
    'http://localhost:5173.evil.example/login',
    '//evil.example/x',
    'javascript:alert(1)',
  ])('refuses redirectTo %s', async (redirectTo) => {
    const email = uniqueEmail();
    const res = await post('/api/auth/signup', { email, password: PASSWORD, fullName: 'Eve', redirectTo });
    expect(res.statusCode).toBe(400);
    expect(['invalid_redirect', 'validation_failed']).toContain(res.json().code);
    expect(res.json().message).toMatch(/redirectTo/);
    expect(t.mail.countTo(email)).toBe(0);
  });
});

describe('signing up with a taken address', () => {
  it('answers exactly as for a new address and tells the owner by mail instead', async () => {
    const { email } = await createVerifiedUser(t, { fullName: 'Owner' });
    const res = await post('/api/auth/signup', {
      email,
      password: 'another password',
      fullName: 'Intruder',
      role: 'teacher',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Check your e-mail for a verification link.' });
    const mail = await t.mail.latestTo(email);
    expect(mail.subject).toBe('You already have a Classwave account');
    // The original password still works and the profile is untouched.
    const { accessToken } = await signIn(t, email);
    const me = await t.app.inject({ method: 'GET', url: '/api/me', headers: bearer(accessToken) });
    expect(me.json().profile).toMatchObject({ fullName: 'Owner', role: 'student' });
  });
});

describe('POST /api/auth/refresh', () => {
  it('lets two tabs refresh with the same token at once without signing the user out', async () => {
    const { email } = await createVerifiedUser(t);
    const first = await signIn(t, email);
    const [a, b] = await Promise.all([
      post('/api/auth/refresh', {}, { cookie: first.cookie }),
      post('/api/auth/refresh', {}, { cookie: first.cookie }),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    // Both tabs now hold the same, current token, and it keeps working.
    expect(refreshCookieOf(a)).toBe(refreshCookieOf(b));
    const later = await post('/api/auth/refresh', {}, { cookie: refreshCookieOf(a) });
    expect(later.statusCode).toBe(200);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/me',
          headers: bearer(later.json().session.accessToken),
        })
      ).statusCode,
    ).toBe(200);
  });

  it('revokes the whole session when a replaced token comes back later', async () => {
    const clockApp = await createTestApp();
    try {
      const { email } = await createVerifiedUser(clockApp);
      const first = await signIn(clockApp, email);
      const rotated = await clockApp.app.inject({
        method: 'POST',
        url: '/api/auth/refresh',
        headers: { cookie: first.cookie },
      });
      expect(rotated.statusCode).toBe(200);
      const current = rotated.json().session.accessToken;
      clockApp.clock.advance(60_000);

      const reuse = await clockApp.app.inject({
        method: 'POST',
        url: '/api/auth/refresh',
        headers: { cookie: first.cookie },
      });
      expect(reuse.statusCode).toBe(401);
      expect(reuse.json().code).toBe('refresh_token_invalid');
      // The thief's reuse ends the session for the rightful holder too.
      const me = await clockApp.app.inject({ method: 'GET', url: '/api/me', headers: bearer(current) });
      expect(me.json().code).toBe('session_ended');
      const holder = await clockApp.app.inject({
        method: 'POST',
        url: '/api/auth/refresh',
        headers: { cookie: refreshCookieOf(rotated) },
      });
      expect(holder.statusCode).toBe(401);
    } finally {
      await clockApp.close();
    }
  });

  it('answers a visitor without a cookie 204 with no body and no cookie (signed out is not an error)', async () => {
    const none = await t.app.inject({ method: 'POST', url: '/api/auth/refresh' });
    expect(none.statusCode).toBe(204);
    expect(none.body).toBe('');
    expect(none.headers['set-cookie']).toBeUndefined();
    const empty = await post('/api/auth/refresh', {}, { cookie: 'classwave_refresh=' });
    expect(empty.statusCode).toBe(204);
  });

  it('answers 401 to a made-up cookie, and clears it', async () => {
    const fake = await post('/api/auth/refresh', {}, { cookie: 'classwave_refresh=made-up' });
    expect(fake.statusCode).toBe(401);
    expect(fake.json().code).toBe('refresh_token_invalid');
    const cleared = fake.cookies.find((c) => c.name === 'classwave_refresh');
    expect(cleared?.value).toBe('');
  });

  it('documents the signed-out 204 in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, { post?: { responses: Record<string, unknown> } }>;
    };
    expect(Object.keys(doc.paths['/api/auth/refresh']?.post?.responses ?? {})).toEqual(
      expect.arrayContaining(['200', '204', '401', '429']),
    );
  });
});

describe('access tokens', () => {
  const forge = (payload: object, key = TEST_SECRET) =>
    createSigner({ key, algorithm: 'HS256', noTimestamp: true })({ aud: 'classwave', ...payload });

  it('refuses tampered, unsigned, wrongly signed and malformed tokens', async () => {
    const { email } = await createVerifiedUser(t);
    const { accessToken, session } = await signIn(t, email);
    const [header, payload, signature] = accessToken.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const tampered = `${header}.${Buffer.from(JSON.stringify({ ...claims, sub: '00000000-0000-0000-0000-000000000000' })).toString('base64url')}.${signature}`;
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.`;
    const hs512 = createSigner({ key: TEST_SECRET, algorithm: 'HS512', noTimestamp: true })(claims);
    const otherSecret = forge(claims, 'another-secret-that-is-long-enough-for-hs256!');
    for (const token of [tampered, none, hs512, otherSecret, 'garbage', `${accessToken}x`]) {
      const res = await t.app.inject({ method: 'GET', url: '/api/me', headers: bearer(token) });
      expect(res.statusCode, token).toBe(401);
      expect(res.json().code).toBe('invalid_token');
    }
    expect(session.expiresAt).toBe(claims.exp);
  });

  it('refuses an expired token with token_expired', async () => {
    const clockApp = await createTestApp();
    try {
      const { email } = await createVerifiedUser(clockApp);
      const { accessToken } = await signIn(clockApp, email);
      clockApp.clock.advance(15 * 60 * 1000 + 1000);
      const res = await clockApp.app.inject({ method: 'GET', url: '/api/me', headers: bearer(accessToken) });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('token_expired');
    } finally {
      await clockApp.close();
    }
  });

  it('asks for a token when none is sent', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/me' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'unauthorized', error: 'Unauthorized' });
  });
});

describe('sign-out', () => {
  it('ends only its own session', async () => {
    const { email } = await createVerifiedUser(t);
    const laptop = await signIn(t, email);
    const phone = await signIn(t, email);
    await post('/api/auth/signout', {}, { ...bearer(laptop.accessToken), cookie: laptop.cookie });
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/me', headers: bearer(laptop.accessToken) })).statusCode,
    ).toBe(401);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/me', headers: bearer(phone.accessToken) })).statusCode,
    ).toBe(200);
  });

  it('works with only the refresh cookie, and clears it', async () => {
    const { email } = await createVerifiedUser(t);
    const s = await signIn(t, email);
    const res = await post('/api/auth/signout', {}, { cookie: s.cookie });
    expect(res.statusCode).toBe(204);
    expect(res.cookies.find((c) => c.name === 'classwave_refresh')?.value).toBe('');
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/me', headers: bearer(s.accessToken) })).json().code,
    ).toBe('session_ended');
  });
});

describe('when the mail server is down', () => {
  it('keeps the account, answers 503, and a resend once it is back lets the user in', async () => {
    // Find a free port, then leave it closed: the app's SMTP server is "down".
    const probe = await new MailCatcher().start();
    const port = probe.port;
    await probe.stop();
    const down = await createTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${port}` } });
    const revived = new MailCatcher();
    try {
      const email = uniqueEmail();
      const res = await down.app.inject({
        method: 'POST',
        url: '/api/auth/signup',
        payload: { email, password: PASSWORD, fullName: 'Patient' },
      });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({
        code: 'email_send_failed',
        message: expect.stringMatching(/account is safe/),
      });
      const early = await down.app.inject({
        method: 'POST',
        url: '/api/auth/signin',
        payload: { email, password: PASSWORD },
      });
      expect(early.json().code).toBe('email_not_confirmed');

      await revived.start(port);
      const resend = await down.app.inject({ method: 'POST', url: '/api/auth/resend', payload: { email } });
      expect(resend.statusCode).toBe(200);
      const verify = await down.app.inject({
        method: 'GET',
        url: pathOf(linkIn(await revived.latestTo(email))),
      });
      expect(verify.headers.location).toContain('verified=1');
      const signin = await down.app.inject({
        method: 'POST',
        url: '/api/auth/signin',
        payload: { email, password: PASSWORD },
      });
      expect(signin.statusCode).toBe(200);
    } finally {
      await down.close();
      await revived.stop();
    }
  });
});
