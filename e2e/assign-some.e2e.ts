import { expect, test, type Page } from '@playwright/test';
import { createCourseByApi, joinByApi, navTo, screenshots, signUpAndSignIn, uniqueEmail } from './support.js';

/** A datetime-local value `minutes` from now, in the browser's zone (whole minutes, rounded up). */
const localDateTime = (minutes: number) => {
  const d = new Date(Date.now() + minutes * 60_000);
  d.setSeconds(0, 0);
  d.setMinutes(d.getMinutes() + 1);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

const cards = (page: Page) => page.getByRole('list', { name: 'Assignments' }).getByRole('listitem');
const card = (page: Page, title: string) => cards(page).filter({ hasText: title });

test.describe('assign to some, extend, schedule (DESIGN §20)', () => {
  // Three people sign up and follow three changes live.
  test.describe.configure({ timeout: 120_000 });

  test('a teacher assigns to one of two students, extends their due date and schedules another, all live', async ({
    browser,
  }) => {
    const page = async () => (await browser.newContext()).newPage();
    const [teacher, ada, ben] = [await page(), await page(), await page()];
    // The three sign up side by side and the class is made through the API (its forms are
    // teaching.e2e.ts's and classes.e2e.ts's subject); the assigning is done on screen.
    const [tara, adaAuth, benAuth] = await Promise.all([
      signUpAndSignIn(teacher, { fullName: 'Tara Teacher', role: 'Teacher', email: uniqueEmail('tara') }),
      signUpAndSignIn(ada, { fullName: 'Ada Lovelace', role: 'Student', email: uniqueEmail('ada') }),
      signUpAndSignIn(ben, { fullName: 'Ben Bystander', role: 'Student', email: uniqueEmail('ben') }),
    ]);
    const { joinCode } = await createCourseByApi(teacher, tara, {
      title: 'Chemistry',
      code: `CH${Date.now().toString(36).slice(-5).toUpperCase()}`,
      description: 'Some work for some students.',
    });
    await joinByApi(ada, adaAuth, joinCode);
    await joinByApi(ben, benAuth, joinCode);
    // Both students keep their Assignments page open: what comes, comes live.
    for (const student of [ada, ben]) await navTo(student, 'Assignments');

    // For Ada only.
    await navTo(teacher, 'Assignments');
    await teacher.getByRole('button', { name: 'Create Assignment' }).click();
    const create = teacher.getByRole('dialog', { name: 'Create Assignment' });
    await create.getByLabel('Title').fill('Lab report: titration');
    await create.getByLabel('Due Date').fill(localDateTime(60 * 24));
    await create.getByLabel('Selected students').check();
    await create.getByRole('group', { name: 'Students' }).getByLabel('Ada Lovelace').check();
    await screenshots(teacher, 'assign-some-form');
    await create.getByRole('button', { name: 'Create Assignment' }).click();
    await expect(teacher.getByText('Assignment created!')).toBeVisible();
    await expect(card(teacher, 'Lab report: titration')).toContainText('1 student');

    await expect(card(ada, 'Lab report: titration')).toBeVisible();
    // Ben's page heard nothing of it: a later assignment for everyone arrives, this one never does.
    await teacher.getByRole('button', { name: 'Create Assignment' }).click();
    await create.getByLabel('Title').fill('Safety quiz');
    await create.getByLabel('Due Date').fill(localDateTime(60 * 48));
    await create.getByRole('button', { name: 'Create Assignment' }).click();
    await expect(card(ben, 'Safety quiz')).toBeVisible();
    await expect(card(ben, 'Lab report: titration')).toHaveCount(0);
    await screenshots(ben, 'assign-some-ben');

    // Ada's own due date, from the submissions panel: she sees it live; Ben's stays the class's.
    await card(teacher, 'Lab report: titration').getByRole('button', { name: 'View Submissions' }).click();
    const panel = teacher.getByRole('dialog', { name: 'Submissions for Lab report: titration' });
    const notSubmitted = panel.getByRole('list', { name: 'Not submitted' });
    await expect(notSubmitted.getByText('Ada Lovelace')).toBeVisible();
    await expect(notSubmitted.getByText('Ben Bystander')).toHaveCount(0);
    await notSubmitted.getByRole('button', { name: 'Extend the due date for Ada Lovelace' }).click();
    await notSubmitted.getByLabel('Due date for Ada Lovelace').fill(localDateTime(60 * 24 * 4));
    await screenshots(teacher, 'assign-some-extend');
    await notSubmitted.getByRole('button', { name: 'Save date' }).click();
    await expect(notSubmitted.getByText(/^Extended to /)).toBeVisible();
    await expect(card(ada, 'Lab report: titration')).toContainText('Extended to');
    await screenshots(ada, 'assign-some-ada-extended');
    await panel.getByRole('button', { name: 'Done' }).click();

    // Scheduled for about a minute from now: the teacher sees it marked, the class not yet.
    await teacher.getByRole('button', { name: 'Create Assignment' }).click();
    await create.getByLabel('Title').fill('Pre-lab reading');
    await create.getByLabel('Due Date').fill(localDateTime(60 * 72));
    await create.getByLabel('Schedule: students see it from a later time').check();
    await create.getByLabel('Publish at').fill(localDateTime(1));
    await create.getByRole('button', { name: 'Create Assignment' }).click();
    await expect(teacher.getByText('Assignment scheduled!')).toBeVisible();
    await expect(card(teacher, 'Pre-lab reading')).toContainText('Scheduled for');
    await screenshots(teacher, 'assign-some-teacher-list');
    await expect(card(ada, 'Pre-lab reading')).toHaveCount(0);
    await expect(card(ben, 'Pre-lab reading')).toHaveCount(0);
    // Published by the job at its time: it appears on both open pages without a reload. (The form
    // takes whole minutes; the time is moved to a few seconds from now through the API, as an edit
    // would, so the suite does not wait out a minute.)
    const listed = await teacher.request.get('/api/assignments', { headers: tara });
    const scheduled = ((await listed.json()) as Array<{ id: string; title: string }>).find(
      (a) => a.title === 'Pre-lab reading',
    )!;
    const moved = await teacher.request.patch(`/api/assignments/${scheduled.id}`, {
      headers: tara,
      data: { publishAt: new Date(Date.now() + 3000).toISOString() },
    });
    expect(moved.status(), await moved.text()).toBe(200);
    await expect(card(ben, 'Pre-lab reading')).toBeVisible({ timeout: 30_000 });
    await expect(card(ada, 'Pre-lab reading')).toBeVisible();
    await expect(card(teacher, 'Pre-lab reading')).not.toContainText('Scheduled for');
    await screenshots(ada, 'assign-some-published');
  });
});
