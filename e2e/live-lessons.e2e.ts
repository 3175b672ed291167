import { expect, test, type Browser, type Page } from '@playwright/test';
import { screenshots, userInOwnBrowser, switchTo, uniqueEmail } from './support.js';

/**
 * Live lessons (issue 29, DESIGN §21): a teacher and three students, each in their own browser
 * (one on a phone, one dropping off and reloading mid-question). The teacher starts a lesson from
 * the course page and pushes a question; it opens at once on whatever page each student is on;
 * answers are counted live on the teacher's page and the projector; the close reveals the right
 * answer to all; the end puts the lesson into the gradebook. Accounts and the course are made
 * through the API; what the issue is about goes through the screens.
 */

const member = (
  browser: Browser,
  fullName: string,
  role: 'teacher' | 'student',
  viewport?: { width: number; height: number },
) => userInOwnBrowser(browser, { fullName, role, email: uniqueEmail('lesson-' + role) }, viewport);

const question = (page: Page) => page.getByRole('dialog', { name: 'Which planet is the largest?' });

test('live lessons: a pushed question reaches every student at once, answers are counted live, the reveal reaches all, the end goes to the gradebook', async ({
  browser,
}) => {
  test.slow();
  const [teacher, ada, bo, cy] = await Promise.all([
    member(browser, 'Grace Teacher', 'teacher'),
    member(browser, 'Ada Student', 'student'),
    member(browser, 'Bo Student', 'student', { width: 390, height: 844 }),
    member(browser, 'Cy Student', 'student'),
  ]);
  const created = await teacher.page.request.post('/api/courses', {
    headers: teacher.headers,
    data: { title: 'Live Astronomy', code: 'AST1', description: 'Planets, live.' },
  });
  expect(created.status()).toBe(201);
  const { id: courseId, joinCode } = (await created.json()) as { id: string; joinCode: string };
  for (const student of [ada, bo, cy]) {
    const joined = await student.page.request.post('/api/courses/join', {
      headers: student.headers,
      data: { code: joinCode },
    });
    expect(joined.ok(), await joined.text()).toBe(true);
  }

  // Each student somewhere else in the app; the teacher on the course page.
  await Promise.all([
    teacher.page.goto(`/courses/${courseId}`),
    ada.page.goto('/dashboard'),
    bo.page.goto('/courses'),
    cy.page.goto('/calendar'),
  ]);
  await teacher.page.getByRole('button', { name: 'Start a live lesson' }).click();
  await expect(teacher.page).toHaveURL(new RegExp(`/courses/${courseId}/lesson$`));
  await expect(teacher.page.getByRole('heading', { name: /Live lesson/ })).toBeVisible();

  // The teacher writes a multiple-choice question, marks the right choice and pushes it.
  const composer = teacher.page.getByRole('form', { name: 'Next question' });
  await composer.getByLabel('Question').fill('Which planet is the largest?');
  await composer.getByLabel('Choice 1', { exact: true }).fill('Mars');
  await composer.getByLabel('Choice 2', { exact: true }).fill('Jupiter');
  await composer.getByRole('button', { name: 'Add a choice' }).click();
  await composer.getByLabel('Choice 3', { exact: true }).fill('Venus');
  await composer.getByRole('radio', { name: 'Choice 2 is the right answer' }).check();
  // Cy's connection drops just before the push.
  await cy.context.setOffline(true);
  await composer.getByRole('button', { name: 'Push to the class' }).click();

  // It opens on every connected student's page at once, with no right answer shown.
  for (const { page } of [ada, bo]) await expect(question(page)).toBeVisible();
  await expect(question(ada.page)).not.toContainText('Right answer');
  await question(ada.page).getByRole('button', { name: 'Jupiter' }).click();
  await expect(question(ada.page).getByRole('status')).toContainText('Your answer: Jupiter');
  await question(bo.page).getByRole('button', { name: 'Mars' }).click();
  await expect(question(bo.page).getByRole('button', { name: 'Mars' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );

  // Counted live on the teacher's page, with who has not answered yet.
  await expect(teacher.page.getByText(/of 3 answered/)).toContainText('2 of 3 answered');
  await expect(teacher.page.getByText('Not answered yet (1)')).toBeVisible();
  await expect(teacher.page.locator('.lesson-results__waiting')).toContainText('Cy Student');

  // Cy comes back: what was missed arrives, the current question with it; a reload lands on it again.
  await cy.context.setOffline(false);
  await expect(question(cy.page)).toBeVisible();
  await cy.page.reload();
  await expect(question(cy.page)).toBeVisible();
  await question(cy.page).getByRole('button', { name: 'Jupiter' }).click();
  await expect(teacher.page.getByText(/of 3 answered/)).toContainText('3 of 3 answered · 2 right');
  await screenshots(teacher.page, 'live-lessons-teacher-results');

  // The projector: the question and the live count, no chart yet.
  const projector = await teacher.context.newPage();
  await projector.goto(`/courses/${courseId}/lesson/present`);
  await expect(projector.getByRole('heading', { name: 'Which planet is the largest?' })).toBeVisible();
  await expect(projector.getByRole('status')).toContainText('3 of 3 answered');
  await screenshots(projector, 'live-lessons-projector-open');

  // The close reveals it to everyone: the right answer, and each student's own verdict.
  await switchTo(teacher.page);
  await teacher.page.getByRole('button', { name: 'Close and reveal' }).click();
  await expect(question(ada.page)).toContainText('Right answer: Jupiter');
  await expect(question(ada.page)).toContainText('Your answer: Jupiter — right!');
  await expect(question(bo.page)).toContainText('Your answer: Mars — not this time.');
  await expect(question(cy.page)).toContainText('Right answer: Jupiter');
  await expect(projector.getByText('Right answer: Jupiter')).toBeVisible();
  await expect(projector.getByRole('list', { name: 'Answers so far' })).toContainText(
    'Jupiter (right answer)2',
  );
  await screenshots(projector, 'live-lessons-projector-revealed');
  await screenshots(bo.page, 'live-lessons-student-phone');

  // The end, into the gradebook: a point for the one question, each student's number right.
  await teacher.page.getByRole('button', { name: 'End lesson' }).click();
  const confirm = teacher.page.getByRole('dialog', { name: 'End the live lesson?' });
  await expect(confirm.getByRole('checkbox')).toBeChecked();
  await confirm.getByRole('button', { name: 'End lesson' }).click();
  await expect(teacher.page.getByText('Lesson ended and added to the gradebook.')).toBeVisible();
  const book = await teacher.page.request.get(`/api/courses/${courseId}/gradebook`, {
    headers: teacher.headers,
  });
  const gradebook = (await book.json()) as {
    assignments: Array<{ id: string; title: string; maxPoints: number }>;
    cells: Array<{ assignmentId: string; studentId: string; grade: number | null }>;
  };
  const lessonAssignment = gradebook.assignments.find((a) => a.title.startsWith('Live lesson'))!;
  expect(lessonAssignment.maxPoints).toBe(1);
  const grades = Object.fromEntries(
    gradebook.cells.filter((c) => c.assignmentId === lessonAssignment.id).map((c) => [c.studentId, c.grade]),
  );
  expect(grades).toEqual({ [ada.id]: 1, [bo.id]: 0, [cy.id]: 1 });
  await teacher.page.getByRole('link', { name: 'Open the gradebook' }).click();
  await expect(teacher.page.getByText(lessonAssignment.title).first()).toBeVisible();
});
