import { expect, test } from '@playwright/test';
import { classCodeOf, joinClass, navTo, screenshots, signUpAndSignIn, uniqueEmail } from './support.js';

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

    await page.getByRole('button', { name: 'Generate Samples' }).click();
    await expect(page.getByText('Sample courses created!')).toBeVisible();
    const cards = page.getByRole('list', { name: 'Courses' }).getByRole('listitem');
    await expect(cards.filter({ hasText: 'Grace Hopper' })).toHaveCount(4);
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

    await page.getByRole('button', { name: 'Generate Samples' }).click();
    await expect(page.getByText('Sample assignments created!')).toBeVisible();
    await expect(assignments).toHaveCount(4);
    await screenshots(page, 'assignments-teacher');

    // Compilers has an assignment: deleting it is refused with the spec's message.
    await navTo(page, 'Courses');
    const compilers = cards.filter({ hasText: 'Compilers' });
    page.once('dialog', (d) => {
      expect(d.message()).toBe('Are you sure you want to delete this course? This action cannot be undone.');
      void d.accept();
    });
    await compilers.hover();
    await compilers.getByRole('button', { name: 'Delete course' }).click();
    await expect(
      page.getByText('Failed to delete course. It might have associated assignments.'),
    ).toBeVisible();
    await expect(compilers).toHaveCount(1);

    await navTo(page, 'Assignments');
    page.once('dialog', (d) => {
      expect(d.message()).toBe('Are you sure you want to delete this assignment?');
      void d.accept();
    });
    await assignments
      .filter({ hasText: 'Write a tiny parser' })
      .getByRole('button', { name: 'Delete assignment' })
      .click();
    await expect(page.getByText('Assignment deleted successfully!')).toBeVisible();
    await expect(assignments).toHaveCount(3);

    // A course with nothing in it is deleted.
    await navTo(page, 'Courses');
    await page.getByRole('button', { name: 'Create Course' }).first().click();
    await dialog.getByLabel('Course Title').fill('Scratch course');
    await dialog.getByLabel('Course Code').fill('SC100');
    await dialog.getByLabel('Description').fill('Made to be deleted.');
    await dialog.getByRole('button', { name: 'Create Course' }).click();
    const scratch = cards.filter({ hasText: 'Scratch course' });
    await expect(scratch).toHaveCount(1);
    page.once('dialog', (d) => void d.accept());
    await scratch.hover();
    await scratch.getByRole('button', { name: 'Delete course' }).click();
    await expect(page.getByText('Course deleted successfully!')).toBeVisible();
    await expect(scratch).toHaveCount(0);
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
    const teacherContext = await browser.newContext();
    const teacher = await teacherContext.newPage();
    await signUpAndSignIn(teacher, { fullName: 'Tom Teacher', role: 'Teacher', email: uniqueEmail('tom') });
    await teacher.goto('/courses');
    await teacher.getByRole('button', { name: 'Create Course' }).first().click();
    const dialog = teacher.getByRole('dialog', { name: 'Create Course' });
    await dialog.getByLabel('Course Title').fill('Poetry');
    await dialog.getByLabel('Course Code').fill('EN150');
    await dialog.getByLabel('Description').fill('Reading and writing poems.');
    await dialog.getByRole('button', { name: 'Create Course' }).click();
    await expect(teacher.getByText('Course created successfully!')).toBeVisible();
    await teacher.goto('/assignments');
    await teacher.getByRole('button', { name: 'Create Assignment' }).click();
    const create = teacher.getByRole('dialog', { name: 'Create Assignment' });
    await create.getByLabel('Title').fill('A sonnet of your own');
    await create.getByLabel('Course').selectOption({ label: 'Poetry (EN150)' });
    await create.getByLabel('Due Date').fill(localDateTime(5));
    await create.getByRole('button', { name: 'Create Assignment' }).click();
    await expect(teacher.getByText('Assignment created!')).toBeVisible();

    const studentContext = await browser.newContext();
    const student = await studentContext.newPage();
    await signUpAndSignIn(student, { fullName: 'Sara Student', role: 'Student', email: uniqueEmail('sara') });
    await joinClass(student, await classCodeOf(teacher, 'Poetry'));
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
    await teacherContext.close();
    await studentContext.close();
  });
});
