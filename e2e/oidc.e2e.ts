import { expect, test } from '@playwright/test';
import {
  OIDC_CLIENT_ID,
  OIDC_CLIENT_SECRET,
  TestOidcProvider,
} from '../server/test/support/oidc-provider.js';
import { startServer, type E2EServer } from './server.js';
import { screenshots } from './support.js';

/**
 * The school's sign-in (issue 28, DESIGN §20): a server of its own set up with a real OpenID
 * provider (oidc-provider on loopback), driven in Chromium through the provider's own page.
 */
let provider: TestOidcProvider;
let server: E2EServer;
// One worker runs both journeys on the one provider and server (fullyParallel would start a pair per worker).
test.describe.configure({ mode: 'default' });

test.beforeAll(async () => {
  provider = await new TestOidcProvider().listen();
  server = await startServer({
    SMTP_URL: process.env.E2E_SMTP_URL ?? '',
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID,
    OIDC_CLIENT_SECRET,
    OIDC_ROLE_RULES: 'teacher:@staff.school.test,student:@pupils.school.test',
    OIDC_NAME: 'Northfield School',
  });
  provider.serve(server.baseUrl);
});
test.afterAll(async () => {
  await server?.stop();
  await provider?.stop();
});

test('a student signs in with the school account; a parent with no role is told why', async ({ browser }) => {
  const stamp = Date.now().toString(36);
  provider.addPerson('ana', {
    email: `ana.${stamp}@pupils.school.test`,
    email_verified: true,
    name: 'Ana Pupil',
  });
  provider.addPerson('dad', {
    email: `dad.${stamp}@parents.school.test`,
    email_verified: true,
    name: 'A Parent',
  });
  const context = await browser.newContext({ baseURL: server.baseUrl });
  const page = await context.newPage();

  await page.goto('/login');
  await expect(page.getByRole('link', { name: 'Sign in with Northfield School' })).toBeVisible();
  await screenshots(page, 'oidc-login');
  await page.getByRole('link', { name: 'Sign in with Northfield School' }).click();
  await expect(page.getByRole('heading', { name: 'Test School' })).toBeVisible();
  await screenshots(page, 'oidc-provider-page');
  await page.getByLabel('School login').fill('ana');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toContainText('Ana');
  await screenshots(page, 'oidc-signed-in');
  // The session is the ordinary one: it survives a reload through the refresh cookie.
  await page.reload();
  await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toContainText('Ana');
  await context.close();

  // Another browser (the provider remembers who signed in there): refused, back on the login page saying why.
  const other = await browser.newContext({ baseURL: server.baseUrl });
  const parent = await other.newPage();
  await parent.goto('/login');
  await parent.getByRole('link', { name: 'Sign in with Northfield School' }).click();
  await parent.getByLabel('School login').fill('dad');
  await parent.getByRole('button', { name: 'Sign in' }).click();
  await expect(parent).toHaveURL(/\/login\?error=oidc_no_role$/);
  await expect(parent.getByRole('alert')).toContainText('not set up to use Classwave');
  await screenshots(parent, 'oidc-refused');
  await other.close();
});

test('a roster-invited student opens the mailed join link, signs in with the school, and is already in the class', async ({
  browser,
}) => {
  const stamp = Date.now().toString(36);
  const pupil = `rosa.${stamp}@pupils.school.test`;
  provider.addPerson('tess', {
    email: `tess.${stamp}@staff.school.test`,
    email_verified: true,
    name: 'Tess Teacher',
  });
  provider.addPerson('rosa', { email: pupil, email_verified: true, name: 'Rosa Pupil' });

  // The teacher signs in through the school too, then makes a course and imports a class list.
  const staff = await browser.newContext({ baseURL: server.baseUrl });
  const teacher = await staff.newPage();
  await teacher.goto('/login');
  await teacher.getByRole('link', { name: 'Sign in with Northfield School' }).click();
  await teacher.getByLabel('School login').fill('tess');
  await teacher.getByRole('button', { name: 'Sign in' }).click();
  await expect(teacher).toHaveURL(/\/dashboard$/);
  const refreshed = await staff.request.post('/api/auth/refresh');
  const { session } = (await refreshed.json()) as { session: { accessToken: string } };
  const headers = { authorization: `Bearer ${session.accessToken}` };
  const made = await staff.request.post('/api/courses', {
    headers,
    data: {
      title: `Botany ${stamp}`,
      code: `BOT${stamp}`.slice(0, 10).toUpperCase(),
      description: 'Plants.',
    },
  });
  expect(made.status()).toBe(201);
  const course = (await made.json()) as { id: string; joinCode: string };
  const imported = await staff.request.post(`/api/courses/${course.id}/roster-import`, {
    headers,
    data: { csv: `name,email\nRosa Pupil,${pupil}\n` },
  });
  expect(imported.status()).toBe(200);
  await staff.close();

  // The student opens the join link signed out: the login page keeps it, through the school's page.
  const own = await browser.newContext({ baseURL: server.baseUrl });
  const page = await own.newPage();
  await page.goto(`/join/${course.joinCode}`);
  await expect(page).toHaveURL(/\/login\?next=/);
  await page.getByRole('link', { name: 'Sign in with Northfield School' }).click();
  await page.getByLabel('School login').fill('rosa');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(new RegExp(`/join/${course.joinCode}$`));
  // Her verified address was on the class list: she is in it, with nothing left to click.
  await expect(page.getByText('You are in this class')).toBeVisible();
  await screenshots(page, 'oidc-roster-join-link');
  await page.getByRole('link', { name: 'Open the course' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Botany ${stamp}` })).toBeVisible();
  await own.close();
});
