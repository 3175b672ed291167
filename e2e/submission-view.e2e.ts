import { expect, test, type Page } from '@playwright/test';
import {
  createAssignmentByApi,
  createCourseByApi,
  joinByApi,
  navTo,
  RETURN_CONFIRMED_MS,
  screenshots,
  signUpAndSignIn,
  uniqueEmail,
} from './support.js';

/**
 * A student can read back what they handed in (DESIGN §17): the text as sent, the receipt the
 * submit's toast gave, and the grade only once the teacher returns it, live in the open dialog.
 */

const ANSWER = 'Photosynthesis needs light.\n\n  Step 1: chlorophyll absorbs it.\nمرحبا';

const cardOf = (page: Page, title: string) =>
  page.getByRole('list', { name: 'Assignments' }).getByRole('listitem').filter({ hasText: title });

test.describe('a student reads back their submission', () => {
  // The journey signs up two people and builds a class first.
  test.describe.configure({ timeout: 120_000 });

  test('sees their text and receipt, and the grade once returned', async ({ browser }) => {
    const teacher = await (await browser.newContext()).newPage();
    const student = await (await browser.newContext()).newPage();
    // Side by side, and the class through the API: reading back the work is this journey's subject.
    const [teacherAuth, studentAuth] = await Promise.all([
      signUpAndSignIn(teacher, { fullName: 'View Teacher', role: 'Teacher', email: uniqueEmail('view-t') }),
      signUpAndSignIn(student, { fullName: 'View Student', role: 'Student', email: uniqueEmail('view-s') }),
    ]);
    const { id: courseId, joinCode } = await createCourseByApi(teacher, teacherAuth, {
      title: 'View Course',
      code: `VW${Date.now().toString(36).slice(-5).toUpperCase()}`,
      description: 'Reading back one’s work.',
    });
    await joinByApi(student, studentAuth, joinCode);

    // Grades wait for Return, so the student's dialog must show none until then.
    await createAssignmentByApi(teacher, teacherAuth, {
      title: 'Plant report',
      courseId,
      dueDate: new Date(Date.now() + 2 * 86_400_000).toISOString(),
      maxPoints: 10,
      gradeRelease: 'manual',
    });

    await navTo(student, 'Assignments');
    await cardOf(student, 'Plant report').getByRole('button', { name: 'Submit' }).click();
    const answer = student.getByRole('dialog', { name: 'Submit Assignment' });
    await answer.getByLabel('Your Submission').fill(ANSWER);
    await answer.getByRole('button', { name: 'Submit' }).click();
    const toast = student.getByText(/^Receipt [0-9A-F]{4}-[0-9A-F]{4} · \d\d:\d\d:\d\d$/);
    await expect(toast).toBeVisible();
    const [, receipt, time] = /^Receipt (\S+) · (\S+)$/.exec((await toast.textContent())!)!;

    await cardOf(student, 'Plant report').getByRole('button', { name: 'View Submission' }).click();
    const view = student.getByRole('dialog', { name: 'Your Submission' });
    const text = view.getByRole('region', { name: 'Your answer' });
    // Exactly as sent: line breaks, blank line and leading spaces kept.
    await expect.poll(() => text.textContent()).toBe(ANSWER);
    await expect(text).toHaveCSS('white-space', 'pre-wrap');
    await expect(view.locator('dd').getByText(receipt!, { exact: true })).toBeVisible();
    await expect(view.locator('dd time')).toContainText(time!);
    await expect(view.getByRole('region', { name: 'History' }).getByRole('listitem')).toHaveText([
      new RegExp(`^Submitted .*${time} · receipt ${receipt}$`),
    ]);
    await expect(view).not.toContainText('Grade');
    await screenshots(student, 'submission-view');

    // The teacher grades (held) and returns; the open dialog follows only the Return.
    await navTo(teacher, 'Assignments');
    await cardOf(teacher, 'Plant report')
      .getByRole('button', { name: /View Submissions/ })
      .click();
    const submissions = teacher.getByRole('dialog', { name: 'Submissions for Plant report' });
    await submissions.getByLabel('Points').fill('9');
    await submissions.getByLabel('Feedback').fill('Clear and careful.');
    await submissions.getByRole('button', { name: 'Save grade' }).click();
    await expect(teacher.getByText('Grade saved')).toBeVisible();
    await expect(view).not.toContainText('9/10');
    await submissions.getByRole('button', { name: 'Return all graded (1)' }).click();
    await expect(teacher.getByText('1 grade returned to students')).toBeVisible({
      timeout: RETURN_CONFIRMED_MS,
    });

    await expect(view.locator('dd').getByText('9/10', { exact: true })).toBeVisible();
    await expect(view.getByRole('region', { name: 'Teacher feedback' })).toContainText('Clear and careful.');
    await expect(view.locator('.work-status')).toHaveText('Graded · 9/10');

    // Still there after closing and a reload.
    await view.getByRole('button', { name: 'Close', exact: true }).last().click();
    await expect(view).toBeHidden();
    await student.reload();
    await cardOf(student, 'Plant report').getByRole('button', { name: 'View Submission' }).click();
    await expect(view.locator('dd').getByText('9/10', { exact: true })).toBeVisible();
    await expect.poll(() => text.textContent()).toBe(ANSWER);
  });
});
