import { expect, test, type Browser, type Page } from '@playwright/test';
import { UNDO_WINDOW_SECONDS } from './server.js';
import {
  classOfTwo,
  createAssignmentByApi,
  joinByApi,
  navTo,
  RETURN_CONFIRMED_MS,
  screenshots,
  signUpAndSignIn,
  switchTo,
  uniqueEmail,
  type Auth,
} from './support.js';

/** A datetime-local value `days` from now, in the browser's (and this machine's) zone. */
const localDateTime = (days: number) => {
  const d = new Date(Date.now() + days * 86_400_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

let codeCounter = 0;

/**
 * A teacher with a course and a student in it, each in their own browser context (and time zone,
 * if given). The two sign up side by side and the class is made through the API: creating and
 * joining one through the screens is what teaching.e2e.ts and classes.e2e.ts are about.
 */
async function classroom(browser: Browser, name: string, zones: { teacher?: string; student?: string } = {}) {
  const course = `${name} Course`;
  const code = `GR${Date.now().toString(36).slice(-4).toUpperCase()}${++codeCounter}`;
  const made = await classOfTwo(
    browser,
    { teacher: `${name} Teacher`, student: `${name} Student` },
    { title: course, code, description: 'A course for the grading journeys.' },
    zones,
  );
  return { ...made, course, code };
}

/**
 * An assignment of 10 points made through the API, due in two days unless told. (The form is walked
 * through by the held-grade, weights and time-zone journeys here, and in teaching.e2e.ts.)
 */
async function assignmentByApi(
  teacher: Page,
  auth: Auth,
  courseId: string,
  title: string,
  { manual = false, dueInDays = 2 }: { manual?: boolean; dueInDays?: number } = {},
) {
  await createAssignmentByApi(teacher, auth, {
    title,
    courseId,
    dueDate: new Date(Date.now() + dueInDays * 86_400_000).toISOString(),
    maxPoints: 10,
    gradeRelease: manual ? 'manual' : 'auto',
  });
}

async function createAssignment(
  teacher: Page,
  {
    course,
    code,
    title,
    manual = false,
    due = localDateTime(2),
    category,
  }: { course: string; code: string; title: string; manual?: boolean; due?: string; category?: string },
) {
  await navTo(teacher, 'Assignments');
  await teacher.getByRole('button', { name: 'Create Assignment' }).click();
  const create = teacher.getByRole('dialog', { name: 'Create Assignment' });
  await create.getByLabel('Title').fill(title);
  await create.getByLabel('Course').selectOption({ label: `${course} (${code})` });
  await create.getByLabel('Due Date').fill(due);
  await create.getByLabel('Max Points').fill('10');
  if (category) await create.getByLabel('Grade category').selectOption({ label: category });
  if (manual) await create.getByRole('radio', { name: 'When I return them' }).check();
  await create.getByRole('button', { name: 'Create Assignment' }).click();
  // The dialog closes on success; several creates in a row leave several toasts on screen.
  await expect(create).toBeHidden();
  await expect(teacher.getByText('Assignment created!').first()).toBeVisible();
}

const cardOf = (page: Page, title: string) =>
  page.getByRole('list', { name: 'Assignments' }).getByRole('listitem').filter({ hasText: title });

/** From Courses, as a teacher would: the course's page, then its Gradebook. */
async function openGradebook(teacher: Page, course: string) {
  await teacher.goto('/courses');
  await teacher
    .getByRole('list', { name: 'Courses' })
    .getByRole('article')
    .filter({ hasText: course })
    .getByRole('link', { name: 'View Course' })
    .click();
  await teacher.getByRole('link', { name: 'Gradebook' }).click();
}

async function submit(student: Page, title: string, answer: string) {
  await navTo(student, 'Assignments');
  await cardOf(student, title).getByRole('button', { name: 'Submit' }).click();
  const dialog = student.getByRole('dialog', { name: 'Submit Assignment' });
  await dialog.getByLabel('Your Submission').fill(answer);
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(student.getByText('Assignment submitted!')).toBeVisible();
}

async function openSubmissions(teacher: Page, title: string) {
  await navTo(teacher, 'Assignments');
  await cardOf(teacher, title)
    .getByRole('button', { name: /View Submissions/ })
    .click();
  return teacher.getByRole('dialog', { name: `Submissions for ${title}` });
}

test.describe('grading teachers can trust', () => {
  // Each journey signs up two people and builds a class first.
  test.describe.configure({ timeout: 120_000 });

  test('two teacher tabs grading one submission see the conflict and choose', async ({ browser }) => {
    const { teacher, student, courseId, teacherAuth } = await classroom(browser, 'Clash');
    await assignmentByApi(teacher, teacherAuth, courseId, 'Two graders');
    await submit(student, 'Two graders', 'One answer, two graders.');

    // A second tab of the same teacher (same browser context, so the same session).
    const other = await teacher.context().newPage();
    await other.goto('/dashboard');
    const first = await openSubmissions(await switchTo(teacher), 'Two graders');
    const second = await openSubmissions(await switchTo(other), 'Two graders');
    // The second tab starts typing before the first saves.
    await second.getByLabel('Points').fill('6');
    await switchTo(teacher);
    await first.getByLabel('Points').fill('8');
    await first.getByRole('button', { name: 'Save grade' }).click();
    await expect(teacher.getByText('Grade saved')).toBeVisible();

    // What is typed in the second tab is never replaced: it is told instead.
    await expect(second.getByText(/just graded this 8\/10/)).toBeVisible();
    await expect(second.getByLabel('Points')).toHaveValue('6');
    await switchTo(other);
    await second.getByRole('button', { name: 'Save grade' }).click();
    const conflict = second.getByRole('alert').filter({ hasText: 'while you were grading' });
    await expect(conflict).toContainText('Clash Teacher gave 8/10');
    await screenshots(other, 'grading-conflict');
    await conflict.getByRole('button', { name: 'Keep mine (6)' }).click();
    await expect(other.getByText('Grade saved')).toBeVisible();
    await expect(
      second.getByRole('list', { name: 'Submissions' }).getByRole('listitem').first(),
    ).toContainText('Grade: 6/10');
    // The first tab, idle, follows the kept grade.
    await expect(first.getByLabel('Points')).toHaveValue('6');
  });

  test('a held grade reaches the student only after Return, never during the undo window', async ({
    browser,
  }) => {
    const { teacher, student, course, code } = await classroom(browser, 'Held');
    await createAssignment(teacher, { course, code, title: 'Held essay', manual: true });
    await submit(student, 'Held essay', 'Please be kind.');
    const studentCard = cardOf(student, 'Held essay');
    await expect(studentCard).toContainText('Submitted');

    const dialog = await openSubmissions(teacher, 'Held essay');
    await dialog.getByLabel('Points').fill('9');
    await dialog.getByLabel('Feedback').fill('Lovely work.');
    await dialog.getByRole('button', { name: 'Save grade' }).click();
    await expect(teacher.getByText('Grade saved')).toBeVisible();
    await expect(
      dialog.getByRole('list', { name: 'Submissions' }).getByRole('listitem').first(),
    ).toContainText('Held');

    // Graded but held: the student sees nothing of it, even after a reload.
    await student.reload();
    await expect(studentCard).toContainText('Submitted');
    await expect(studentCard).not.toContainText('9/10');
    await expect(studentCard).not.toContainText('Lovely work.');

    await dialog.getByRole('button', { name: 'Return all graded (1)' }).click();
    await expect(teacher.getByText(/^Returning 1 grade in \d+ s$/)).toBeVisible();
    await screenshots(teacher, 'grading-return-undo');
    // Within the undo window (kept by the server) nothing has been sent, not even to a fresh page
    // a second into it (the window is 6 s on the e2e server).
    await student.waitForTimeout(1000);
    await student.reload();
    await expect(studentCard).toContainText('Submitted');
    await expect(studentCard).not.toContainText('9/10');

    // The tab confirms once the server's Return comes back to it as returned.
    await expect(teacher.getByText('1 grade returned to students')).toBeVisible({
      timeout: RETURN_CONFIRMED_MS,
    });
    await expect(studentCard).toContainText('Graded · 9/10');
    await expect(studentCard).toContainText('Lovely work.');
    await expect(
      dialog.getByRole('list', { name: 'Submissions' }).getByRole('listitem').first(),
    ).toContainText('Returned');

    await navTo(student, 'Grades');
    await expect(student.getByRole('region', { name: new RegExp(course) })).toContainText('Total 9/10');
    await screenshots(student, 'grades-student');
  });

  test('Undo within the window sends nothing; a Return left to run goes out with the tab closed', async ({
    browser,
  }) => {
    const { teacher, student, courseId, teacherAuth } = await classroom(browser, 'Undo');
    await assignmentByApi(teacher, teacherAuth, courseId, 'Second thoughts', { manual: true });
    await submit(student, 'Second thoughts', 'An answer.');
    const studentCard = cardOf(student, 'Second thoughts');
    let dialog = await openSubmissions(teacher, 'Second thoughts');
    await dialog.getByLabel('Points').fill('4');
    await dialog.getByRole('button', { name: 'Save grade' }).click();
    await expect(teacher.getByText('Grade saved')).toBeVisible();
    await dialog.getByRole('button', { name: 'Return all graded (1)' }).click();
    await teacher.getByRole('button', { name: 'Undo' }).click();
    await expect(teacher.getByText('Return undone: nothing was sent')).toBeVisible();
    // Past the end of the window the Return would have had: still nothing.
    await teacher.waitForTimeout((UNDO_WINDOW_SECONDS + 1) * 1000);
    await student.reload();
    await expect(studentCard).toContainText('Submitted');
    await expect(studentCard).not.toContainText('4/10');
    await expect(
      dialog.getByRole('list', { name: 'Submissions' }).getByRole('listitem').first(),
    ).toContainText('Held');

    // Return again, and close the tab at once: the server keeps the window, so the Return still goes out.
    await dialog.getByRole('button', { name: 'Return all graded (1)' }).click();
    await expect(teacher.getByText(/^Returning 1 grade in \d+ s$/)).toBeVisible();
    const context = teacher.context();
    await teacher.close();
    await expect(studentCard).toContainText('Graded · 4/10', { timeout: 20_000 });
    const again = await context.newPage();
    await again.goto('/dashboard');
    dialog = await openSubmissions(again, 'Second thoughts');
    await expect(
      dialog.getByRole('list', { name: 'Submissions' }).getByRole('listitem').first(),
    ).toContainText('Returned');
  });

  test('the gradebook updates live as a student submits, and saves a grade from the keyboard', async ({
    browser,
  }) => {
    const { teacher, student, course, code, courseId, teacherAuth } = await classroom(browser, 'Book');
    await assignmentByApi(teacher, teacherAuth, courseId, 'Live cell');
    await openGradebook(teacher, course);
    const grid = teacher.getByRole('grid', { name: `Gradebook for ${course}` });
    const cell = grid.getByRole('gridcell', { name: /^Book Student, Live cell:/ });
    await expect(cell).toHaveAccessibleName('Book Student, Live cell: no submission');

    await submit(student, 'Live cell', 'Submitted while the teacher watches.');
    await expect(cell).toHaveAccessibleName('Book Student, Live cell: not graded');

    await cell.focus();
    await teacher.keyboard.press('Enter');
    await grid.getByRole('textbox', { name: /Grade for Book Student/ }).fill('7');
    await teacher.keyboard.press('Enter');
    await expect(grid.getByText('Saved')).toBeVisible();
    await expect(cell).toHaveAccessibleName(/^Book Student, Live cell: 7 of 10/);
    await expect(grid.getByRole('row', { name: /Average/ })).toContainText('7/10');
    await screenshots(teacher, 'gradebook');

    const download = teacher.waitForEvent('download');
    await teacher.getByRole('button', { name: 'Download CSV' }).click();
    expect((await download).suggestedFilename()).toBe(`${code} gradebook.csv`);
  });

  // Issue 25 (item 2): a cell with no submission ignored digits, so no zero could be given.
  test('a teacher gives a zero to a student who did not submit, and the total counts it', async ({
    browser,
  }) => {
    const { teacher, student, course, courseId, teacherAuth } = await classroom(browser, 'Zero');
    await assignmentByApi(teacher, teacherAuth, courseId, 'Lab report');
    await assignmentByApi(teacher, teacherAuth, courseId, 'Missed essay', { dueInDays: 3 });
    await submit(student, 'Lab report', 'My answer.');
    await openGradebook(teacher, course);
    const grid = teacher.getByRole('grid', { name: `Gradebook for ${course}` });
    const row = grid.getByRole('row', { name: /Zero Student/ });
    const handedIn = grid.getByRole('gridcell', { name: /^Zero Student, Lab report:/ });
    await handedIn.focus();
    await teacher.keyboard.press('8');
    await teacher.keyboard.press('Enter');
    await expect(handedIn).toHaveAccessibleName(/^Zero Student, Lab report: 8 of 10/);
    await expect(row).toContainText('8/10 (80%)');

    const missing = grid.getByRole('gridcell', { name: /^Zero Student, Missed essay:/ });
    await expect(missing).toHaveAccessibleName('Zero Student, Missed essay: no submission');
    await missing.focus();
    await teacher.keyboard.press('0');
    await teacher.keyboard.press('Enter');
    await expect(missing).toHaveAccessibleName(/^Zero Student, Missed essay: 0 of 10/);
    await expect(row).toContainText('8/20 (40%)');
    await screenshots(teacher, 'gradebook-missing-zero');

    // The student sees it (released as given) and may still hand the work in while it is open.
    await navTo(student, 'Assignments');
    const card = cardOf(student, 'Missed essay');
    await expect(card).toContainText('Not submitted: graded as missing work');
    await expect(card).toContainText('Grade: 0/10');
    await expect(card.getByRole('button', { name: 'Submit' })).toBeEnabled();
    await screenshots(student, 'missing-work-graded');
  });

  // Issue 25 (DESIGN §17): optional weighted categories; totals, the CSV and the student's page follow them.
  test('a teacher weights the course by category, and both the gradebook and the student read the weighted total', async ({
    browser,
  }) => {
    const { teacher, student, course, code } = await classroom(browser, 'Weights');
    await openGradebook(teacher, course);
    await teacher.getByRole('button', { name: 'Categories & weights' }).click();
    const editor = teacher.getByRole('dialog', { name: 'Categories & weights' });
    await editor.getByRole('button', { name: 'Add category' }).click();
    await editor.getByLabel('Category 1', { exact: true }).fill('Homework');
    await editor.getByLabel('Weight (%)').fill('40');
    await editor.getByRole('button', { name: 'Add category' }).click();
    await editor.getByLabel('Category 2', { exact: true }).fill('Tests');
    await expect(editor.getByText('Total: 100%')).toBeVisible();
    await screenshots(teacher, 'categories-editor');
    await editor.getByRole('button', { name: 'Save categories' }).click();
    await expect(editor).toBeHidden();

    await createAssignment(teacher, { course, code, title: 'Worksheet', category: 'Homework (40%)' });
    await createAssignment(teacher, { course, code, title: 'Unit test', category: 'Tests (60%)' });
    await openGradebook(teacher, course);
    await expect(teacher.getByText('Totals weighted by category: Homework 40% · Tests 60%')).toBeVisible();
    const grid = teacher.getByRole('grid', { name: `Gradebook for ${course}` });
    for (const [title, grade] of [
      ['Worksheet', '10'],
      ['Unit test', '5'],
    ] as const) {
      const cell = grid.getByRole('gridcell', { name: new RegExp(`^Weights Student, ${title}:`) });
      await cell.focus();
      await teacher.keyboard.press(grade[0]!);
      if (grade.length > 1) await teacher.keyboard.type(grade.slice(1));
      await teacher.keyboard.press('Enter');
      await expect(cell).toHaveAccessibleName(new RegExp(`^Weights Student, ${title}: ${grade} of 10`));
    }
    // 0.4 · 100 % + 0.6 · 50 % = 70 %, where points alone would say 75 %.
    await expect(grid.getByRole('row', { name: /Weights Student/ })).toContainText('70% (15/20 pts)');
    await screenshots(teacher, 'gradebook-weighted');

    await navTo(student, 'Grades');
    const card = student.getByRole('region', { name: new RegExp(course) });
    await expect(card).toContainText('Total 70%, weighted by category');
    await expect(card).toContainText('Homework (40%): 100%');
    await expect(card).toContainText('Tests (60%): 50%');
    await screenshots(student, 'grades-weighted');
  });

  // Issue 25 (DESIGN §17): a grading view, one student at a time, next and previous by keyboard.
  test('a teacher grades one student after another in the grading view, moving with J and K', async ({
    browser,
  }) => {
    const { teacher, student, courseId, joinCode, teacherAuth } = await classroom(browser, 'Speed');
    const second = await (await browser.newContext()).newPage();
    const amy = await signUpAndSignIn(second, {
      fullName: 'Amy Early',
      role: 'Student',
      email: uniqueEmail('speed-amy'),
    });
    await joinByApi(second, amy, joinCode);
    await assignmentByApi(teacher, teacherAuth, courseId, 'Reading log');
    await submit(student, 'Reading log', 'Chapter one, read twice.');

    const dialog = await openSubmissions(teacher, 'Reading log');
    await dialog.getByRole('link', { name: 'Grade one by one' }).click();
    await expect(teacher).toHaveURL(/\/assignments\/[^/]+\/grading/);
    const students = teacher.getByRole('navigation', { name: 'Students' });
    // By name: Amy (nothing handed in) first, then the Speed Student's answer.
    await expect(students.getByRole('button', { name: /Amy Early/ })).toHaveAttribute('aria-current', 'true');
    await expect(teacher.getByText('Nothing handed in yet.', { exact: false })).toBeVisible();
    await teacher.keyboard.press('j');
    await expect(students.getByRole('button', { name: /Speed Student/ })).toHaveAttribute(
      'aria-current',
      'true',
    );
    await expect(teacher.getByText('Chapter one, read twice.')).toBeVisible();
    const form = teacher.getByRole('form', { name: "Grade Speed Student's submission" });
    await form.getByLabel('Points').fill('9');
    await form.getByLabel('Feedback').fill('Good notes.');
    await form.getByRole('button', { name: 'Save grade' }).click();
    await expect(teacher.getByText('Grade saved')).toBeVisible();
    await expect(students.getByRole('button', { name: /Speed Student/ })).toContainText('Returned');
    await screenshots(teacher, 'grading-view');

    // Back to Amy with K: her work arrives live while the teacher looks.
    await teacher.getByRole('heading', { name: /Grading: Reading log/ }).click();
    await teacher.keyboard.press('k');
    await expect(students.getByRole('button', { name: /Amy Early/ })).toHaveAttribute('aria-current', 'true');
    await submit(second, 'Reading log', 'Done on the bus.');
    await expect(teacher.getByText('Done on the bus.')).toBeVisible();
    await expect(students.getByRole('button', { name: /Amy Early/ })).toContainText('To grade');
  });

  // Issue 25 (item 8): with four assignments the Total column was off-screen at 1280 px, with no hint.
  test('keeps the Total in view beside many assignments, says the grid scrolls, and explains its marks', async ({
    browser,
  }) => {
    const { teacher, course, courseId, teacherAuth } = await classroom(browser, 'Wide');
    const titles = [
      'Photosynthesis lab report',
      'Cell division essay',
      'Genetics problem set',
      'Ecology field notes',
      'Evolution timeline',
    ];
    for (const title of titles) await assignmentByApi(teacher, teacherAuth, courseId, title);
    await teacher.setViewportSize({ width: 1280, height: 800 });
    await openGradebook(teacher, course);
    const grid = teacher.getByRole('grid', { name: `Gradebook for ${course}` });
    const total = grid.getByRole('columnheader', { name: 'Total' });
    await expect(total).toBeInViewport({ ratio: 1 });
    await expect(teacher.locator('.gradebook__scroll')).toHaveAttribute('data-more-right', 'true');
    await expect(teacher.getByLabel('What the marks mean')).toContainText('submitted, not graded');
    await screenshots(teacher, 'gradebook-wide');
  });

  test('editing an assignment\'s due date shows the student\'s open view "Due date moved"', async ({
    browser,
  }) => {
    const { teacher, student, courseId, teacherAuth } = await classroom(browser, 'Moved');
    await assignmentByApi(teacher, teacherAuth, courseId, 'Moving target');
    await navTo(student, 'Assignments');
    await cardOf(student, 'Moving target').getByRole('button', { name: 'Submit' }).click();
    const open = student.getByRole('dialog', { name: 'Submit Assignment' });
    await open.getByLabel('Your Submission').fill('Half an answer');

    await navTo(teacher, 'Assignments');
    await cardOf(teacher, 'Moving target').getByRole('button', { name: 'Edit assignment' }).click();
    const edit = teacher.getByRole('dialog', { name: 'Edit Assignment' });
    await edit.getByLabel('Due Date').fill(localDateTime(5));
    await screenshots(teacher, 'edit-assignment');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await expect(teacher.getByText('Assignment updated')).toBeVisible();

    const notice = open.getByRole('alert').filter({ hasText: 'Due date moved' });
    await expect(notice).toBeVisible();
    await expect(notice).toContainText('Was ');
    // What the student typed is still there.
    await expect(open.getByLabel('Your Submission')).toHaveValue('Half an answer');
    await screenshots(student, 'due-date-moved');
  });

  test("the teacher's panel follows a student opening and typing an answer, live", async ({ browser }) => {
    const { teacher, student, courseId, teacherAuth } = await classroom(browser, 'Panel');
    await assignmentByApi(teacher, teacherAuth, courseId, 'Watched work');
    const dialog = await openSubmissions(teacher, 'Watched work');
    const panel = dialog.getByRole('region', { name: 'Who is working on it' });
    const count = (state: string) => panel.locator(`[data-state="${state}"]`);
    await expect(count('not_opened')).toContainText('1');

    await navTo(student, 'Assignments');
    await cardOf(student, 'Watched work').getByRole('button', { name: 'Submit' }).click();
    const open = student.getByRole('dialog', { name: 'Submit Assignment' });
    await expect(count('viewing')).toContainText('1Viewing now');
    await count('viewing').getByText('Viewing now').click();
    await expect(count('viewing')).toContainText('Panel Student');

    await open.getByLabel('Your Submission').pressSequentially('Typing…');
    await expect(count('writing')).toContainText('1Writing');
    await screenshots(teacher, 'assignment-panel');

    // Closing asks first while the draft is unsaved (DESIGN §12): wait for the server to have it.
    await expect(open.getByTestId('draft-status')).toContainText('Saved');
    await open.getByRole('button', { name: 'Cancel' }).click();
    // Her tab is closed, but her saved draft says she has started.
    await expect(count('writing')).toContainText('1Writing');
    await expect(count('not_opened')).toContainText('0');
  });
  test('two teacher tabs grading one gradebook cell see the conflict in the gradebook and choose', async ({
    browser,
  }) => {
    const { teacher, student, course, courseId, teacherAuth } = await classroom(browser, 'Cells');
    await assignmentByApi(teacher, teacherAuth, courseId, 'Shared cell');
    await submit(student, 'Shared cell', 'Graded twice at once.');
    await openGradebook(teacher, course);
    const other = await teacher.context().newPage();
    await other.goto(teacher.url());
    const gridOf = (page: Page) => page.getByRole('grid', { name: `Gradebook for ${course}` });
    const cellIn = (page: Page) =>
      gridOf(page).getByRole('gridcell', { name: /^Cells Student, Shared cell:/ });
    const [gridA, gridB] = [gridOf(teacher), gridOf(other)];
    await expect(cellIn(other)).toHaveAccessibleName('Cells Student, Shared cell: not graded');

    // Tab B starts typing 5 before tab A saves 8.
    await cellIn(other).focus();
    await other.keyboard.press('Enter');
    const inputB = gridB.getByRole('textbox', { name: /Grade for Cells Student/ });
    await inputB.fill('5');
    await cellIn(teacher).focus();
    await teacher.keyboard.press('Enter');
    await gridA.getByRole('textbox', { name: /Grade for Cells Student/ }).fill('8');
    await teacher.keyboard.press('Enter');
    await expect(gridA.getByText('Saved')).toBeVisible();

    // B's typing is left alone by the live update; saving it meets the conflict, in the cell.
    await expect(inputB).toHaveValue('5');
    await inputB.press('Enter');
    const conflict = gridB.getByRole('alert').filter({ hasText: 'while you were grading' });
    await expect(conflict).toContainText('Cells Teacher gave 8/10');
    await screenshots(other, 'gradebook-conflict');
    await conflict.getByRole('button', { name: 'Keep mine (5)' }).click();
    await expect(cellIn(other)).toHaveAccessibleName(/^Cells Student, Shared cell: 5 of 10/);
    // Tab A follows the grade kept.
    await expect(cellIn(teacher)).toHaveAccessibleName(/^Cells Student, Shared cell: 5 of 10/);
  });

  test('a due time set in New York reads in Tokyo on the Tokyo clock, the zone named where it is typed', async ({
    browser,
  }) => {
    const zones = { teacher: 'America/New_York', student: 'Asia/Tokyo' };
    const { teacher, student, course, code } = await classroom(browser, 'Zones', zones);
    // 23:59 in New York, four days ahead (as the New York calendar counts days).
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: zones.teacher }).format(
      new Date(Date.now() + 4 * 86_400_000),
    );
    await navTo(teacher, 'Assignments');
    await teacher.getByRole('button', { name: 'Create Assignment' }).click();
    await expect(teacher.getByRole('dialog', { name: 'Create Assignment' })).toContainText(
      'Your time (America/New_York)',
    );
    await teacher.keyboard.press('Escape');
    await createAssignment(teacher, { course, code, title: 'Across the world', due: `${day}T23:59` });

    // What each one's clock reads for that instant.
    const instant = await teacher.evaluate((value) => new Date(value).toISOString(), `${day}T23:59`);
    // "Dec 5, 11:59 PM" on that zone's clock (the year is added in another year, as the app does).
    const shown = (zone: string) => {
      const [monthDay, time] = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        month: 'short',
        day: 'numeric',
        hour: 'numeric',
        minute: '2-digit',
      })
        .format(new Date(instant))
        // Some ICU versions put a narrow no-break space before AM/PM; the app's dates use a space.
        .replace(/\s/g, ' ')
        .split(', ');
      return new RegExp(`Due ${monthDay}(, \\d{4})?, ${time}`);
    };
    await expect(cardOf(teacher, 'Across the world')).toContainText(shown(zones.teacher));
    await expect(cardOf(teacher, 'Across the world')).toContainText('11:59 PM');
    await navTo(student, 'Assignments');
    const studentCard = cardOf(student, 'Across the world');
    await expect(studentCard).toContainText(shown(zones.student));
    // 13 or 14 hours ahead: the next day's early afternoon in Tokyo, not 23:59.
    await expect(studentCard).not.toContainText('11:59 PM');
    await screenshots(student, 'due-in-another-zone');
  });

  test('a rubric: written by the teacher, read before submitting, graded by, its scores seen once returned', async ({
    browser,
  }) => {
    const { teacher, student, courseId, teacherAuth } = await classroom(browser, 'Rubric');
    await assignmentByApi(teacher, teacherAuth, courseId, 'Rubric essay', { manual: true });
    await navTo(teacher, 'Assignments');

    await cardOf(teacher, 'Rubric essay').getByRole('button', { name: 'Rubric', exact: true }).click();
    const editor = teacher.getByRole('dialog', { name: 'Rubric' });
    const criteria = [
      ['Argument', ['Weak', '2'], ['Strong', '6']],
      ['Style', ['Rough', '0'], ['Clear', '4']],
    ] as const;
    for (const [i, [title, ...levels]] of criteria.entries()) {
      await editor.getByRole('button', { name: 'Add criterion' }).click();
      await editor.getByLabel(`Criterion ${i + 1} title`).fill(title);
      for (const [j, [level, points]] of levels.entries()) {
        await editor.getByLabel(`Criterion ${i + 1}, level ${j + 1} title`).fill(level);
        await editor.getByLabel(`Criterion ${i + 1}, level ${j + 1} points`).fill(points);
      }
    }
    await expect(editor).toContainText('Total: 10 of 10 points');
    await screenshots(teacher, 'rubric-editor');
    await editor.getByRole('button', { name: 'Save rubric' }).click();
    await expect(teacher.getByText('Rubric saved')).toBeVisible();

    // The student reads it in the submit dialog, before handing anything in.
    await navTo(student, 'Assignments');
    await cardOf(student, 'Rubric essay').getByRole('button', { name: 'Submit' }).click();
    const submitDialog = student.getByRole('dialog', { name: 'Submit Assignment' });
    const shown = submitDialog.getByRole('region', { name: 'Rubric' });
    await expect(shown).toContainText('Argument');
    await expect(shown).toContainText('Strong 6 pts');
    await screenshots(student, 'rubric-before-submit');
    await submitDialog.getByLabel('Your Submission').fill('An essay with a strong argument.');
    await submitDialog.getByRole('button', { name: 'Submit' }).click();
    await expect(student.getByText('Assignment submitted!')).toBeVisible();

    // Grading by it: a level per criterion fills the points.
    const dialog = await openSubmissions(teacher, 'Rubric essay');
    await dialog
      .getByRole('group', { name: 'Argument' })
      .getByRole('radio', { name: /Strong/ })
      .check();
    await dialog.getByRole('group', { name: 'Style' }).getByRole('radio', { name: /Rough/ }).check();
    await expect(dialog.getByLabel('Points')).toHaveValue('6');
    await screenshots(teacher, 'rubric-grading');
    await dialog.getByRole('button', { name: 'Save grade' }).click();
    await expect(teacher.getByText('Grade saved')).toBeVisible();

    // Held: the student's own view shows the rubric, no scores.
    const studentCard = cardOf(student, 'Rubric essay');
    await studentCard.getByRole('button', { name: 'View Submission' }).click();
    let view = student.getByRole('dialog', { name: 'Your Submission' });
    await expect(view.getByRole('region', { name: 'Rubric' })).toBeVisible();
    await expect(view.getByRole('region', { name: 'Rubric scores' })).toHaveCount(0);
    await student.keyboard.press('Escape');

    await dialog.getByRole('button', { name: 'Return all graded (1)' }).click();
    await expect(teacher.getByText('1 grade returned to students')).toBeVisible({
      timeout: RETURN_CONFIRMED_MS,
    });
    await expect(studentCard).toContainText('Graded · 6/10');
    await studentCard.getByRole('button', { name: 'View Submission' }).click();
    view = student.getByRole('dialog', { name: 'Your Submission' });
    const scores = view.getByRole('region', { name: 'Rubric scores' });
    await expect(scores).toContainText('6 of 10 points');
    // Each criterion's list holds its levels: the chosen ones say so.
    await expect(scores.locator('li li').filter({ hasText: '(your score)' })).toHaveText([/Strong/, /Rough/]);
    await screenshots(student, 'rubric-scores-returned');
  });
});
