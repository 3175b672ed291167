import { expect, test } from '@playwright/test';
import { createCourseByApi, joinLinkFor, screenshots, signUpAndSignIn, uniqueEmail } from './support.js';

test('a teacher imports a roster: checks the file, invites, and the same file again changes nothing', async ({
  page,
}) => {
  const auth = await signUpAndSignIn(page, {
    fullName: 'Rory Teacher',
    role: 'Teacher',
    email: uniqueEmail('rory'),
  });
  // The course through the API (its form is teaching.e2e.ts's subject), then its page.
  const { id } = await createCourseByApi(page, auth, {
    title: 'Roster Biology',
    code: 'RB101',
    description: 'Cells.',
  });
  await page.goto(`/courses/${id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Roster Biology' })).toBeVisible();

  const [ana, bob] = [uniqueEmail('ana'), uniqueEmail('bob')];
  const csv = `\uFEFFName,Email\n"Pupil, Ana",${ana}\n"=cmd|' /C calc'!A0",${bob}\nAna Again,${ana}\nNo Address,\n`;
  const open = async () => {
    await page.getByRole('region', { name: 'Roster' }).getByRole('button', { name: 'Import roster' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import roster' });
    await dialog.getByRole('textbox', { name: 'CSV', exact: true }).fill(csv);
    await dialog.getByRole('button', { name: 'Check the file' }).click();
    return dialog;
  };

  const dialog = await open();
  await expect(dialog.getByRole('status')).toHaveText(
    '2 students to invite, 0 invitations to update, 0 unchanged.',
  );
  await expect(dialog.getByText(`=cmd|' /C calc'!A0 <${bob}>`)).toBeVisible();
  await expect(dialog.getByText(`${ana}: rows 2, 4`)).toBeVisible();
  await expect(dialog.getByText('Row 5: no e-mail address')).toBeVisible();
  await screenshots(page, 'roster-import-dry-run');
  await dialog.getByRole('button', { name: 'Invite 2 and update 0' }).click();
  await expect(page.getByText('Invited 2 students by e-mail.')).toBeVisible();
  expect(await joinLinkFor(bob)).toMatch(/\/join\/[A-Z0-9]{4}-[A-Z0-9]{4}$/);

  const again = await open();
  await expect(again.getByRole('status')).toHaveText(
    '0 students to invite, 0 invitations to update, 2 unchanged.',
  );
  await expect(again.getByRole('button', { name: 'Nothing to change' })).toBeDisabled();
  await screenshots(page, 'roster-import-again');
});
