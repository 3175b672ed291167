import { expect, test } from '@playwright/test';
import {
  classOfTwo,
  createAssignmentByApi,
  navTo,
  screenshots,
  signUpAndSignIn,
  uniqueEmail,
} from './support.js';

/** A local 'YYYY-MM-DDTHH:mm' for a datetime-local input, `days` from now. */
const localDateTime = (days: number) => {
  const d = new Date(Date.now() + days * 86_400_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

test.describe('teaching', () => {
  test('a teacher creates, searches, samples and deletes courses and assignments', async ({ page }) => {
    await signUpAndSignIn(page, { fullName: 'Grace Hopper', role: 'Teacher', email: uniqueEmail('grace') });
    await navTo(page, 'Courses');
    // Every teacher sees every course, and other journeys share this server: the empty state is
    // covered by the component tests.
    await expect(page.getByRole('heading', { name: 'Courses', level: 1 })).toBeVisible();

    await page.getByRole('button', { name: 'Create Course' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Create Course' });
    await dialog.getByLabel('Course Title').fill('Compilers');
    await dialog.getByLabel('Course Code').fill('CS401');
    await dialog.getByLabel('Description').fill('Parsing, type checking and code generation.');
    await screenshots(page, 'create-course');
    await dialog.getByRole('button', { name: 'Create Course' }).click();
    await expect(page.getByText('Course created successfully!')).toBeVisible();
    await expect(dialog).toBeHidden();

    // Samples go to one new sandbox course, after saying so (DESIGN §17).
    await page.getByRole('button', { name: 'Generate Samples' }).click();
    const askSamples = page.getByRole('alertdialog', { name: 'Create a sample course?' });
    await expect(askSamples).toContainText('It has no students, so nobody is notified');
    await askSamples.getByRole('button', { name: 'Create sample course' }).click();
    await expect(page.getByText('Sample course created, with three assignments')).toBeVisible();
    const cards = page.getByRole('list', { name: 'Courses' }).getByRole('listitem');
    await expect(cards.filter({ hasText: 'Grace Hopper' })).toHaveCount(2);
    await expect(cards.filter({ hasText: '(sample)' })).toHaveCount(1);
    await screenshots(page, 'courses-teacher');

    await page.getByLabel('Search courses').fill('compilers');
    await expect(cards.filter({ hasText: 'Grace Hopper' })).toHaveCount(1);
    await page.getByLabel('Search courses').fill('no such course');
    await expect(page.getByText('No courses found')).toBeVisible();
    await expect(page.getByText('Try adjusting your search')).toBeVisible();
    await page.getByLabel('Search courses').fill('');

    await cards.filter({ hasText: 'Compilers' }).getByRole('link', { name: 'View Course' }).click();
    await expect(page.getByRole('heading', { name: 'Compilers', level: 1 })).toBeVisible();
    await expect(page.getByText('No assignments for this course yet.')).toBeVisible();
    await expect(page.getByText('Course Materials (Coming Soon)')).toBeVisible();
    await screenshots(page, 'course-detail');

    await navTo(page, 'Assignments');
    await page.getByRole('button', { name: 'Create Assignment' }).click();
    const create = page.getByRole('dialog', { name: 'Create Assignment' });
    await create.getByLabel('Title').fill('Write a tiny parser');
    await create.getByLabel('Course').selectOption({ label: 'Compilers (CS401)' });
    await create.getByLabel('Due Date').fill(localDateTime(3));
    await create.getByLabel('Max Points').fill('20');
    await screenshots(page, 'create-assignment');
    await create.getByRole('button', { name: 'Create Assignment' }).click();
    await expect(page.getByText('Assignment created!')).toBeVisible();
    const assignments = page.getByRole('list', { name: 'Assignments' }).getByRole('listitem');
    await expect(assignments.filter({ hasText: 'Write a tiny parser' })).toContainText('Active');

    // The sandbox made on the Courses page holds three; a second one here three more.
    await page.getByRole('button', { name: 'Generate Samples' }).click();
    await page
      .getByRole('alertdialog', { name: 'Create a sample course?' })
      .getByRole('button', { name: 'Create sample course' })
      .click();
    // The first sample's toast may still be on screen beside this one's: the seven assignments prove the second.
    await expect(page.getByText('Sample course created, with three assignments').first()).toBeVisible();
    await expect(assignments).toHaveCount(7);
    await screenshots(page, 'assignments-teacher');

    // Compilers has an assignment: the app's dialog names it, and deleting is refused with the spec's message.
    await navTo(page, 'Courses');
    const compilers = cards.filter({ hasText: 'Compilers' });
    await compilers.hover();
    await compilers.getByRole('button', { name: 'Delete course' }).click();
    const askCourse = page.getByRole('alertdialog', { name: 'Delete the course “Compilers”?' });
    await expect(askCourse).toContainText('It moves to the bin with 1 assignment.');
    await expect(askCourse.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await screenshots(page, 'delete-course-confirmation');
    await askCourse.getByRole('button', { name: 'Delete course' }).click();
    await expect(
      page.getByText('Failed to delete course. It might have associated assignments.'),
    ).toBeVisible();
    await expect(compilers).toHaveCount(1);

    // Deleting an assignment moves it to the bin (DESIGN §17); Escape first cancels.
    await navTo(page, 'Assignments');
    const parser = assignments.filter({ hasText: 'Write a tiny parser' });
    await parser.getByRole('button', { name: 'Delete assignment' }).click();
    const askAssignment = page.getByRole('alertdialog', {
      name: 'Delete the assignment “Write a tiny parser”?',
    });
    await expect(askAssignment).toContainText('restore it from the bin for 30 days');
    await page.keyboard.press('Escape');
    await expect(askAssignment).toBeHidden();
    await expect(assignments).toHaveCount(7);
    await parser.getByRole('button', { name: 'Delete assignment' }).click();
    await askAssignment.getByRole('button', { name: 'Delete assignment' }).click();
    await expect(page.getByText('Assignment moved to the bin')).toBeVisible();
    await expect(assignments).toHaveCount(6);

    // The course's page has its bin: restore brings the assignment back.
    await navTo(page, 'Courses');
    await compilers.getByRole('link', { name: 'View Course' }).click();
    const courseBin = page.getByRole('region', { name: 'Bin' });
    const binned = courseBin.getByRole('listitem', { name: 'Write a tiny parser' });
    await expect(binned).toContainText('No student work');
    await expect(binned).toContainText('deleted for good on');
    await screenshots(page, 'course-bin');
    await binned.getByRole('button', { name: 'Restore' }).click();
    await expect(page.getByText('“Write a tiny parser” restored')).toBeVisible();
    await expect(courseBin).toBeHidden();
    await expect(page.getByRole('link', { name: /Write a tiny parser/ })).toBeVisible();

    // A course goes to the bin too, and is found again under the Courses list.
    await navTo(page, 'Courses');
    await page.getByRole('button', { name: 'Create Course' }).first().click();
    await dialog.getByLabel('Course Title').fill('Scratch course');
    await dialog.getByLabel('Course Code').fill('SC100');
    await dialog.getByLabel('Description').fill('Made to be deleted.');
    await dialog.getByRole('button', { name: 'Create Course' }).click();
    const scratch = cards.filter({ hasText: 'Scratch course' });
    await expect(scratch).toHaveCount(1);
    await scratch.hover();
    await scratch.getByRole('button', { name: 'Delete course' }).click();
    const askScratch = page.getByRole('alertdialog', { name: 'Delete the course “Scratch course”?' });
    await expect(askScratch).toContainText('It holds no student work.');
    await askScratch.getByRole('button', { name: 'Delete course' }).click();
    await expect(page.getByText('Course moved to the bin')).toBeVisible();
    await expect(scratch).toHaveCount(0);
    const bin = page.getByRole('region', { name: 'Bin' });
    await bin
      .getByRole('listitem', { name: 'Scratch course' })
      .getByRole('button', { name: 'Restore' })
      .click();
    await expect(page.getByText('“Scratch course” restored')).toBeVisible();
    await expect(scratch).toHaveCount(1);
  });

  test("the dashboard counts the teacher's work and its quick actions open the create dialogs", async ({
    page,
  }) => {
    await signUpAndSignIn(page, { fullName: 'Dana Teacher', role: 'Teacher', email: uniqueEmail('dana') });
    await expect(page.getByText('No upcoming events')).toBeVisible();
    await page.getByRole('link', { name: 'Create New Course' }).click();
    await expect(page).toHaveURL(/\/courses$/);
    const dialog = page.getByRole('dialog', { name: 'Create Course' });
    await dialog.getByLabel('Course Title').fill('Statistics');
    await dialog.getByLabel('Course Code').fill('MA210');
    await dialog.getByLabel('Description').fill('Data, distributions and inference.');
    await dialog.getByRole('button', { name: 'Create Course' }).click();
    await expect(page.getByText('Course created successfully!')).toBeVisible();

    await navTo(page, 'Dashboard');
    await page.getByRole('link', { name: 'Add Assignment' }).click();
    await expect(page).toHaveURL(/\/assignments$/);
    const create = page.getByRole('dialog', { name: 'Create Assignment' });
    await create.getByLabel('Title').fill('Survey design');
    await create.getByLabel('Course').selectOption({ label: 'Statistics (MA210)' });
    await create.getByLabel('Due Date').fill(localDateTime(1));
    await create.getByRole('button', { name: 'Create Assignment' }).click();
    await expect(page.getByText('Assignment created!')).toBeVisible();

    await navTo(page, 'Dashboard');
    const overview = page.getByRole('region', { name: 'Overview' });
    await expect(overview.getByText('Total Courses')).toBeVisible();
    await expect(overview.getByText('Active Assignments')).toBeVisible();
    const events = page.getByRole('region', { name: 'Upcoming Events' });
    await expect(events.getByText('Survey design')).toBeVisible();
    await expect(events.getByText(/Tomorrow, \d{1,2}:\d{2} (AM|PM)/)).toBeVisible();
    await screenshots(page, 'dashboard-teacher-full');
  });

  test('a student browses, submits once, and sees the badge change', async ({ browser }) => {
    // The class through the API: the teacher's forms are the two journeys above.
    const { teacher, student, teacherAuth, courseId, close } = await classOfTwo(
      browser,
      { teacher: 'Tom Teacher', student: 'Sara Student' },
      { title: 'Poetry', code: 'EN150', description: 'Reading and writing poems.' },
    );
    await createAssignmentByApi(teacher, teacherAuth, {
      title: 'A sonnet of your own',
      courseId,
      dueDate: new Date(Date.now() + 5 * 86_400_000).toISOString(),
    });
    await navTo(student, 'Courses');
    await student.getByLabel('Search courses').fill('en150');
    await expect(student.getByRole('list', { name: 'Courses' }).getByRole('listitem')).toHaveCount(1);
    await screenshots(student, 'courses-student');
    await navTo(student, 'Assignments');
    const card = student
      .getByRole('list', { name: 'Assignments' })
      .getByRole('listitem')
      .filter({ hasText: 'A sonnet of your own' });
    await expect(card).toContainText('Active');
    await card.getByRole('button', { name: 'Submit' }).click();
    const submit = student.getByRole('dialog', { name: 'Submit Assignment' });
    await submit.getByLabel('Your Submission').fill('Shall I compare thee to a summer’s day?');
    await screenshots(student, 'submit-assignment');
    await submit.getByRole('button', { name: 'Submit' }).click();
    await expect(student.getByText('Assignment submitted!')).toBeVisible();
    await expect(card).toContainText('Submitted');
    await expect(card.getByRole('button', { name: 'View Submission' })).toBeVisible();
    await screenshots(student, 'assignments-student');
    await close();
  });
});
