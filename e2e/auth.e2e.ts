import { expect, test } from '@playwright/test';
import { PASSWORD, screenshots, signUpAndSignIn, uniqueEmail, verificationLinkFor } from './support.js';

test.describe('accounts', () => {
  test('a teacher signs up, confirms the e-mail, signs in, stays signed in across a reload, and signs out', async ({
    page,
  }) => {
    const email = uniqueEmail('teacher');
    // Every socket's catch-up answer, counted (Chromium may report a failed attempt before each
    // page's one socket, which CI once took for the socket itself).
    let caughtUp = 0;
    page.on('websocket', (ws) =>
      ws.on('framereceived', (f) => void (String(f.payload).includes('events:missed') && caughtUp++)),
    );
    // The reads of the reloaded page only: nothing the signed-in page asked for before the reload.
    let counting = false;
    const asked: string[] = [];
    page.on('request', (r) => {
      const path = new URL(r.url()).pathname;
      if (counting && (path === '/api/auth/refresh' || path === '/api/dashboard')) asked.push(path);
    });
    await page.goto('/signup');
    await screenshots(page, 'signup');
    await page.getByLabel('Full name').fill('Grace Hopper');
    await page.getByRole('radio', { name: 'Teacher' }).check();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByRole('heading', { name: 'Verification Email Sent!' })).toBeVisible();
    await expect(page.getByText(email)).toBeVisible();
    await screenshots(page, 'signup-sent');

    await page.goto(await verificationLinkFor(email));
    await expect(page).toHaveURL(/\/login\?verified=1$/);
    await screenshots(page, 'login-verified');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText('Signed in successfully!')).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByText('Welcome to your teacher dashboard')).toBeVisible();
    await expect(
      page.getByRole('heading', { name: /Good (morning|afternoon|evening), Grace/ }),
    ).toBeVisible();
    await screenshots(page, 'dashboard-teacher');

    // The signed-in page settles first: its socket has caught up, and what that fetched again is in
    // (CI counted that refetch, still under way at the reload, as the reloaded page's).
    await expect.poll(() => caughtUp).toBeGreaterThanOrEqual(1);
    await page.waitForTimeout(1000);
    const caughtUpBefore = caughtUp;

    // A reload: the page's own early session check is the one refresh (its inline script allowed
    // by the policy: nothing logged), and the dashboard is fetched once, or twice where the socket's
    // first catch-up found the data moved on since the refresh (the full CI run sees that; which
    // event moved it is still to be found, issue 30).
    const errors: string[] = [];
    page.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())));
    // The zone is read in a worker (off the busy main thread) and reported once the session has started.
    const zoneWorker = page.waitForEvent('worker', { predicate: (w) => w.url().includes('timeZone.worker') });
    const zoneReport = page.waitForRequest(
      (r) => r.method() === 'PUT' && new URL(r.url()).pathname === '/api/me/time-zone',
    );
    counting = true;
    await page.reload();
    await expect(page.getByText('Welcome to your teacher dashboard')).toBeVisible();
    await expect.poll(() => caughtUp).toBeGreaterThan(caughtUpBefore);
    await page.waitForTimeout(500);
    expect(asked.filter((p) => p === '/api/auth/refresh')).toEqual(['/api/auth/refresh']);
    expect(asked.filter((p) => p === '/api/dashboard').length).toBeGreaterThanOrEqual(1);
    expect(asked.filter((p) => p === '/api/dashboard').length).toBeLessThanOrEqual(2);
    expect(errors).toEqual([]);
    const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect((await zoneReport).postDataJSON()).toEqual({ timeZone: zone });
    await zoneWorker;
    // The page asked for the shell's chunks itself (index.html), before its main chunk's script
    // element, not only once that chunk ran (the router's own preload puts its links after it).
    const askedFirst = await page.evaluate(() => {
      const main = document.querySelector('script[type="module"][src*="/index-"]');
      return ['AppLayout', 'common', 'DashboardPage'].map((chunk) => {
        const link = document.querySelector(`head link[rel="modulepreload"][href*="/${chunk}-"]`);
        return !!main && !!link && !!(link.compareDocumentPosition(main) & Node.DOCUMENT_POSITION_FOLLOWING);
      });
    });
    expect(askedFirst).toEqual([true, true, true]);
    const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
    await expect(sidebar.getByText('Grace Hopper')).toBeVisible();
    await expect(sidebar.getByText('teacher', { exact: true })).toBeVisible();

    await sidebar.getByRole('button', { name: 'Sign Out' }).click();
    await expect(page.getByText('Signed out successfully')).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('a wrong password and an unconfirmed address get clear messages, and the link can be sent again', async ({
    page,
  }) => {
    const email = uniqueEmail('student');
    await page.goto('/signup');
    await page.getByLabel('Full name').fill('Sam Student');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByRole('heading', { name: 'Verification Email Sent!' })).toBeVisible();
    await page.getByRole('button', { name: 'Back to Sign In' }).click();
    await expect(page).toHaveURL(/\/login$/);

    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('not the password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText('Invalid login credentials')).toBeVisible();

    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    // Said once, in the notice above the form with its Resend button; no toast repeats it (issue 25).
    await expect(page.getByText('Please verify your e-mail address first.')).toBeVisible();
    await expect(
      page.locator('[data-sonner-toast]').filter({ hasText: /not confirmed|verify/i }),
    ).toHaveCount(0);
    await screenshots(page, 'login-unconfirmed');
    const first = await verificationLinkFor(email);
    await page.getByRole('button', { name: /resend/i }).click();
    await expect.poll(() => verificationLinkFor(email)).not.toBe(first);

    // The first link still works once; used again, it says the account is already verified.
    await page.goto(first);
    await expect(page).toHaveURL(/verified=1/);
    await page.goto(first);
    await expect(page).toHaveURL(/error=already_verified/);
    await expect(page.getByText('Already verified — sign in.')).toBeVisible();
    await screenshots(page, 'login-link-used');
  });

  test('signed-out visitors are sent to /login and signed-in ones away from it; unknown paths go to the dashboard', async ({
    page,
  }) => {
    // They return after signing in to where they were going (the dashboard needs no reminder).
    for (const path of ['/', '/dashboard', '/courses', '/settings', '/no/such/page']) {
      await page.goto(path);
      const next = path === '/' || path === '/dashboard' ? '' : `?next=${encodeURIComponent(path)}`;
      await expect(page).toHaveURL((url) => `${url.pathname}${url.search}` === `/login${next}`);
    }
    await screenshots(page, 'login');
    // A signed-out page loads nothing of the signed-in app ahead.
    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
    await expect(page.locator('link[rel="modulepreload"][href*="/AppLayout-"]')).toHaveCount(0);
    await signUpAndSignIn(page, { fullName: 'Ada Student', role: 'Student', email: uniqueEmail('ada') });
    for (const path of ['/', '/login', '/signup', '/no/such/page']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/dashboard$/);
    }
    await expect(page.getByText('Welcome to your student dashboard')).toBeVisible();
  });

  test('the side navigation collapses, remembers it, and every placeholder says it is coming soon', async ({
    page,
  }) => {
    await signUpAndSignIn(page, { fullName: 'Lin Teacher', role: 'Teacher', email: uniqueEmail('lin') });
    const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
    const nav = sidebar.getByRole('navigation', { name: 'Main' });
    for (const [label, heading] of [
      ['Live Classes', 'Live Classes'],
      ['Teams', 'Teams'],
      ['Messages', 'Messages'],
    ]) {
      await sidebar.getByRole('link', { name: label }).click();
      await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
      await expect(page.getByText(/coming soon/i).first()).toBeVisible();
      await expect(sidebar.getByRole('link', { name: label })).toHaveAttribute('aria-current', 'page');
    }
    await screenshots(page, 'placeholder-messages');
    await expect(nav).toBeVisible();
    const expandedWidth = (await sidebar.boundingBox())!.width;
    expect(Math.round(expandedWidth)).toBe(280);
    await sidebar.getByRole('button', { name: 'Collapse sidebar' }).click();
    await expect.poll(async () => Math.round((await sidebar.boundingBox())!.width)).toBe(80);
    await page.reload();
    await expect(sidebar.getByRole('button', { name: 'Expand sidebar' })).toBeVisible();
    await expect.poll(async () => Math.round((await sidebar.boundingBox())!.width)).toBe(80);
    await screenshots(page, 'sidebar-collapsed');
  });
});
