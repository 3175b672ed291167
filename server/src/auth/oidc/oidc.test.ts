import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  createVerifiedUser,
  PASSWORD,
  TEST_ORIGIN,
  uniqueEmail,
  type TestApp,
} from '../../../test/support/app.js';
import {
  OIDC_CLIENT_ID,
  OIDC_CLIENT_SECRET,
  signInAtProvider,
  TestOidcProvider,
  type TestIdentity,
} from '../../../test/support/oidc-provider.js';
import { profiles, users } from '../../db/schema.js';
import { createCourse, createTeacher } from '../../../test/support/factories.js';

let provider: TestOidcProvider;
let t: TestApp;

const schoolEnv = (issuer: string) => ({
  OIDC_ISSUER: issuer,
  OIDC_CLIENT_ID,
  OIDC_CLIENT_SECRET,
  OIDC_ROLE_RULES: 'teacher:@staff.school.test,student:@pupils.school.test,teacher:groups=teachers',
  OIDC_NAME: 'Test School',
});

beforeAll(async () => {
  provider = await new TestOidcProvider().start(TEST_ORIGIN);
  t = await createTestApp({ env: schoolEnv(provider.issuer) });
});
afterAll(async () => {
  await t.close();
  await provider.stop();
});

let logins = 0;
/** A person at the test provider; returns their login name there. */
function person(identity: Partial<TestIdentity> & { email: string }): string {
  const login = `person-${++logins}`;
  provider.addPerson(login, { email_verified: true, name: 'School Person', ...identity });
  return login;
}

/** Starts a sign-in at the app: the provider URL it redirects to and the flow cookie it set. */
async function start(next?: string) {
  const res = await t.app.inject({
    method: 'GET',
    url: '/api/auth/oidc/start',
    ...(next === undefined ? {} : { query: { next } }),
  });
  expect(res.statusCode).toBe(302);
  const flow = res.cookies.find((c) => c.name === 'classwave_oidc');
  expect(flow).toMatchObject({ httpOnly: true, path: '/api/auth/oidc', sameSite: 'Lax' });
  return { location: String(res.headers.location), cookie: `classwave_oidc=${flow!.value}` };
}

/** The browser's return to the app's callback. */
function callback(url: URL, cookie: string | undefined) {
  return t.app.inject({
    method: 'GET',
    url: url.pathname + url.search,
    headers: cookie ? { cookie } : {},
  });
}

/** A whole sign-in as `login`: the callback's answer, and the URL the provider sent back. */
async function signInAs(login: string, next?: string) {
  const { location, cookie } = await start(next);
  const back = await signInAtProvider(location, login);
  return { res: await callback(back, cookie), back, cookie };
}

/** Who the refresh cookie of a callback signs in (the app's first request after the redirect). */
async function sessionOf(res: Awaited<ReturnType<typeof callback>>) {
  const refresh = res.cookies.find((c) => c.name === 'classwave_refresh');
  expect(refresh, 'a refresh cookie').toBeDefined();
  const again = await t.app.inject({
    method: 'POST',
    url: '/api/auth/refresh',
    headers: { cookie: `classwave_refresh=${refresh!.value}` },
  });
  expect(again.statusCode).toBe(200);
  return again.json<{
    session: { user: { id: string; email: string } };
    profile: { role: string; fullName: string };
  }>();
}

const refusedWith = (res: Awaited<ReturnType<typeof callback>>, reason: string) => {
  expect(res.statusCode).toBe(302);
  expect(res.headers.location).toBe(`${TEST_ORIGIN}/login?error=${reason}`);
  expect(res.cookies.find((c) => c.name === 'classwave_refresh')).toBeUndefined();
};

const accountsWith = async (email: string) =>
  (
    await t.app.core.db
      .select()
      .from(users)
      .where(sql`lower(${users.email}) = lower(${email})`)
  ).length;

describe('GET /api/auth/settings', () => {
  it('offers the school sign-in by its name beside passwords', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/settings' });
    expect(res.json()).toMatchObject({ passwordSignin: true, oidc: { name: 'Test School' } });
  });
});

describe('GET /api/auth/oidc/start', () => {
  it('sends the browser to the provider with PKCE (S256), state and nonce', async () => {
    const url = new URL((await start()).location);
    expect(url.origin).toBe(provider.issuer);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: OIDC_CLIENT_ID,
      response_type: 'code',
      redirect_uri: `${TEST_ORIGIN}/api/auth/oidc/callback`,
      code_challenge_method: 'S256',
      scope: 'openid email profile',
    });
    for (const name of ['code_challenge', 'state', 'nonce'])
      expect(url.searchParams.get(name)).toMatch(/^[\w-]{40,}$/);
  });
});

describe('GET /api/auth/oidc/callback', () => {
  it('creates a student from the rules, then signs the same account in the second time', async () => {
    const email = uniqueEmail('ana').replace('@school.test', '@pupils.school.test');
    const login = person({ email, name: 'Ana Pupil' });
    const first = await signInAs(login);
    expect(first.res.statusCode).toBe(302);
    expect(first.res.headers.location).toBe(`${TEST_ORIGIN}/`);
    const one = await sessionOf(first.res);
    expect(one.profile).toMatchObject({ role: 'student', fullName: 'Ana Pupil' });
    expect(one.session.user.email).toBe(email);

    const second = await signInAs(login);
    expect((await sessionOf(second.res)).session.user.id).toBe(one.session.user.id);
    expect(await accountsWith(email)).toBe(1);
  });

  it('links to an existing password account by its verified e-mail, keeping its role', async () => {
    // A student account at a staff address: the rules would say teacher, but the account's role stands.
    const email = uniqueEmail('linked').replace('@school.test', '@staff.school.test');
    await createVerifiedUser(t, { email, role: 'student', fullName: 'Has Password' });
    const { res } = await signInAs(person({ email: email.toUpperCase() }));
    const signedIn = await sessionOf(res);
    expect(signedIn.session.user.email).toBe(email);
    expect(signedIn.profile).toMatchObject({ role: 'student', fullName: 'Has Password' });
  });

  it('confirms an unconfirmed account it links to and voids the password someone may have set on it', async () => {
    const email = uniqueEmail('squat').replace('@school.test', '@staff.school.test');
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { email, password: PASSWORD, fullName: 'Squatter', role: 'teacher' },
    });
    const { res } = await signInAs(person({ email }));
    expect((await sessionOf(res)).session.user.email).toBe(email);
    const password = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signin',
      payload: { email, password: PASSWORD },
    });
    expect(password.json()).toMatchObject({ code: 'invalid_credentials' });
  });

  it('gives a role by a claim rule (groups) when the domain has none', async () => {
    const email = uniqueEmail('grouped').replace('@school.test', '@elsewhere.test');
    const { res } = await signInAs(person({ email, groups: ['teachers'] }));
    expect((await sessionOf(res)).profile.role).toBe('teacher');
  });

  it('refuses a state that is not the one it sealed, and a return with no flow cookie', async () => {
    const login = person({ email: uniqueEmail('state').replace('@school.test', '@pupils.school.test') });
    const { location, cookie } = await start();
    const back = await signInAtProvider(location, login);
    const forged = new URL(back);
    forged.searchParams.set('state', 'x'.repeat(43));
    refusedWith(await callback(forged, cookie), 'oidc_state');
    refusedWith(await callback(back, undefined), 'oidc_state');
    // The flow cookie of another sign-in (started by someone else) does not fit either.
    refusedWith(await callback(back, (await start()).cookie), 'oidc_state');
    refusedWith(await callback(back, `${cookie}x`), 'oidc_state');
  });

  it('refuses a code used a second time (the provider says so)', async () => {
    const email = uniqueEmail('replay').replace('@school.test', '@pupils.school.test');
    const { res, back, cookie } = await signInAs(person({ email }));
    await sessionOf(res);
    // The same answer again, flow cookie and all, as someone who copied both would send it.
    refusedWith(await callback(back, cookie), 'oidc_failed');
  });

  it('refuses an e-mail the provider has not verified, making no account', async () => {
    const email = uniqueEmail('unverified').replace('@school.test', '@pupils.school.test');
    const { res } = await signInAs(person({ email, email_verified: false }));
    refusedWith(res, 'oidc_email_unverified');
    expect(await accountsWith(email)).toBe(0);
  });

  it('refuses an address no role rule matches, making no account', async () => {
    const email = uniqueEmail('nobody').replace('@school.test', '@parents.school.test');
    const { res } = await signInAs(person({ email }));
    refusedWith(res, 'oidc_no_role');
    expect(await accountsWith(email)).toBe(0);
  });

  it('says the sign-in was cancelled when the provider answers access_denied', async () => {
    const { location, cookie } = await start();
    const state = new URL(location).searchParams.get('state')!;
    const back = new URL(`${TEST_ORIGIN}/api/auth/oidc/callback`);
    back.search = new URLSearchParams({ error: 'access_denied', state, iss: provider.issuer }).toString();
    refusedWith(await callback(back, cookie), 'oidc_denied');
  });
});

describe('?next= through a school sign-in', () => {
  it('lands where the visitor was going (a join link, an assignment), carried in the sealed flow cookie', async () => {
    const email = uniqueEmail('next').replace('@school.test', '@pupils.school.test');
    const login = person({ email });
    for (const next of ['/join/ABCD-EFGH', '/assignments?open=42#work']) {
      const { res } = await signInAs(login, next);
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe(`${TEST_ORIGIN}${next}`);
      await sessionOf(res);
    }
  });

  it('ignores a next that would leave the app, and still signs in to the home page', async () => {
    const email = uniqueEmail('evil').replace('@school.test', '@pupils.school.test');
    const login = person({ email });
    for (const next of ['https://evil.example/', '//evil.example/x', '/\\evil.example', 'join/x']) {
      const { res } = await signInAs(login, next);
      expect(res.headers.location, next).toBe(`${TEST_ORIGIN}/`);
      await sessionOf(res);
    }
  });

  it('is never taken from the callback: a next added on the way back changes nothing', async () => {
    const login = person({ email: uniqueEmail('back').replace('@school.test', '@pupils.school.test') });
    const { location, cookie } = await start();
    const back = await signInAtProvider(location, login);
    back.searchParams.set('next', '/join/ABCD-EFGH');
    const res = await callback(back, cookie);
    expect(res.headers.location).toBe(`${TEST_ORIGIN}/`);
  });
});

describe('a roster-invited student signing in through the school', () => {
  it('is in the course on their first page, landing back on the join link they opened', async () => {
    const teacher = await createTeacher(t, 'Roster Teacher');
    const course = await createCourse(t, teacher);
    const email = uniqueEmail('rostered').replace('@school.test', '@pupils.school.test');
    const imported = await t.app.inject({
      method: 'POST',
      url: `/api/courses/${course.id}/roster-import`,
      headers: teacher.headers,
      payload: { csv: `name,email\nRoster Pupil,${email}\n` },
    });
    expect(imported.statusCode, imported.body).toBe(200);

    const next = `/join/${course.joinCode}`;
    const { res } = await signInAs(person({ email: email.toUpperCase() }), next);
    expect(res.headers.location).toBe(`${TEST_ORIGIN}${next}`);
    const { session } = await sessionOf(res);
    const members = await t.app.inject({
      method: 'GET',
      url: `/api/courses/${course.id}/members`,
      headers: teacher.headers,
    });
    expect(members.json<Array<{ student: { id: string }; status: string }>>()).toEqual([
      expect.objectContaining({
        student: expect.objectContaining({ id: session.user.id }),
        status: 'active',
      }),
    ]);
  });
});

describe('PASSWORD_SIGNIN=off', () => {
  it('closes every password route with 403 password_signin_off and says so in the settings', async () => {
    const closed = await createTestApp({ env: { ...schoolEnv(provider.issuer), PASSWORD_SIGNIN: 'off' } });
    try {
      const settings = await closed.app.inject({ method: 'GET', url: '/api/auth/settings' });
      expect(settings.json()).toMatchObject({ passwordSignin: false, oidc: { name: 'Test School' } });
      const email = 'someone@pupils.school.test';
      const routes: Array<[string, object]> = [
        ['/api/auth/signin', { email, password: PASSWORD }],
        ['/api/auth/signup', { email, password: PASSWORD, fullName: 'No Way' }],
        ['/api/auth/resend', { email }],
        ['/api/auth/recover', { email }],
        ['/api/auth/reset', { token: 'x'.repeat(43), password: PASSWORD }],
        ['/api/auth/reset/check', { token: 'x'.repeat(43) }],
      ];
      for (const [url, payload] of routes) {
        const res = await closed.app.inject({ method: 'POST', url, payload });
        expect([url, res.statusCode, res.json<{ code: string }>().code]).toEqual([
          url,
          403,
          'password_signin_off',
        ]);
      }
      const [row] = await closed.app.core.db.select().from(users).where(eq(users.email, email));
      expect(row).toBeUndefined();
    } finally {
      await closed.close();
    }
  });
});

describe('without OIDC_ISSUER', () => {
  it('sends both routes back to the login page saying the school sign-in is not set up', async () => {
    const plain = await createTestApp();
    try {
      for (const url of ['/api/auth/oidc/start', '/api/auth/oidc/callback?code=a&state=b']) {
        const res = await plain.app.inject({ method: 'GET', url });
        expect(res.headers.location).toBe(`${TEST_ORIGIN}/login?error=oidc_not_configured`);
      }
      const settings = await plain.app.inject({ method: 'GET', url: '/api/auth/settings' });
      expect(settings.json()).toEqual({ teacherSignup: 'open', passwordSignin: true });
      expect(await plain.app.core.db.select().from(profiles).limit(1)).toEqual([]);
    } finally {
      await plain.close();
    }
  });
});
