import { expect, test } from '@playwright/test';
import { PASSWORD, resetLinkFor, screenshots, signUpAndSignIn, switchTo, uniqueEmail } from './support.js';

const NEW_PASSWORD = 'a brand new passphrase';

test.describe('accounts fit for a school', () => {
  test('forgot password: the mailed link sets a new password and signs out the other browser', async ({
    browser,
  }) => {
    const email = uniqueEmail('forgot');
    const elsewhere = await (await browser.newContext()).newPage();
    await signUpAndSignIn(elsewhere, { fullName: 'Forgetful Student', role: 'Student', email });

    const page = await (await browser.newContext()).newPage();
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    // The page's code loads on first visit: until then sign-in (with its own Email field) stays.
    await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible();
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByRole('heading', { name: 'Check your e-mail' })).toBeVisible();

    await page.goto(await resetLinkFor(email));
    await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
    await screenshots(page, 'reset-password');
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Repeat new password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect(page.getByText('Your password has been changed. Sign in with the new one.')).toBeVisible();

    // The other browser's session ended with the reset: it is sent to sign in, live.
    await expect(elsewhere).toHaveURL(/\/login/);

    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('a name change shows live in a second tab', async ({ browser }) => {
    const context = await browser.newContext();
    const first = await context.newPage();
    await signUpAndSignIn(first, {
      fullName: 'Before Rename',
      role: 'Student',
      email: uniqueEmail('rename'),
    });
    const second = await context.newPage();
    await second.goto('/dashboard');
    const sidebarName = second.locator('.sidebar__user-name');
    await expect(sidebarName).toHaveText('Before Rename');

    await (await switchTo(first)).goto('/settings');
    await expect(first.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
    await screenshots(first, 'settings');
    const name = first.getByLabel('Full name');
    await name.fill('After Rename');
    await first.getByRole('button', { name: 'Save name' }).click();
    await expect(first.getByText('Your name has been saved.')).toBeVisible();

    await expect(sidebarName).toHaveText('After Rename');
  });

  test('"Sign out everywhere else" sends the other browser to /login and keeps this one', async ({
    browser,
  }) => {
    const email = uniqueEmail('everywhere');
    const laptop = await (await browser.newContext()).newPage();
    await signUpAndSignIn(laptop, { fullName: 'Two Devices', role: 'Teacher', email });
    const phone = await (await browser.newContext()).newPage();
    await phone.goto('/login');
    await phone.getByLabel('Email').fill(email);
    await phone.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await phone.getByRole('button', { name: 'Sign In' }).click();
    await expect(phone).toHaveURL(/\/dashboard$/);

    await laptop.goto('/settings');
    const sessions = laptop.getByRole('list', { name: 'Signed-in sessions' });
    await expect(sessions.getByRole('listitem')).toHaveCount(2);
    await laptop.getByRole('button', { name: 'Sign out everywhere else' }).click();
    await expect(laptop.getByText('Signed out of 1 other session.')).toBeVisible();

    await expect(phone).toHaveURL(/\/login/);
    await expect(sessions.getByRole('listitem')).toHaveCount(1);
    await laptop.reload();
    await expect(laptop.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  });
});
