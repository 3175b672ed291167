import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Browser, type BrowserContext, type Page } from '@playwright/test';
import type { CreateAssignmentBody, CreateCourseBody } from '@classwave/shared';

export const PASSWORD = 'correct horse battery';
let counter = 0;
export const uniqueEmail = (name: string) => `${name}.${Date.now().toString(36)}${++counter}@school.test`;

/** The link matching `pattern` in the newest mail to `to`, waiting until it arrives (`what` names it in a failure). */
async function linkMailedTo(to: string, pattern: RegExp, what: string): Promise<string> {
  const dir = process.env.E2E_MAIL_DIR!;
  let link: string | undefined;
  await expect
    .poll(
      () => {
        const mails = readdirSync(dir)
          .filter((f) => f.endsWith('.json'))
          .sort()
          .map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as { to: string; text: string })
          .filter((m) => m.to.toLowerCase() === to.toLowerCase());
        link = pattern.exec(mails.at(-1)?.text ?? '')?.[0];
        return link;
      },
      // The mail lands a few hundred milliseconds after the request: look often, every journey waits on one.
      { message: `${what} mailed to ${to}`, intervals: [100, 100, 250] },
    )
    .toBeTruthy();
  return link!;
}

/** The newest verification link mailed to `to`. */
export const verificationLinkFor = (to: string) =>
  linkMailedTo(to, /https?:\/\/\S+\/api\/auth\/verify\?token=[\w-]+/, 'a verification link');

/** The newest class join link mailed to `to` (a roster import's invitation). */
export const joinLinkFor = (to: string) =>
  linkMailedTo(to, /https?:\/\/\S+\/join\/[A-Z0-9]{4}-[A-Z0-9]{4}/, 'a class invitation');

/** The newest password-reset link mailed to `to`. */
export const resetLinkFor = (to: string) =>
  linkMailedTo(to, /https?:\/\/\S+\/reset-password\?token=[\w-]+/, 'a password-reset link');

/** The newest co-teacher invitation link mailed to `to` (DESIGN §20). */
export const teacherInviteLinkFor = (to: string) =>
  linkMailedTo(to, /https?:\/\/\S+\/teacher-invites\/[\w-]+/, 'a co-teacher invitation');

const SHOTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '.screenshots');
/** Saves the page at desktop and phone width for a person to look at (not committed; off in CI unless E2E_SCREENSHOTS=1). */
export async function screenshots(page: Page, name: string): Promise<void> {
  // Nobody looks at them in CI, where the two full-page shots cost about a minute over the suite.
  if (process.env.CI && !process.env.E2E_SCREENSHOTS) return;
  const size = page.viewportSize();
  for (const [label, width, height] of [
    ['desktop', 1280, 800],
    ['phone', 390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({
      path: path.join(SHOTS, `${name}.${label}.png`),
      fullPage: true,
      animations: 'disabled',
    });
  }
  if (size) await page.setViewportSize(size);
}

/** A signed-in person's bearer header, for the API calls that set up what a journey is not about. */
export type Auth = { authorization: string };

/**
 * Signs up, confirms the mailed link and signs in through the API, in the page's own browser
 * context (the refresh cookie lands there); opens no page. Returns the session's bearer header and
 * the user's id.
 */
export async function signUpByApi(
  page: Page,
  input: { fullName: string; role: 'Student' | 'Teacher'; email: string },
): Promise<{ auth: Auth; id: string }> {
  const api = page.request;
  const origin = { origin: new URL(process.env.E2E_BASE_URL!).origin };
  const role = input.role.toLowerCase();
  const signUp = await api.post('/api/auth/signup', {
    headers: origin,
    data: { fullName: input.fullName, email: input.email, password: PASSWORD, role },
  });
  expect(signUp.status(), await signUp.text()).toBe(200);
  const verified = await api.get(await verificationLinkFor(input.email), { maxRedirects: 0 });
  expect(verified.headers()['location']).toMatch(/\/login\?verified=1/);
  const signIn = await api.post('/api/auth/signin', {
    headers: origin,
    data: { email: input.email, password: PASSWORD },
  });
  expect(signIn.status(), await signIn.text()).toBe(200);
  const { session } = (await signIn.json()) as { session: { accessToken: string; user: { id: string } } };
  return { auth: { authorization: `Bearer ${session.accessToken}` }, id: session.user.id };
}

/**
 * A user signed up and in through the API in a browser context of their own (a phone's viewport,
 * say), no page opened yet: for journeys with several people, each their own browser.
 */
export async function userInOwnBrowser(
  browser: Browser,
  input: { fullName: string; role: 'teacher' | 'student'; email: string },
  viewport = { width: 1280, height: 800 },
): Promise<{ context: BrowserContext; page: Page; id: string; headers: Auth }> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const role = input.role === 'teacher' ? 'Teacher' : 'Student';
  const { auth, id } = await signUpByApi(page, { ...input, role });
  return { context, page, id, headers: auth };
}

/**
 * `signUpByApi`, then the dashboard opened; returns the session's bearer header. The forms
 * themselves are walked through in auth.e2e.ts; every other journey starts from a signed-in user,
 * and doing it by hand cost each of them 5–10 s per person.
 */
export async function signUpAndSignIn(
  page: Page,
  input: { fullName: string; role: 'Student' | 'Teacher'; email: string },
): Promise<Auth> {
  const { auth } = await signUpByApi(page, input);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible();
  return auth;
}

/** A POST through the API as `auth`, expecting `status`; returns the answer's body. */
async function post<T>(page: Page, auth: Auth, url: string, data: object, status: number): Promise<T> {
  const res = await page.request.post(url, { headers: auth, data });
  expect(res.status(), `POST ${url}: ${await res.text()}`).toBe(status);
  return (await res.json()) as T;
}

/**
 * A course made through the API, for journeys about something else: the form is walked through in
 * teaching.e2e.ts, classes.e2e.ts and keyboard.e2e.ts, and doing it there and then reading the
 * code from the course page cost each journey 3–5 s.
 */
export const createCourseByApi = (teacher: Page, auth: Auth, course: CreateCourseBody) =>
  post<{ id: string; joinCode: string }>(teacher, auth, '/api/courses', course, 201);

/** The student joins the class by its code through the API (typing it is classes.e2e.ts's subject). */
export async function joinByApi(student: Page, auth: Auth, joinCode: string): Promise<void> {
  await post(student, auth, '/api/courses/join', { code: joinCode }, 200);
}

/** An assignment made through the API, for journeys about something else (the form: teaching.e2e.ts and others). */
export const createAssignmentByApi = (teacher: Page, auth: Auth, assignment: CreateAssignmentBody) =>
  post<{ id: string }>(teacher, auth, '/api/assignments', assignment, 201);

/**
 * A teacher and a student, each signed in (side by side) in a browser context of their own, in a
 * time zone if given, and the teacher's class made through the API with the student in it: for
 * journeys about what follows (creating and joining a class through the screens is what
 * teaching.e2e.ts, classes.e2e.ts and keyboard.e2e.ts walk through).
 */
export async function classOfTwo(
  browser: Browser,
  names: { teacher: string; student: string },
  course: CreateCourseBody,
  zones: { teacher?: string; student?: string } = {},
) {
  const teacherContext = await browser.newContext({ timezoneId: zones.teacher });
  const studentContext = await browser.newContext({ timezoneId: zones.student });
  const [teacher, student] = await Promise.all([teacherContext.newPage(), studentContext.newPage()]);
  const emailOf = (name: string) => uniqueEmail(name.toLowerCase().replace(/\W+/g, '-'));
  const [teacherAuth, studentAuth] = await Promise.all([
    signUpAndSignIn(teacher, { fullName: names.teacher, role: 'Teacher', email: emailOf(names.teacher) }),
    signUpAndSignIn(student, { fullName: names.student, role: 'Student', email: emailOf(names.student) }),
  ]);
  const { id: courseId, joinCode } = await createCourseByApi(teacher, teacherAuth, course);
  await joinByApi(student, studentAuth, joinCode);
  const close = async () => {
    await teacherContext.close();
    await studentContext.close();
  };
  return {
    teacher,
    student,
    teacherAuth,
    studentAuth,
    teacherContext,
    studentContext,
    courseId,
    joinCode,
    close,
  };
}

/**
 * Switches to `tab`, as a person clicks on it, before using it: of two tabs of one browser context
 * (one Chromium window), the one not in front stops being painted after a second or so, and every
 * click there then waits 1-2 s for its target to be found stable. (Reading a tab in the back, with
 * expect, needs no painting.) `--disable-frame-rate-limit` spares it too, at some 30 % more CPU.
 */
export async function switchTo(tab: Page): Promise<Page> {
  await tab.bringToFront();
  return tab;
}

/** Follows a link of the side navigation (not a same-named link elsewhere on the page). */
export async function navTo(page: Page, label: string): Promise<void> {
  const link = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label, exact: true });
  const heading = page.getByRole('main').getByRole('heading', { level: 1 }).first();
  const already = (await link.getAttribute('aria-current')) === 'page';
  const before = already ? null : await heading.textContent({ timeout: 1000 }).catch(() => null);
  const href = await link.getAttribute('href');
  await link.click();
  // By its href, hidden or not: on a phone the drawer closes as the link is followed, and is hidden
  // 200 ms later, sometimes before the new page's chunk has loaded and the link become current.
  await expect(page.locator(`nav[aria-label="Main"] a[href="${href}"]`)).toHaveAttribute(
    'aria-current',
    'page',
  );
  // Each page is a chunk of its own: until it has loaded, the previous page stays on screen, and a
  // button both pages have (Generate Samples) would be the old page's.
  if (before !== null) await expect(heading).not.toHaveText(before);
}

/** The class code of one of the teacher's courses, read from its page (DESIGN §11). */
export async function classCodeOf(teacher: Page, courseTitle: string): Promise<string> {
  await teacher.goto('/courses');
  await teacher
    .getByRole('list', { name: 'Courses' })
    .getByRole('article')
    .filter({ hasText: courseTitle })
    .getByRole('link', { name: 'View Course' })
    .click();
  const code = teacher.getByTestId('join-code');
  await expect(code).toHaveText(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
  return (await code.textContent())!;
}

/** A student joins a class by typing its code in "Join a class"; ends on the course's page. */
export async function joinClass(student: Page, code: string): Promise<void> {
  await student.goto('/courses');
  await student.getByRole('button', { name: 'Join a class' }).first().click();
  const dialog = student.getByRole('dialog', { name: 'Join a class' });
  await dialog.getByLabel('Class code').fill(code);
  await dialog.getByRole('button', { name: 'Join', exact: true }).click();
  await expect(student).toHaveURL(/\/courses\/[0-9a-f-]{36}$/);
  await expect(dialog).toBeHidden();
}

/**
 * How long a Return may take to be confirmed in the teacher's tab: the server's undo window
 * (UNDO_WINDOW_SECONDS on the e2e servers), then its job and the event back. On a loaded two-core
 * runner the last two took more than the 5 seconds an earlier 15-second wait left them.
 */
export const RETURN_CONFIRMED_MS = 30_000;
