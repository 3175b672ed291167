import { expect, test, type Page } from '@playwright/test';
import { classCodeOf, joinClass, navTo, signUpAndSignIn, uniqueEmail } from './support.js';

/**
 * Stored text that looks like HTML shows as text: every field a user types reaches other users'
 * screens, so each is made of markup and script that would run if anything rendered it as HTML.
 * Each one names itself in `window.__pwned`, so a failure says which field got through.
 */
const HOSTILE = {
  courseTitle: `<img src=x onerror="window.__pwned='course title'">`,
  // Upper case: codes are stored upper-cased (issue 17), and markup must still show as text.
  courseCode: '<B>BOLD</B>',
  courseDescription: `<b>bold</b> & <script>window.__pwned='course description'</script>`,
  assignmentTitle: `<b>bold</b> <img src=x onerror="window.__pwned='assignment title'">`,
  assignmentDescription: `<svg onload="window.__pwned='assignment description'"></svg><i>not italic</i>`,
  studentName: `<i>Ivy</i> <img src=x onerror="window.__pwned='name'">`,
  submission: `<img src=x onerror="window.__pwned='submission'"><b>bold answer</b>`,
  feedback: `<a href="javascript:window.__pwned='feedback'">click</a> <b>bold</b> <iframe srcdoc="<script>parent.__pwned='iframe'</script>"></iframe>`,
};

/** A local 'YYYY-MM-DDTHH:mm' for a datetime-local input, `days` from now. */
const localDateTime = (days: number) => {
  const d = new Date(Date.now() + days * 86_400_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

/** Nothing the users typed became an element, an attribute or a script that ran. */
async function expectInert(page: Page) {
  expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
  await expect(page.locator('img[src="x"], iframe, [onerror], [onload], [srcdoc]')).toHaveCount(0);
  await expect(page.locator('a[href^="javascript:"]')).toHaveCount(0);
  await expect(page.locator('script', { hasText: '__pwned' })).toHaveCount(0);
  await expect(page.locator('b, i').filter({ hasText: /^(bold|bold answer|not italic|Ivy)$/ })).toHaveCount(
    0,
  );
}

test('text that looks like HTML is shown as typed, and none of it runs', async ({ browser }) => {
  const teacherContext = await browser.newContext();
  const studentContext = await browser.newContext();
  const teacher = await teacherContext.newPage();
  const student = await studentContext.newPage();
  // The two sign up side by side; the student's page waits on the dashboard until the class exists.
  await Promise.all([
    signUpAndSignIn(teacher, { fullName: 'Wary Teacher', role: 'Teacher', email: uniqueEmail('wary') }),
    signUpAndSignIn(student, { fullName: HOSTILE.studentName, role: 'Student', email: uniqueEmail('ivy') }),
  ]);

  // The course, on its card and its own page.
  await navTo(teacher, 'Courses');
  await teacher.getByRole('button', { name: 'Create Course' }).first().click();
  const courseDialog = teacher.getByRole('dialog', { name: 'Create Course' });
  await courseDialog.getByLabel('Course Title').fill(HOSTILE.courseTitle);
  await courseDialog.getByLabel('Course Code').fill(HOSTILE.courseCode);
  await courseDialog.getByLabel('Description').fill(HOSTILE.courseDescription);
  await courseDialog.getByRole('button', { name: 'Create Course' }).click();
  await expect(teacher.getByText('Course created successfully!')).toBeVisible();
  const courseCard = teacher
    .getByRole('list', { name: 'Courses' })
    .getByRole('listitem')
    .filter({ hasText: HOSTILE.courseTitle });
  await expect(courseCard).toHaveCount(1);
  await expect(courseCard).toContainText(HOSTILE.courseDescription);
  await expect(courseCard).toContainText(HOSTILE.courseCode);
  await expectInert(teacher);
  await courseCard.getByRole('link', { name: 'View Course' }).click();
  await expect(teacher.getByRole('heading', { name: HOSTILE.courseTitle, level: 1 })).toBeVisible();
  await expect(teacher.getByText(HOSTILE.courseDescription).first()).toBeVisible();
  await expectInert(teacher);

  // The assignment, on its card, in the course's select and on the dashboard.
  await navTo(teacher, 'Assignments');
  await teacher.getByRole('button', { name: 'Create Assignment' }).click();
  const create = teacher.getByRole('dialog', { name: 'Create Assignment' });
  await create.getByLabel('Title').fill(HOSTILE.assignmentTitle);
  await create.getByLabel('Description').fill(HOSTILE.assignmentDescription);
  await create.getByLabel('Course').selectOption({ label: `${HOSTILE.courseTitle} (${HOSTILE.courseCode})` });
  await create.getByLabel('Due Date').fill(localDateTime(1));
  await create.getByLabel('Max Points').fill('10');
  await create.getByRole('button', { name: 'Create Assignment' }).click();
  await expect(teacher.getByText('Assignment created!')).toBeVisible();
  const teacherCard = teacher
    .getByRole('list', { name: 'Assignments' })
    .getByRole('listitem')
    .filter({ hasText: HOSTILE.assignmentTitle });
  await expect(teacherCard).toContainText(HOSTILE.assignmentDescription);
  await expectInert(teacher);
  await navTo(teacher, 'Dashboard');
  await expect(
    teacher.getByRole('region', { name: 'Upcoming Events' }).getByText(HOSTILE.assignmentTitle),
  ).toBeVisible();
  await expectInert(teacher);

  // A student with a name made of markup sees all of it, and submits an answer made of markup.
  await expect(student.getByText(HOSTILE.studentName).first()).toBeVisible();
  await expectInert(student);
  await joinClass(student, await classCodeOf(teacher, HOSTILE.courseTitle));
  await expectInert(student);
  await navTo(student, 'Courses');
  await expect(student.getByText(HOSTILE.courseTitle).first()).toBeVisible();
  await expectInert(student);
  await navTo(student, 'Assignments');
  const studentCard = student
    .getByRole('list', { name: 'Assignments' })
    .getByRole('listitem')
    .filter({ hasText: HOSTILE.assignmentTitle });
  await expect(studentCard).toContainText(HOSTILE.assignmentDescription);
  await studentCard.getByRole('button', { name: 'Submit' }).click();
  const submit = student.getByRole('dialog', { name: 'Submit Assignment' });
  await submit.getByLabel('Your Submission').fill(HOSTILE.submission);
  await submit.getByRole('button', { name: 'Submit' }).click();
  await expect(student.getByText('Assignment submitted!')).toBeVisible();
  await expectInert(student);

  // The teacher reads it, with the student's name, and answers with feedback made of markup.
  await navTo(teacher, 'Assignments');
  await teacherCard.getByRole('button', { name: /View Submissions/ }).click();
  const submissions = teacher.getByRole('dialog', { name: /Submissions for/ });
  await expect(submissions.getByText(HOSTILE.submission)).toBeVisible();
  await expect(submissions.getByText(HOSTILE.studentName).first()).toBeVisible();
  await expectInert(teacher);
  await submissions.getByLabel('Points').fill('7');
  await submissions.getByLabel('Feedback').fill(HOSTILE.feedback);
  await submissions.getByRole('button', { name: 'Save grade' }).click();
  await expect(teacher.getByText('Grade saved')).toBeVisible();
  await expectInert(teacher);

  // The grade and feedback arrive live, and stay text after a reload.
  await expect(studentCard).toContainText('Grade: 7/10');
  await expect(studentCard).toContainText(HOSTILE.feedback);
  await expectInert(student);
  await student.reload();
  await expect(studentCard).toContainText(HOSTILE.feedback);
  await expectInert(student);

  await teacherContext.close();
  await studentContext.close();
});
