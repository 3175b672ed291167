import { expect, test, type Locator, type Page } from '@playwright/test';
import {
  classOfTwo,
  createAssignmentByApi,
  navTo,
  screenshots,
  signUpAndSignIn,
  uniqueEmail,
} from './support.js';

/** Presses Tab until `target` has focus (at most `limit` times): what a keyboard user does. */
async function tabTo(page: Page, target: Locator, limit = 25): Promise<void> {
  for (let i = 0; i < limit; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error('could not reach the element with Tab');
}

const focusIsInside = (dialog: Locator) => dialog.evaluate((el) => el.contains(document.activeElement));

test.describe('keyboard and dialogs', () => {
  test('a teacher creates a course with the keyboard alone; the dialog keeps focus and Escape closes it', async ({
    page,
  }) => {
    await signUpAndSignIn(page, { fullName: 'Kay Teacher', role: 'Teacher', email: uniqueEmail('kay') });
    await navTo(page, 'Courses');
    const open = page.getByRole('button', { name: 'Create Course' }).first();
    await tabTo(page, open);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Create Course' });
    await expect(dialog).toBeVisible();
    expect(await focusIsInside(dialog)).toBe(true);

    // Focus stays in the dialog however far one tabs, forwards or backwards.
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab');
      expect(await focusIsInside(dialog)).toBe(true);
    }
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Shift+Tab');
      expect(await focusIsInside(dialog)).toBe(true);
    }
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(open).toBeFocused();

    await page.keyboard.press('Enter');
    await expect(dialog).toBeVisible();
    await tabTo(page, dialog.getByLabel('Course Title'));
    await page.keyboard.type('Keyboard Studies');
    await tabTo(page, dialog.getByLabel('Course Code'));
    await page.keyboard.type('KB101');
    await tabTo(page, dialog.getByLabel('Description'));
    await page.keyboard.type('Everything without a mouse.');
    await tabTo(page, dialog.getByRole('button', { name: 'Create Course' }));
    await page.keyboard.press('Enter');
    await expect(page.getByText('Course created successfully!')).toBeVisible();
    await expect(page.getByRole('list', { name: 'Courses' }).getByText('Keyboard Studies')).toBeVisible();
  });

  test('a student submits an assignment with the keyboard alone, and sees the dashboard for students', async ({
    browser,
  }) => {
    // The class through the API: the student's keyboard is this journey's subject (the teacher's
    // is the one above).
    const {
      teacher,
      student: page,
      teacherAuth,
      courseId,
      close,
    } = await classOfTwo(
      browser,
      { teacher: 'Kit Teacher', student: 'Kim Student' },
      { title: 'Typing', code: 'TY120', description: 'Touch typing.' },
    );
    await createAssignmentByApi(teacher, teacherAuth, {
      title: 'Home row drills',
      courseId,
      dueDate: new Date(Date.now() + 3 * 86_400_000).toISOString(),
    });
    // A fresh load: the dashboard opened at sign-in is from before the class was joined.
    await page.reload();
    const overview = page.getByRole('region', { name: 'Overview' });
    for (const label of ['Total Courses', 'Active Assignments', 'Upcoming Classes', 'Team Members']) {
      await expect(overview.getByText(label)).toBeVisible();
    }
    const events = page.getByRole('region', { name: 'Upcoming Events' });
    await expect(events.getByText('Typing').first()).toBeVisible();
    for (const action of ['Browse Courses', 'View Assignments', 'Join Live Class', 'Ask AI Assistant']) {
      await expect(page.getByRole('link', { name: action })).toBeVisible();
    }
    await screenshots(page, 'dashboard-student');

    await page.getByRole('link', { name: 'View Assignments' }).click();
    await expect(page).toHaveURL(/\/assignments$/);
    const card = page
      .getByRole('list', { name: 'Assignments' })
      .getByRole('listitem')
      .filter({ hasText: 'Typing' })
      .first();
    const submitButton = card.getByRole('button', { name: 'Submit' });
    await tabTo(page, submitButton, 60);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Submit Assignment' });
    await expect(dialog).toBeVisible();
    await tabTo(page, dialog.getByLabel('Your Submission'));
    await page.keyboard.type('Typed, not clicked.');
    await tabTo(page, dialog.getByRole('button', { name: 'Submit' }));
    await page.keyboard.press('Enter');
    await expect(page.getByText('Assignment submitted!')).toBeVisible();
    await expect(card).toContainText('Submitted');
    // The Submit button is gone; focus is on the card's new status, not dropped to <body>.
    await expect.poll(() => card.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    await expect(page.locator(':focus')).toContainText('Submitted');
    await close();
  });
});
