import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { signUpAndSignIn, uniqueEmail } from './support.js';

/** Serious and critical axe findings on the page as it is now, described for the failure message. */
async function seriousViolations(page: Page): Promise<string[]> {
  // Every rule still runs; only the violations are written out node by node (passes and the rest,
  // which this test never reads, are not), which spares some of each scan's time.
  const results = await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test.describe('accessibility', () => {
  test('the public pages have no serious or critical axe findings', async ({ page }) => {
    for (const path of ['/login', '/signup', '/login?error=link_expired', '/login?verified=1']) {
      await page.goto(path);
      await expect(
        page
          .getByRole('heading', { level: 1 })
          .or(page.getByRole('heading', { level: 2 }))
          .first(),
      ).toBeVisible();
      expect(await seriousViolations(page), path).toEqual([]);
    }
  });

  for (const role of ['Teacher', 'Student'] as const) {
    test(`every signed-in route has no serious or critical axe findings for a ${role.toLowerCase()}`, async ({
      page,
    }) => {
      // Nine full page loads, each scanned by axe: more than the default minute on a busy 2-core run.
      test.setTimeout(180_000);
      await signUpAndSignIn(page, {
        fullName: `Axe ${role}`,
        role,
        email: uniqueEmail(`axe-${role.toLowerCase()}`),
      });
      for (const path of [
        '/dashboard',
        '/courses',
        '/assignments',
        '/chatbot',
        '/calendar',
        '/live-classes',
        '/teams',
        '/messages',
        '/settings',
      ]) {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
        expect(await seriousViolations(page), path).toEqual([]);
      }
    });
  }

  test('sign-in can be done with the keyboard alone', async ({ page }) => {
    const email = uniqueEmail('keys');
    await signUpAndSignIn(page, { fullName: 'Key Board', role: 'Student', email });
    await page
      .getByRole('complementary', { name: 'Sidebar' })
      .getByRole('button', { name: 'Sign Out' })
      .click();
    await expect(page).toHaveURL(/\/login$/);
    await page.getByLabel('Email').focus();
    await page.keyboard.type(email);
    await page.keyboard.press('Tab');
    await page.keyboard.type('correct horse battery');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/dashboard$/);
  });
});
