import { expect, test, type Page } from '@playwright/test';
import {
  classOfTwo,
  createAssignmentByApi,
  navTo,
  screenshots,
  signUpAndSignIn,
  switchTo,
  uniqueEmail,
} from './support.js';

const localDateTime = (days: number) => {
  const d = new Date(Date.now() + days * 86_400_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

async function createAssignment(teacher: Page, course: string, assignment: string) {
  await navTo(teacher, 'Assignments');
  await teacher.getByRole('button', { name: 'Create Assignment' }).click();
  const create = teacher.getByRole('dialog', { name: 'Create Assignment' });
  await create.getByLabel('Title').fill(assignment);
  await create.getByLabel('Course').selectOption({ label: `${course} (LV101)` });
  await create.getByLabel('Due Date').fill(localDateTime(2));
  await create.getByLabel('Max Points').fill('10');
  await create.getByRole('button', { name: 'Create Assignment' }).click();
  await expect(teacher.getByText('Assignment created!')).toBeVisible();
}

test.describe('live, across browsers and tabs', () => {
  test('a new assignment, a submission and a grade appear on the other side without a reload', async ({
    browser,
  }) => {
    // Side by side, and the class through the API: what comes after is what this journey is about.
    const { teacher, student, close } = await classOfTwo(
      browser,
      { teacher: 'Live Teacher', student: 'Live Student' },
      { title: 'Live Course', code: 'LV101', description: 'A course for the live tests.' },
    );
    await navTo(student, 'Assignments');
    await expect(student.getByRole('heading', { name: 'Assignments', level: 1 })).toBeVisible();

    await createAssignment(teacher, 'Live Course', 'Watch it arrive');
    const card = student
      .getByRole('list', { name: 'Assignments' })
      .getByRole('listitem')
      .filter({ hasText: 'Watch it arrive' });
    await expect(card).toContainText('Active');

    // The teacher opens the submissions of the new assignment and waits.
    const teacherCard = teacher
      .getByRole('list', { name: 'Assignments' })
      .getByRole('listitem')
      .filter({ hasText: 'Watch it arrive' });
    await teacherCard.getByRole('button', { name: /View Submissions/ }).click();
    const submissions = teacher.getByRole('dialog', { name: /Submissions for Watch it arrive/ });
    await expect(submissions.getByText('No submissions yet for this assignment.')).toBeVisible();

    await card.getByRole('button', { name: 'Submit' }).click();
    const submit = student.getByRole('dialog', { name: 'Submit Assignment' });
    await submit.getByLabel('Your Submission').fill('Here it comes, live.');
    await submit.getByRole('button', { name: 'Submit' }).click();
    await expect(student.getByText('Assignment submitted!')).toBeVisible();

    await expect(submissions.getByText('Here it comes, live.')).toBeVisible();
    await expect(submissions.getByText('Live Student')).toBeVisible();
    await screenshots(teacher, 'submissions-live');

    await submissions.getByLabel('Points').fill('9');
    await submissions.getByLabel('Feedback').fill('Lovely work.');
    await submissions.getByRole('button', { name: 'Save grade' }).click();
    await expect(teacher.getByText('Grade saved')).toBeVisible();

    await expect(card).toContainText('Grade: 9/10');
    await expect(card).toContainText('Graded');
    await expect(card).toContainText('Lovely work.');
    await screenshots(student, 'assignments-student-graded');
    await close();
  });

  test('two tabs of one student stay in sync, and signing out in one sends both to /login', async ({
    browser,
  }) => {
    // The class through the API: the two tabs are what this journey is about.
    const {
      teacher,
      student: first,
      studentContext,
      teacherAuth,
      courseId,
      close,
    } = await classOfTwo(
      browser,
      { teacher: 'Sync Teacher', student: 'Sync Student' },
      { title: 'Sync Course', code: 'LV101', description: 'A course for the live tests.' },
    );
    await createAssignmentByApi(teacher, teacherAuth, {
      title: 'Two tabs',
      courseId,
      dueDate: new Date(Date.now() + 2 * 86_400_000).toISOString(),
      maxPoints: 10,
    });
    const second = await studentContext.newPage();
    await second.goto('/assignments');
    await first.goto('/assignments');
    const cardIn = (page: Page) =>
      page.getByRole('list', { name: 'Assignments' }).getByRole('listitem').filter({ hasText: 'Two tabs' });
    await expect(cardIn(second)).toContainText('Active');

    await switchTo(first);
    await cardIn(first).getByRole('button', { name: 'Submit' }).click();
    const submit = first.getByRole('dialog', { name: 'Submit Assignment' });
    await submit.getByLabel('Your Submission').fill('From the first tab.');
    await submit.getByRole('button', { name: 'Submit' }).click();
    await expect(cardIn(first)).toContainText('Submitted');
    await expect(cardIn(second)).toContainText('Submitted');

    await first
      .getByRole('complementary', { name: 'Sidebar' })
      .getByRole('button', { name: 'Sign Out' })
      .click();
    await expect(first).toHaveURL(/\/login$/);
    // The other tab was on /assignments: signing in there again returns to it.
    await expect(second).toHaveURL(/\/login(\?next=%2Fassignments)?$/);
    await close();
  });
});

test.describe('the AI Learning Assistant', () => {
  test('answers a quick question and a typed one after 1–2 seconds; Shift+Enter does not send', async ({
    page,
  }) => {
    await signUpAndSignIn(page, { fullName: 'Chat Student', role: 'Student', email: uniqueEmail('chat') });
    await navTo(page, 'AI Assistant');
    await expect(page.getByRole('heading', { name: 'AI Learning Assistant', level: 1 })).toBeVisible();
    await expect(page.getByText(/Hi Chat!/)).toBeVisible();
    await screenshots(page, 'chat-start');

    const started = Date.now();
    await page.getByRole('button', { name: 'How do I submit an assignment?' }).click();
    await expect(page.getByLabel('Your question')).toBeDisabled();
    await expect(page.getByText(/Open the Assignments page/)).toBeVisible();
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(1000);
    expect(elapsed).toBeLessThan(6000);
    await expect(page.getByRole('group', { name: 'Quick questions' })).toBeHidden();

    const input = page.getByLabel('Your question');
    await expect(input).toBeEnabled();
    await input.fill('What are good study');
    await input.press('Shift+Enter');
    await input.pressSequentially('strategies?');
    await expect(input).toHaveValue('What are good study\nstrategies?');
    await input.press('Enter');
    await expect(input).toHaveValue('');
    await expect(page.getByText(/space your practice/)).toBeVisible();
    await screenshots(page, 'chat-conversation');
  });
});
