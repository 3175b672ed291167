import { expect, test, type Browser, type Page } from '@playwright/test';
import {
  createAssignmentByApi,
  createCourseByApi,
  joinByApi,
  navTo,
  PASSWORD,
  screenshots,
  signUpAndSignIn,
  switchTo,
  uniqueEmail,
} from './support.js';
import { controllableNetwork } from './network.js';

/**
 * A student's work is never lost (DESIGN §12, §17): drafts through a lost network and a reload,
 * an offline submit that lands exactly once with a receipt, two tabs on one draft, a session that
 * ends mid-answer, and a removal and restore with the answer open.
 */

test.setTimeout(120_000);

/**
 * A teacher with a course and one assignment, and a student of that course on /assignments. The
 * two sign up side by side and the class is made through the API: these journeys are about the
 * student's answer, and the forms are walked through in teaching.e2e.ts and classes.e2e.ts.
 */
async function classroom(browser: Browser, tag: string, assignment: string) {
  const teacherContext = await browser.newContext();
  const teacher = await teacherContext.newPage();
  const studentContext = await browser.newContext();
  const network = await controllableNetwork(studentContext);
  const student = await studentContext.newPage();
  const email = uniqueEmail(`${tag}-s`);
  const [teacherAuth, studentAuth] = await Promise.all([
    signUpAndSignIn(teacher, { fullName: `${tag} Teacher`, role: 'Teacher', email: uniqueEmail(`${tag}-t`) }),
    signUpAndSignIn(student, { fullName: `${tag} Student`, role: 'Student', email }),
  ]);
  const { id: courseId, joinCode } = await createCourseByApi(teacher, teacherAuth, {
    title: `${tag} Course`,
    code: 'DR101',
    description: 'Drafts that survive.',
  });
  await createAssignmentByApi(teacher, teacherAuth, {
    title: assignment,
    courseId,
    dueDate: new Date(Date.now() + 2 * 86_400_000).toISOString(),
  });
  await joinByApi(student, studentAuth, joinCode);
  await student.goto('/assignments');
  return { teacher, teacherContext, student, studentContext, network, email };
}

const cardOf = (page: Page, title: string) =>
  page.getByRole('list', { name: 'Assignments' }).getByRole('listitem').filter({ hasText: title });

async function openAnswer(page: Page, title: string) {
  await cardOf(page, title).getByRole('button', { name: 'Submit', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Submit Assignment' });
  await expect(dialog).toBeVisible();
  return { dialog, box: dialog.getByLabel('Your Submission'), status: dialog.getByTestId('draft-status') };
}

test.describe('a student’s work is never lost', () => {
  test('text typed offline survives a reload and reaches the server when the network is back', async ({
    browser,
  }) => {
    const { student, network, teacherContext, studentContext } = await classroom(
      browser,
      'Offline',
      'Long essay',
    );
    const connection = student.getByTestId('connection-state');
    await expect(connection).toHaveAttribute('data-state', 'live');

    let answer = await openAnswer(student, 'Long essay');
    await answer.box.pressSequentially('Typed online. ');
    await expect(answer.status).toHaveText(/^Saved \d\d:\d\d$/);

    await network.goOffline();
    await expect(connection).toHaveAttribute('data-state', 'offline');
    await expect(connection).toContainText('Offline');
    await answer.box.press('End');
    await answer.box.pressSequentially('Typed offline.');
    await expect(answer.status).toHaveText('Saved on this device — reconnecting');
    await screenshots(student, 'drafts-offline');

    // A reload while offline cannot load the app at all; the words are on the device.
    await student.reload().catch(() => {});
    await network.goOnline();
    await student.goto('/assignments');
    answer = await openAnswer(student, 'Long essay');
    await expect(answer.box).toHaveValue('Typed online. Typed offline.');
    await expect(answer.status).toHaveText(/^Saved \d\d:\d\d$/);

    // The server has it: with the device copy gone, a fresh page still shows every word.
    await student.evaluate(
      () =>
        new Promise<void>((resolve) => {
          const request = indexedDB.deleteDatabase('classwave');
          request.onsuccess = request.onerror = request.onblocked = () => resolve();
        }),
    );
    await student.keyboard.press('Escape');
    await student.reload();
    answer = await openAnswer(student, 'Long essay');
    await expect(answer.box).toHaveValue('Typed online. Typed offline.');
    await teacherContext.close();
    await studentContext.close();
  });

  test('a submit pressed offline is sent once on reconnect, with a receipt', async ({ browser }) => {
    const { student, teacher, network, teacherContext, studentContext } = await classroom(
      browser,
      'Queue',
      'Queued answer',
    );
    const answer = await openAnswer(student, 'Queued answer');
    await answer.box.fill('Submitted from a train.');
    await network.goOffline();
    await answer.box.press('End');
    await answer.dialog.getByRole('button', { name: 'Submit Assignment' }).click();
    await expect(answer.dialog.getByText('Waiting for the connection')).toBeVisible();
    await screenshots(student, 'drafts-queued-submit');

    await network.goOnline();
    await expect(student.getByText(/^Receipt [0-9A-F]{4}-[0-9A-F]{4} · \d\d:\d\d:\d\d$/)).toBeVisible();
    await expect(answer.dialog).toBeHidden();
    await expect(cardOf(student, 'Queued answer')).toContainText('Submitted');

    await teacher.goto('/assignments');
    await cardOf(teacher, 'Queued answer')
      .getByRole('button', { name: /View Submissions/ })
      .click();
    const list = teacher.getByRole('dialog', { name: /Submissions for Queued answer/ });
    await expect(list.getByText('Submitted from a train.')).toHaveCount(1);
    await expect(list.getByText('Queue Student')).toHaveCount(1);
    await teacherContext.close();
    await studentContext.close();
  });

  test('two tabs on one draft, both with unsaved text: one wins, the other keeps its text and can restore it', async ({
    browser,
  }) => {
    const { student, studentContext, teacherContext } = await classroom(browser, 'Tabs', 'Shared draft');
    const other = await studentContext.newPage();
    await other.goto('/assignments');

    const first = await openAnswer(await switchTo(student), 'Shared draft');
    await first.box.pressSequentially('From the first tab.');
    await expect(first.status).toHaveText(/^Saved/);

    const second = await openAnswer(await switchTo(other), 'Shared draft');
    await expect(second.box).toHaveValue('From the first tab.');

    // Both tabs hold unsaved text at once, typed on the same version: whichever saves first wins.
    await first.box.fill('First tab, rewritten.');
    await second.box.fill('Second tab, rewritten.');
    const texts = { [0]: 'First tab, rewritten.', [1]: 'Second tab, rewritten.' };
    const tabs = [first, second];
    const pages = [student, other];
    // The losing tab shows the winner's text with "Edited in another tab", and offers its own back.
    const offered = (tab: typeof first) => tab.dialog.getByText('Your text from this tab').isVisible();
    await expect.poll(async () => (await offered(first)) || (await offered(second))).toBe(true);
    const loser = (await offered(first)) ? 0 : 1;
    const winner = 1 - loser;
    const lost = tabs[loser]!;
    await expect(lost.box).toHaveValue(texts[winner as 0 | 1]);
    await expect(lost.dialog.getByText('Edited in another tab')).toBeVisible();
    await expect(lost.dialog.getByTestId('displaced-text')).toHaveText(texts[loser as 0 | 1]);
    await screenshots(pages[loser]!, 'drafts-other-tab');

    // Kept on the device too: a reload of the losing tab still offers it.
    await switchTo(pages[loser]!);
    await pages[loser]!.reload();
    const reopened = await openAnswer(pages[loser]!, 'Shared draft');
    await expect(reopened.dialog.getByTestId('displaced-text')).toHaveText(texts[loser as 0 | 1]);

    // Restoring saves it over the newer version; the winning tab follows.
    await reopened.dialog.getByRole('button', { name: 'Restore' }).click();
    await expect(reopened.box).toHaveValue(texts[loser as 0 | 1]);
    await expect(reopened.status).toHaveText(/^Saved/);
    await expect(tabs[winner]!.box).toHaveValue(texts[loser as 0 | 1]);

    // Submitting in one tab: the other says so at once.
    await reopened.dialog.getByRole('button', { name: 'Submit Assignment' }).click();
    await expect(pages[loser]!.getByText(/^Receipt /)).toBeVisible();
    await expect(tabs[winner]!.dialog.getByText('Submitted in another tab')).toBeVisible();
    await teacherContext.close();
    await studentContext.close();
  });

  test('a session that ends mid-answer loses nothing: signing in again brings the text back', async ({
    browser,
  }) => {
    const { student, studentContext, teacherContext, email } = await classroom(
      browser,
      'Expiry',
      'Interrupted',
    );
    const answer = await openAnswer(student, 'Interrupted');
    await answer.box.pressSequentially('Before the session ended.');
    await expect(answer.status).toHaveText(/^Saved/);
    await answer.box.press('End');
    await answer.box.pressSequentially(' Typed just before.');

    // Another tab signs out: this session ends everywhere, mid-answer.
    const other = await studentContext.newPage();
    await other.goto('/dashboard');
    await other
      .getByRole('complementary', { name: 'Sidebar' })
      .getByRole('button', { name: 'Sign Out' })
      .click();
    await expect(student).toHaveURL(/\/login/);

    await switchTo(student);
    await student.getByLabel('Email').fill(email);
    await student.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await student.getByRole('button', { name: 'Sign In' }).click();
    await expect(student).not.toHaveURL(/\/login/);
    await student.goto('/assignments');
    const again = await openAnswer(student, 'Interrupted');
    await expect(again.box).toHaveValue('Before the session ended. Typed just before.');
    await expect(again.status).toHaveText(/^Saved/);
    await teacherContext.close();
    await studentContext.close();
  });

  test('removed and restored with the answer open: saving resumes by itself, and Submit sends it', async ({
    browser,
  }) => {
    const { teacher, student, teacherContext, studentContext } = await classroom(
      browser,
      'Back',
      'Field notes',
    );
    const { dialog, box, status } = await openAnswer(student, 'Field notes');
    await box.fill('Before the removal');
    await expect(status).toHaveText(/^Saved/);
    await navTo(teacher, 'Courses');
    await teacher.getByRole('link', { name: 'View Course' }).first().click();
    await teacher.getByRole('button', { name: 'Remove Back Student' }).click();
    await teacher.getByRole('alertdialog').getByRole('button', { name: 'Remove student' }).click();
    const gone = dialog.getByText('This assignment is no longer available to you');
    await expect(gone).toBeVisible();
    await box.fill('Before the removal, and during it');

    await teacher.getByRole('button', { name: 'Restore Back Student' }).click();
    await expect(gone).toHaveCount(0);
    await expect(status).toHaveText(/^Saved/);
    await dialog.getByRole('button', { name: 'Submit Assignment' }).click();
    await expect(student.getByText(/^Receipt /)).toBeVisible();
    await teacherContext.close();
    await studentContext.close();
  });
});
