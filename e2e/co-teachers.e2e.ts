import { expect, test, type Page } from '@playwright/test';
import {
  createAssignmentByApi,
  createCourseByApi,
  joinByApi,
  navTo,
  screenshots,
  signUpAndSignIn,
  teacherInviteLinkFor,
  uniqueEmail,
} from './support.js';

const courseCard = (page: Page, course: string) =>
  page.getByRole('list', { name: 'Courses' }).getByRole('article').filter({ hasText: course });

async function openCourse(page: Page, course: string) {
  await page.goto('/courses');
  await courseCard(page, course).getByRole('link', { name: 'View Course' }).click();
  await expect(page.getByRole('heading', { level: 1, name: course })).toBeVisible();
}

async function openGradebook(page: Page, course: string) {
  await openCourse(page, course);
  await page.getByRole('link', { name: 'Gradebook' }).click();
  return page.getByRole('grid', { name: `Gradebook for ${course}` });
}

test.describe('co-teachers (DESIGN §20)', () => {
  // Three people sign up and a class is built first.
  test.describe.configure({ timeout: 150_000 });

  test('the owner invites a co-teacher, who accepts from the mailed link and grades live beside them', async ({
    browser,
  }) => {
    const page = async () => (await browser.newContext()).newPage();
    const [owner, co, student] = [await page(), await page(), await page()];
    const coEmail = uniqueEmail('co-teacher');
    // The three sign up side by side and the class is made through the API (its forms are
    // teaching.e2e.ts's and classes.e2e.ts's subject); co-teaching is done on screen.
    const [ownerAuth, , studentAuth] = await Promise.all([
      signUpAndSignIn(owner, { fullName: 'Olive Owner', role: 'Teacher', email: uniqueEmail('owner') }),
      signUpAndSignIn(co, { fullName: 'Cora Coteacher', role: 'Teacher', email: coEmail }),
      signUpAndSignIn(student, { fullName: 'Sid Student', role: 'Student', email: uniqueEmail('sid') }),
    ]);
    const course = 'Team Biology';
    const { id: courseId, joinCode } = await createCourseByApi(owner, ownerAuth, {
      title: course,
      code: `CT${Date.now().toString(36).slice(-5).toUpperCase()}`,
      description: 'Taught by two teachers.',
    });
    await joinByApi(student, studentAuth, joinCode);

    // The owner invites by e-mail from the course page.
    await openCourse(owner, course);
    const teachers = owner.getByRole('region', { name: 'Teachers' });
    await teachers.getByLabel('Invite a co-teacher').fill(coEmail);
    await teachers.getByRole('button', { name: 'Send invitation' }).click();
    await expect(teachers.getByRole('listitem', { name: `Invited: ${coEmail}` })).toBeVisible();
    // Sent: the field is cleared for the next address.
    await expect(teachers.getByLabel('Invite a co-teacher')).toHaveValue('');
    await screenshots(owner, 'co-teachers-invited');

    // The co-teacher opens the mailed link and accepts.
    await co.goto(await teacherInviteLinkFor(coEmail));
    await expect(co.getByRole('heading', { level: 1, name: course })).toBeVisible();
    await expect(co.getByText('Olive Owner')).toBeVisible();
    await screenshots(co, 'co-teachers-invitation');
    await co.getByRole('button', { name: 'Accept and co-teach' }).click();
    await expect(co.getByRole('heading', { level: 1, name: course })).toBeVisible();
    await expect(co).toHaveURL(/\/courses\/[0-9a-f-]{36}$/);
    // The course page names both teachers, the owner first.
    await expect(co.getByRole('region', { name: 'Instructors' }).getByRole('listitem')).toHaveText([
      /Olive Owner\s*Owner/,
      /Cora Coteacher\s*Co-teacher/,
    ]);
    await screenshots(co, 'co-teachers-instructors');
    // The owner's open page follows, live: the invitation became a co-teacher.
    await expect(teachers.getByRole('listitem', { name: 'Cora Coteacher' })).toContainText('Co-teacher');
    await expect(teachers.getByRole('listitem', { name: `Invited: ${coEmail}` })).toBeHidden();
    await screenshots(owner, 'co-teachers-list');

    // The owner sets work (through the API: the form is other journeys' subject); the student hands it in.
    await createAssignmentByApi(owner, ownerAuth, {
      title: 'Cell diagram',
      courseId,
      dueDate: new Date(Date.now() + 2 * 86_400_000).toISOString(),
      maxPoints: 10,
    });
    await navTo(student, 'Assignments');
    await student
      .getByRole('list', { name: 'Assignments' })
      .getByRole('listitem')
      .filter({ hasText: 'Cell diagram' })
      .getByRole('button', { name: 'Submit' })
      .click();
    const submit = student.getByRole('dialog', { name: 'Submit Assignment' });
    await submit.getByLabel('Your Submission').fill('The nucleus, the membrane and the mitochondria.');
    await submit.getByRole('button', { name: 'Submit' }).click();
    await expect(student.getByText('Assignment submitted!')).toBeVisible();

    // Both teachers open the gradebook; the co-teacher grades, the owner's tab sees it arrive.
    const [ownerGrid, coGrid] = await Promise.all([openGradebook(owner, course), openGradebook(co, course)]);
    const cellIn = (grid: typeof ownerGrid) =>
      grid.getByRole('gridcell', { name: /^Sid Student, Cell diagram:/ });
    await expect(cellIn(ownerGrid)).toHaveAccessibleName('Sid Student, Cell diagram: not graded');
    await cellIn(coGrid).focus();
    await co.keyboard.press('Enter');
    await coGrid.getByRole('textbox', { name: /Grade for Sid Student/ }).fill('9');
    await co.keyboard.press('Enter');
    await expect(coGrid.getByText('Saved')).toBeVisible();
    await expect(cellIn(ownerGrid)).toHaveAccessibleName(/^Sid Student, Cell diagram: 9 of 10/);
    await screenshots(owner, 'co-teachers-gradebook-owner');

    // The co-teacher's course list marks the course as co-taught, with no delete.
    await co.goto('/courses');
    const card = courseCard(co, course);
    await expect(card.getByText('Co-teaching')).toBeVisible();
    await expect(card.getByRole('button', { name: 'Delete course' })).toHaveCount(0);
    await screenshots(co, 'co-teachers-courses');

    // The owner cancels an invitation sent to a wrong address.
    await openCourse(owner, course);
    await teachers.getByLabel('Invite a co-teacher').fill('wrong.address@school.test');
    await teachers.getByRole('button', { name: 'Send invitation' }).click();
    const wrong = teachers.getByRole('listitem', { name: 'Invited: wrong.address@school.test' });
    await expect(wrong).toBeVisible();
    await screenshots(owner, 'co-teachers-pending-cancel');
    await wrong.getByRole('button', { name: 'Cancel the invitation to wrong.address@school.test' }).click();
    await owner.getByRole('alertdialog').getByRole('button', { name: 'Cancel invitation' }).click();
    await expect(wrong).toBeHidden();

    // The co-teacher leaves by themselves; the owner's open page follows, live.
    await openCourse(co, course);
    await co.getByRole('button', { name: 'Leave this course' }).click();
    await screenshots(co, 'co-teachers-leave-confirm');
    await co.getByRole('alertdialog').getByRole('button', { name: 'Leave course' }).click();
    await expect(co).toHaveURL(/\/courses$/);
    await expect(courseCard(co, course)).toBeHidden();
    await expect(teachers.getByRole('listitem', { name: 'Cora Coteacher' })).toBeHidden();
  });
});
