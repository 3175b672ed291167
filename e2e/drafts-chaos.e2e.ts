import { expect, request, test, type APIRequestContext, type Page } from '@playwright/test';
import { controllableNetwork } from './network.js';
import { startServer, type E2EServer } from './server.js';
import { PASSWORD, uniqueEmail, verificationLinkFor } from './support.js';

/**
 * Issue 12's "done when", as our own chaos journey: a student writes in bursts while the network
 * dies and comes back, the tab reloads and the session expires at moments a seeded random draws;
 * finally they submit (maybe offline). Every typed character must then be in the one submission.
 * CHAOS_SEED replays a run (by default the seed is the day; in CI a fixed one); it is printed and attached to the report.
 *
 * The journey runs its own server with 10-second access tokens, so sessions refresh every few
 * seconds and an expiry (the refresh cookie cleared) shows within the run.
 */

test.setTimeout(150_000);

const CHAOS_MS = 50_000;
// Sign-ins per account are rate limited (5 in 10 minutes): the API's, the first and one per expiry.
const MAX_EXPIRIES = 2;

let server: E2EServer;
test.beforeAll(async () => {
  server = await startServer({ SMTP_URL: process.env.E2E_SMTP_URL ?? '', ACCESS_TOKEN_TTL: '10' });
});
test.afterAll(async () => {
  await server?.stop();
});

/** The seed CI runs (a day's seed that passed on 2026-11-25; CHAOS_SEED picks another). */
const CI_SEED = 20782;

/** mulberry32: a small seeded generator, so a failing run can be replayed with its seed. */
function seeded(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  'photosynthesis',
  'light',
  'chlorophyll',
  'glucose',
  'water',
  'carbon',
  'leaf',
  'energy',
  'oxygen',
];

/** An account made through the API (sign-up, the mailed link), signed in; returns its auth header. */
async function account(api: APIRequestContext, role: 'teacher' | 'student', fullName: string) {
  const email = uniqueEmail(`chaos-${role}`);
  const signup = await api.post('/api/auth/signup', {
    data: { email, password: PASSWORD, fullName, role, redirectTo: `${server.baseUrl}/login` },
  });
  expect(signup.ok()).toBe(true);
  const verified = await api.get(await verificationLinkFor(email), { maxRedirects: 0 });
  expect(verified.status()).toBe(302);
  return { email, headers: await signInApi(api, email) };
}

async function signInApi(api: APIRequestContext, email: string) {
  const res = await api.post('/api/auth/signin', { data: { email, password: PASSWORD } });
  expect(res.ok()).toBe(true);
  const { session } = (await res.json()) as { session: { accessToken: string } };
  return { authorization: `Bearer ${session.accessToken}` };
}

test('chaos: network, reloads and expiring sessions lose no typed character, and submit once', async ({
  browser,
}) => {
  // CI replays one seed known to pass, so a red run means a change broke something, not a new draw;
  // elsewhere the seed is the day (UTC): runs on one day replay each other, and days explore.
  const seed = Number(
    process.env.CHAOS_SEED ?? (process.env.CI ? CI_SEED : Math.floor(Date.now() / 86_400_000)),
  );
  console.log(`drafts chaos seed: ${seed} (CHAOS_SEED=${seed} replays it)`);
  test.info().annotations.push({ type: 'seed', description: String(seed) });
  const rand = seeded(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(rand() * items.length)]!;

  // A class with one assignment, made through the API.
  const api = await request.newContext({ baseURL: server.baseUrl });
  const teacher = await account(api, 'teacher', 'Chaos Teacher');
  const course = await api.post('/api/courses', {
    headers: teacher.headers,
    data: { title: 'Chaos Biology', code: 'CH101', description: 'Nothing is lost.' },
  });
  expect(course.status()).toBe(201);
  const { id: courseId, joinCode } = (await course.json()) as { id: string; joinCode: string };
  const created = await api.post('/api/assignments', {
    headers: teacher.headers,
    data: { title: 'Chaos essay', courseId, dueDate: new Date(Date.now() + 2 * 86_400_000).toISOString() },
  });
  expect(created.status()).toBe(201);
  const { id: assignmentId } = (await created.json()) as { id: string };
  const student = await account(api, 'student', 'Chaos Student');
  const joined = await api.post('/api/courses/join', { headers: student.headers, data: { code: joinCode } });
  expect(joined.ok()).toBe(true);

  const context = await browser.newContext({ baseURL: server.baseUrl });
  const net = await controllableNetwork(context);
  const page = await context.newPage();
  // Each step is printed as it happens: with the seed, a failing run reads as a story.
  const step = (what: string) => {
    console.log(`chaos ${Math.round((Date.now() - started) / 1000)}s: ${what}`);
  };
  const started = Date.now();
  let offline = false;
  let broken = false; // a reload while offline leaves Chromium's error page
  let expiries = 0;
  let typed = '';

  const answer = page.getByRole('dialog', { name: 'Submit Assignment' });
  const box = answer.getByLabel('Your Submission');
  const expired = page.getByRole('dialog', { name: 'Your session expired' });
  const welcome = page.getByRole('heading', { name: 'Welcome back' });
  const card = page
    .getByRole('list', { name: 'Assignments' })
    .getByRole('listitem')
    .filter({ hasText: 'Chaos essay' });

  async function signInOnLoginPage(target: Page) {
    await target.getByLabel('Email').fill(student.email);
    await target.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await target.getByRole('button', { name: 'Sign In' }).click();
    await expect(target).not.toHaveURL(/\/login/);
  }

  async function online() {
    if (offline) await net.goOnline();
    offline = false;
    if (broken) {
      await page.goto('/assignments');
      broken = false;
    }
  }

  /** Back to a state where the student can type: online if needed, signed in, the answer open. */
  async function ready() {
    // Not the app (Chromium's offline page after a navigation the network cut): load it again.
    if (!page.url().startsWith(server.baseUrl)) broken = true;
    if (broken) await online();
    if (/\/login/.test(page.url())) {
      await online();
      await signInOnLoginPage(page);
    }
    if (await expired.isVisible()) {
      await online();
      await expired.getByLabel('Email').fill(student.email);
      await expired.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await expired.getByRole('button', { name: 'Sign In' }).click();
      await expect(expired).toBeHidden();
    }
    if (!/\/assignments/.test(page.url())) {
      await online();
      await page.goto('/assignments');
    }
    if (!(await answer.isVisible())) {
      const open = card.getByRole('button', { name: /^(Submit|Waiting to submit)$/ });
      // A list that could not load offline: the student gets back online and loads it again.
      if (!(await open.isVisible({ timeout: 5000 }).catch(() => false))) {
        await online();
        await page.goto('/assignments');
        // The app may still send the page to sign-in (a session that ended while it loaded).
        await expect(open.or(welcome)).toBeVisible({ timeout: 15_000 });
        if (await welcome.isVisible()) {
          await signInOnLoginPage(page);
          if (!/\/assignments/.test(page.url())) await page.goto('/assignments');
        }
      }
      await open.click();
      await expect(answer).toBeVisible();
    }
    // Text kept aside by a conflict goes back on screen, as the student would restore it.
    const restore = answer.getByRole('button', { name: 'Restore' });
    if (await restore.isVisible()) await restore.click();
    await expect(box).toHaveValue(typed);
  }

  await page.goto('/login');
  await signInOnLoginPage(page);
  await page.goto('/assignments');
  await ready();

  const until = Date.now() + CHAOS_MS;
  while (Date.now() < until) {
    const roll = rand();
    if (roll < 0.45) {
      await ready();
      const burst = Array.from({ length: 1 + Math.floor(rand() * 4) }, () => pick(WORDS)).join(' ') + '. ';
      step(`type ${JSON.stringify(burst)}`);
      await box.focus();
      await box.press('Control+End');
      await box.pressSequentially(burst, { delay: Math.floor(rand() * 40) });
      typed += burst;
    } else if (roll < 0.62) {
      if (offline) {
        step('online');
        await online();
      } else {
        step('offline');
        await net.goOffline();
        offline = true;
      }
    } else if (roll < 0.77) {
      step(`reload${offline ? ' (offline)' : ''}`);
      await page.reload().catch(() => {});
      if (offline) broken = true;
    } else if (roll < 0.85 && expiries < MAX_EXPIRIES && !offline && !broken) {
      // The refresh cookie goes: the next refresh (within 5 s with 10 s tokens) is refused.
      step('expire');
      expiries++;
      const writing = await answer.isVisible();
      // A refresh in flight as the cookie goes sets a new one: clear again until it takes.
      const signInShown = expired.or(welcome);
      for (let attempt = 0; attempt < 4 && !(await signInShown.isVisible()); attempt++) {
        await context.clearCookies();
        await signInShown.waitFor({ timeout: 8000 }).catch(() => {});
      }
      await expect(signInShown).toBeVisible();
      if (await expired.isVisible()) {
        // The page, and the answer with its text, stay under the sign-in dialog.
        if (writing) await expect(box).toHaveValue(typed);
        if (rand() < 0.5) {
          step('reload while expired');
          await page.reload();
          // With no session left, the reloaded page is sign-in's.
          await expect(welcome).toBeVisible({ timeout: 15_000 });
        }
      }
    } else {
      const pause = Math.floor(rand() * 2500);
      step(`wait ${pause} ms`);
      await page.waitForTimeout(pause);
    }
  }

  // The last words, then Submit, maybe offline (queued, maybe across a reload).
  await ready();
  await box.press('Control+End');
  await box.pressSequentially('The end.');
  typed += 'The end.';
  const submitOffline = rand() < 0.5;
  if (submitOffline && !offline) {
    await net.goOffline();
    offline = true;
  }
  step(`submit${offline ? ' (offline)' : ''}`);
  await answer.getByRole('button', { name: 'Submit Assignment' }).click();
  // Online, the student sees it land (the dialog closes) before going anywhere else.
  if (!offline) await expect(answer).toBeHidden({ timeout: 30_000 });
  if (offline) {
    await expect(answer.getByText('Waiting for the connection')).toBeVisible();
    if (rand() < 0.5) {
      step('reload with the submit queued');
      await page.reload().catch(() => {});
      broken = true;
    }
    await online();
  }
  if (/\/login/.test(page.url())) await signInOnLoginPage(page);
  await page.goto('/assignments');
  await expect(card).toContainText('Submitted', { timeout: 30_000 });

  // Exactly one submission, holding every character typed, and no device copy left over.
  const check = await signInApi(api, teacher.email);
  const rows = (await (
    await api.get(`/api/assignments/${assignmentId}/submissions`, { headers: check })
  ).json()) as { content: string }[];
  expect(rows).toHaveLength(1);
  expect(rows[0]!.content).toBe(typed);
  // The tab forgets its copy and its queued submit once it hears the submission landed.
  const leftOnDevice = () =>
    page.evaluate(
      () =>
        new Promise<string[]>((resolve) => {
          const open = indexedDB.open('classwave');
          open.onerror = () => resolve([]);
          open.onsuccess = () => {
            const db = open.result;
            if (!db.objectStoreNames.contains('student-work')) return resolve([]);
            const keys = db.transaction('student-work').objectStore('student-work').getAllKeys();
            keys.onsuccess = () => resolve(keys.result.map(String));
            keys.onerror = () => resolve([]);
          };
        }),
    );
  await expect.poll(leftOnDevice, { timeout: 15_000 }).toEqual([]);
  await context.close();
  await api.dispose();
});
