import { expect, test, type Page } from '@playwright/test';
import { screenshots, signUpAndSignIn, uniqueEmail } from './support.js';

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

async function openCourse(page: Page, title: string) {
  await page.goto('/courses');
  await page.getByRole('article', { name: title }).first().getByRole('link', { name: 'View Course' }).click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
}

test.describe('archive and copy (DESIGN §20)', () => {
  test('a teacher copies last year’s course, reuses an assignment, archives the old one; its student finds it read-only under Past classes', async ({
    browser,
    request,
  }) => {
    const page = async () => (await browser.newContext()).newPage();
    const [teacher, student] = [await page(), await page()];
    const [asTeacher, asStudent] = await Promise.all([
      signUpAndSignIn(teacher, { fullName: 'Tara Teacher', role: 'Teacher', email: uniqueEmail('archiver') }),
      signUpAndSignIn(student, { fullName: 'Stu Dent', role: 'Student', email: uniqueEmail('past-student') }),
    ]);

    // Last year's course and another one, made through the API: the UI for making them is walked elsewhere.
    const suffix = Date.now().toString(36).slice(-4).toUpperCase();
    const made = async (title: string, code: string, assignment: string) => {
      const course = await request.post('/api/courses', {
        headers: asTeacher,
        data: { title, code: `${code}${suffix}`, description: `${title}, as taught last year.` },
      });
      expect(course.status()).toBe(201);
      const { id, joinCode } = (await course.json()) as { id: string; joinCode: string };
      const a = await request.post('/api/assignments', {
        headers: asTeacher,
        data: { title: assignment, dueDate: inDays(5), courseId: id },
      });
      expect(a.status()).toBe(201);
      return { id, joinCode };
    };
    const biology = await made('Biology 2026', 'BIO', 'Cell diagram');
    await made('Chemistry', 'CHEM', 'Lab safety quiz');
    const joined = await request.post('/api/courses/join', {
      headers: asStudent,
      data: { code: biology.joinCode },
    });
    expect(joined.status()).toBe(200);

    // Copy Biology 2026 into Biology 2027: the copy opens with last year's assignment.
    await openCourse(teacher, 'Biology 2026');
    await teacher.getByRole('button', { name: 'Copy course' }).click();
    const copy = teacher.getByRole('dialog', { name: 'Copy course' });
    await copy.getByLabel(/New course title/).fill('Biology 2027');
    await screenshots(teacher, 'archive-copy-dialog');
    await copy.getByRole('button', { name: 'Copy course' }).click();
    await expect(teacher.getByRole('heading', { level: 1, name: 'Biology 2027' })).toBeVisible();
    const assignments = teacher.getByRole('region', { name: 'Assignments' });
    await expect(assignments.getByRole('link', { name: /Cell diagram/ })).toBeVisible();

    // Reuse Chemistry's quiz in the copy.
    await teacher.getByRole('button', { name: 'Reuse assignment' }).click();
    const reuse = teacher.getByRole('dialog', { name: 'Reuse assignment' });
    await reuse.getByLabel('From course').selectOption({ label: 'Chemistry' });
    await reuse.getByLabel('Assignment').selectOption({ label: 'Lab safety quiz' });
    await screenshots(teacher, 'archive-reuse-dialog');
    await reuse.getByRole('button', { name: 'Reuse assignment' }).click();
    await expect(assignments.getByRole('link', { name: /Lab safety quiz/ })).toBeVisible();

    // Archive last year's course: asked first, then read-only and under Past classes.
    await openCourse(teacher, 'Biology 2026');
    await teacher.getByRole('button', { name: 'Archive', exact: true }).click();
    await teacher.getByRole('alertdialog').getByRole('button', { name: 'Archive course' }).click();
    await expect(teacher.getByText('This class is archived')).toBeVisible();
    await expect(teacher.getByRole('button', { name: 'Unarchive' })).toBeVisible();
    // Read-only for its teachers too: nothing on the page offers a write the server would refuse.
    await expect(teacher.getByLabel('Share with your class')).toBeHidden();
    await expect(teacher.getByRole('button', { name: 'Start a live lesson' })).toBeHidden();
    await expect(teacher.getByRole('button', { name: 'Import roster' })).toBeHidden();
    await expect(teacher.getByLabel('Invite a co-teacher')).toBeHidden();
    await screenshots(teacher, 'archive-teacher-read-only');
    await teacher.goto('/courses');
    const past = teacher.getByRole('list', { name: 'Past classes' });
    await expect(past.getByRole('article', { name: 'Biology 2026' })).toBeVisible();
    await expect(
      teacher.getByRole('list', { name: 'Courses' }).getByRole('article', { name: 'Biology 2026' }),
    ).toBeHidden();
    await screenshots(teacher, 'archive-past-classes-teacher');

    // The student finds it under Past classes, read-only.
    await student.goto('/courses');
    const studentPast = student.getByRole('list', { name: 'Past classes' });
    await studentPast
      .getByRole('article', { name: 'Biology 2026' })
      .getByRole('link', { name: 'View Course' })
      .click();
    await expect(student.getByText('This class is archived')).toBeVisible();
    await expect(
      student.getByRole('region', { name: 'Assignments' }).getByText('Cell diagram'),
    ).toBeVisible();
    await expect(student.getByRole('button', { name: /Leave/ })).toBeHidden();
    await expect(student.getByRole('button', { name: 'Add a comment' })).toBeHidden();
    await screenshots(student, 'archive-student-read-only');
  });
});
