import { expect, test, type Browser, type Page } from '@playwright/test';
import { classOfTwo, createAssignmentByApi, navTo, screenshots, switchTo } from './support.js';

const inTwoDays = () => new Date(Date.now() + 2 * 86_400_000);

/**
 * A teacher with a course, and a student of theirs (in their own browser contexts). The two sign up
 * side by side and the class is made through the API: these journeys are about what follows.
 */
async function teacherAndStudent(browser: Browser, name: string) {
  const made = await classOfTwo(
    browser,
    { teacher: `${name} Teacher`, student: `${name} Student` },
    { title: `${name} Course`, code: 'NT101', description: 'A course for the notification tests.' },
  );
  /** A 10-point assignment through the API (the form is walked through in teaching.e2e.ts and live.e2e.ts). */
  const assign = (title: string, due = inTwoDays()) =>
    createAssignmentByApi(made.teacher, made.teacherAuth, {
      title,
      courseId: made.courseId,
      dueDate: due.toISOString(),
      maxPoints: 10,
    });
  return { ...made, assign };
}

const bellOf = (page: Page) => page.getByRole('banner').getByRole('button', { name: /^Notifications/ });

test.describe('notifications, to-do and calendar', () => {
  // Two users each sign up, make or join a class and work: long journeys on a shared machine.
  test.slow();

  test('a student on the Courses page sees the bell count rise when a teacher grades, and the notification opens the assignment', async ({
    browser,
  }) => {
    const { teacher, student, assign, close } = await teacherAndStudent(browser, 'Bell');
    await assign('Lab report');

    await navTo(student, 'Assignments');
    const card = student.getByRole('article', { name: 'Lab report' });
    await card.getByRole('button', { name: 'Submit' }).click();
    const submit = student.getByRole('dialog', { name: 'Submit Assignment' });
    await submit.getByLabel('Your Submission').fill('My lab report.');
    await submit.getByRole('button', { name: 'Submit' }).click();
    await expect(student.getByText('Assignment submitted!')).toBeVisible();

    await navTo(student, 'Courses');
    // The new assignment is unread already; the grade adds one more.
    await expect(bellOf(student)).toHaveAccessibleName('Notifications, 1 unread');

    // The teacher's to-do has the submission to grade.
    await navTo(teacher, 'Dashboard');
    const toGrade = teacher.getByRole('region', { name: /^To grade/ });
    await expect(toGrade.getByRole('link', { name: /Lab report/ })).toBeVisible();
    await screenshots(teacher, 'dashboard-teacher-todo');

    await navTo(teacher, 'Assignments');
    await teacher
      .getByRole('article', { name: 'Lab report' })
      .getByRole('button', { name: /View Submissions/ })
      .click();
    const submissions = teacher.getByRole('dialog', { name: /Submissions for Lab report/ });
    await submissions.getByLabel('Points').fill('9');
    await submissions.getByRole('button', { name: 'Save grade' }).click();
    await expect(teacher.getByText('Grade saved')).toBeVisible();

    await expect(bellOf(student)).toHaveAccessibleName('Notifications, 2 unread');
    await expect(student.getByText('Grade returned: Lab report').first()).toBeVisible(); // the toast
    await bellOf(student).click();
    const inbox = student.getByRole('dialog', { name: 'Notifications' });
    const graded = inbox.getByRole('link', { name: /Grade returned: Lab report/ });
    await expect(graded).toHaveAttribute('href', /^\/assignments\?open=[0-9a-f-]{36}$/);
    await screenshots(student, 'notifications-inbox');
    await graded.click();
    await expect(student).toHaveURL(/\/assignments$/);
    await expect(student.getByRole('article', { name: 'Lab report' })).toBeFocused();
    await expect(bellOf(student)).toHaveAccessibleName('Notifications, 1 unread');
    await close();
  });

  test("reading in one of a student's tabs clears the count in the other", async ({ browser }) => {
    const { student, studentContext, assign, close } = await teacherAndStudent(browser, 'Tabs');
    await assign('Essay');
    const other = await studentContext.newPage();
    await other.goto('/courses');
    await (await switchTo(student)).goto('/dashboard');
    await expect(bellOf(other)).toHaveAccessibleName('Notifications, 1 unread');
    await expect(bellOf(student)).toHaveAccessibleName('Notifications, 1 unread');
    // The student's to-do lists the new work under This week (due in two days).
    await expect(
      student.getByRole('region', { name: /^This week/ }).getByRole('link', { name: /Essay/ }),
    ).toBeVisible();
    await screenshots(student, 'dashboard-student-todo');

    await bellOf(student).click();
    await student
      .getByRole('dialog', { name: 'Notifications' })
      .getByRole('button', { name: 'Mark all read' })
      .click();
    await expect(bellOf(student)).toHaveAccessibleName('Notifications');
    // DESIGN §14: within a second.
    await expect(bellOf(other)).toHaveAccessibleName('Notifications', { timeout: 1_500 });

    await navTo(student, 'Settings');
    await student.getByRole('switch', { name: 'Quiet hours' }).click();
    await expect(student.getByLabel('From')).toHaveValue('21:00');
    await student.getByRole('button', { name: 'Save notification settings' }).click();
    await expect(student.getByText('Notification settings saved.')).toBeVisible();
    await student.reload();
    await expect(student.getByRole('switch', { name: 'Quiet hours' })).toHaveAttribute(
      'aria-checked',
      'true',
    );
    await screenshots(student, 'settings-notifications');
    await close();
  });

  test('the calendar shows a new assignment live, and the feed URL downloads it as .ics', async ({
    browser,
  }) => {
    const { student, assign, close } = await teacherAndStudent(browser, 'Cal');
    const due = inTwoDays();
    await navTo(student, 'Calendar');
    await expect(student.getByRole('heading', { name: 'Calendar', level: 1 })).toBeVisible();
    const monthTitle = due.toLocaleString('en-US', { month: 'long', year: 'numeric' });
    if (!(await student.getByRole('heading', { level: 2, name: monthTitle }).isVisible())) {
      await student.getByRole('button', { name: 'Next month' }).click();
    }
    const grid = student.getByRole('grid', { name: monthTitle });
    await expect(grid).toBeVisible();

    await assign('Field trip', due);
    await expect(grid.getByText('Field trip')).toBeVisible();
    const dayName = due.toLocaleString('en-US', { weekday: 'long', month: 'long', day: 'numeric' });
    await grid.getByRole('button', { name: new RegExp(`^${dayName}.*1 due`) }).click();
    await expect(student.getByRole('link', { name: /Field trip.*Active/ })).toBeVisible();
    await screenshots(student, 'calendar-month');

    await student.getByRole('button', { name: 'Get my feed URL' }).click();
    const field = student.getByRole('textbox', { name: 'Feed URL' });
    await expect(field).toHaveValue(/\/api\/calendar\/[A-Za-z0-9_-]{32,}\.ics$/);
    const url = await field.inputValue();
    const feed = await student.request.get(url);
    expect(feed.status()).toBe(200);
    expect(feed.headers()['content-type']).toContain('text/calendar');
    const ics = await feed.text();
    expect(ics).toContain('BEGIN:VCALENDAR');
    expect(ics).toMatch(/^SUMMARY:.*Field trip/m);
    // A due date is an instant: DTSTART alone (RFC 5545 forbids a DTEND equal to it).
    expect(ics).not.toMatch(/^DTEND/m);

    await student.getByRole('button', { name: 'Reset' }).click();
    await student
      .getByRole('dialog', { name: 'Reset the feed URL?' })
      .getByRole('button', { name: 'Reset URL' })
      .click();
    await expect(field).not.toHaveValue(url);
    expect((await student.request.get(url)).status()).toBe(404);
    await close();
  });
});
