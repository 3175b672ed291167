import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { controllableNetwork } from './network.js';
import { createCourseByApi, joinByApi, navTo, screenshots, signUpAndSignIn, uniqueEmail } from './support.js';

/**
 * Attachments (issue 26, DESIGN §18): a student on a phone attaches a photo and a PDF while offline;
 * they wait on the device through a reload, upload once the connection is back (the teacher watches
 * them move), and the submit's receipt comes only once both are stored. The teacher opens both in
 * the app and downloads every file as one zip.
 */

const inTwoDays = () => {
  const d = new Date(Date.now() + 2 * 86_400_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

const cardOf = (page: Page, title: string) =>
  page.getByRole('list', { name: 'Assignments' }).getByRole('listitem').filter({ hasText: title });

/** A real JPEG of about 1 MB (noise does not compress), drawn by the browser itself. */
async function photoBytes(page: Page): Promise<Buffer> {
  const base64 = await page.evaluate(async () => {
    const canvas = document.createElement('canvas');
    canvas.width = 900;
    canvas.height = 700;
    const context = canvas.getContext('2d')!;
    const pixels = context.createImageData(canvas.width, canvas.height);
    for (let i = 0; i < pixels.data.length; i++) pixels.data[i] = ((i * 7919) % 251) ^ (i >> 9);
    context.putImageData(pixels, 0, 0);
    context.fillStyle = '#4f46e5';
    context.fillRect(100, 100, 300, 200);
    const blob = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), 'image/jpeg', 0.95));
    const bytes = new Uint8Array(await blob.arrayBuffer());
    let text = '';
    for (const byte of bytes) text += String.fromCharCode(byte);
    return btoa(text);
  });
  return Buffer.from(base64, 'base64');
}

/** A one-page PDF, padded with comment lines to about 400 KB. */
function pdfBytes(): Buffer {
  const body =
    '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
    '3 0 obj<</Type/Page/MediaBox[0 0 300 200]/Parent 2 0 R>>endobj\n';
  const padding = `%${'x'.repeat(98)}\n`.repeat(4000);
  return Buffer.from(`${body}${padding}trailer<</Root 1 0 R>>\n%%EOF\n`);
}

test.describe('attachments', () => {
  test.describe.configure({ timeout: 150_000 });

  test('a photo and a PDF chosen offline upload when back online; the receipt waits for both', async ({
    browser,
  }) => {
    const teacherContext = await browser.newContext();
    const teacher = await teacherContext.newPage();
    const studentContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const network = await controllableNetwork(studentContext);
    const student = await studentContext.newPage();
    // Side by side, and the class through the API (its forms are other journeys' subject).
    const [teacherAuth, studentAuth] = await Promise.all([
      signUpAndSignIn(teacher, { fullName: 'File Teacher', role: 'Teacher', email: uniqueEmail('file-t') }),
      signUpAndSignIn(student, { fullName: 'File Student', role: 'Student', email: uniqueEmail('file-s') }),
    ]);
    const course = 'Lab Course';
    const code = `LB${Date.now().toString(36).slice(-5).toUpperCase()}`;
    const { joinCode } = await createCourseByApi(teacher, teacherAuth, {
      title: course,
      code,
      description: 'Handing in what is on paper.',
    });
    await joinByApi(student, studentAuth, joinCode);

    await navTo(teacher, 'Assignments');
    await teacher.getByRole('button', { name: 'Create Assignment' }).click();
    const create = teacher.getByRole('dialog', { name: 'Create Assignment' });
    await create.getByLabel('Title').fill('Lab sheet');
    await create.getByLabel('Course').selectOption({ label: `${course} (${code})` });
    await create.getByLabel('Due Date').fill(inTwoDays());
    // A worksheet chosen with the assignment: held by the dialog, uploaded once the assignment exists.
    await create.getByLabel('Attach files to materials').setInputFiles({
      name: 'instructions.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('Photograph the experiment, then fill in the sheet.'),
    });
    await expect(create.getByRole('list', { name: 'Materials' }).getByRole('listitem')).toHaveText([
      /instructions\.txt.*uploaded when created/,
    ]);
    await create.getByRole('list', { name: 'Materials' }).scrollIntoViewIfNeeded();
    await screenshots(teacher, 'attachments-create-materials');
    await create.getByRole('button', { name: 'Create Assignment' }).click();
    await expect(create).toBeHidden();
    await expect(teacher.getByText('Materials uploaded: 1 file.')).toBeVisible();
    // Edit Assignment lists it as the server has it.
    await cardOf(teacher, 'Lab sheet').getByRole('button', { name: 'Edit assignment' }).click();
    const edit = teacher.getByRole('dialog', { name: 'Edit Assignment' });
    await expect(edit.getByRole('list', { name: 'Materials' }).getByRole('listitem')).toHaveText([
      /instructions\.txt/,
    ]);
    await edit.getByRole('button', { name: 'Cancel' }).click();
    // The teacher watches the assignment while the work comes in.
    await cardOf(teacher, 'Lab sheet')
      .getByRole('button', { name: /View Submissions/ })
      .click();
    const submissions = teacher.getByRole('dialog', { name: 'Submissions for Lab sheet' });
    await expect(submissions).toBeVisible();

    const photo = await photoBytes(teacher);
    const pdf = pdfBytes();

    // Offline on the phone: the files are kept on the device and say they wait.
    await student.goto('/assignments');
    await cardOf(student, 'Lab sheet').getByRole('button', { name: 'Submit' }).click();
    let answer = student.getByRole('dialog', { name: 'Submit Assignment' });
    await expect(answer.getByRole('list', { name: 'Materials' }).getByRole('listitem')).toHaveText([
      /instructions\.txt/,
    ]);
    await network.goOffline();
    await answer.getByLabel('Attach files').setInputFiles([
      { name: 'experiment.jpg', mimeType: 'image/jpeg', buffer: photo },
      { name: 'lab-sheet.pdf', mimeType: 'application/pdf', buffer: pdf },
    ]);
    const attached = answer.getByRole('list', { name: 'Attached files' });
    await expect(attached.getByRole('listitem')).toHaveCount(2);
    await expect(attached.getByRole('listitem', { name: 'experiment.jpg' })).toContainText(
      'waiting for a connection',
    );
    await screenshots(student, 'attachments-offline');

    // A reload while offline (Chromium's error page), then back online: the files are still there.
    await student.reload().catch(() => {});
    await network.goOnline();
    // Slow enough an upload for the teacher to see it move for a few seconds (about 100 KB/s).
    const cdp = await studentContext.newCDPSession(student);
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 20,
      downloadThroughput: -1,
      uploadThroughput: 100 * 1024,
    });
    await student.goto('/assignments');
    await cardOf(student, 'Lab sheet').getByRole('button', { name: 'Submit' }).click();
    answer = student.getByRole('dialog', { name: 'Submit Assignment' });
    await expect(answer.getByRole('list', { name: 'Attached files' }).getByRole('listitem')).toHaveCount(2);
    await answer
      .getByLabel('Your Submission')
      .fill('The photo is of the experiment, the sheet has my results.');

    // Pressed while they upload: no receipt until both are stored.
    await answer.getByRole('button', { name: 'Submit Assignment' }).click();
    await expect(answer.getByText('Submitting once your files are uploaded')).toBeVisible();
    const receipt = student.getByText(/^Receipt [0-9A-F]{4}-[0-9A-F]{4} · \d\d:\d\d:\d\d$/);
    await expect(receipt).toBeHidden();
    // The teacher sees the uploads move, live.
    await expect(submissions.getByText(/^Uploading now: [12] files?, \d+ %$/)).toBeVisible({
      timeout: 15_000,
    });
    await screenshots(teacher, 'attachments-teacher-uploading');
    await expect(receipt).toBeVisible({ timeout: 30_000 });
    await expect(answer).toBeHidden();

    // The work arrives in the teacher's open list with both files; both open in the app.
    const files = submissions.getByRole('list', { name: 'Files from File Student' });
    await expect(files.getByRole('listitem')).toHaveCount(2);
    await files
      .getByRole('listitem', { name: 'experiment.jpg' })
      .getByRole('button', { name: 'Open' })
      .click();
    const preview = teacher.getByRole('dialog', { name: 'experiment.jpg' });
    await expect(preview.getByRole('img', { name: 'experiment.jpg' })).toHaveAttribute('src', /^blob:/);
    await expect
      .poll(() => preview.getByRole('img').evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBe(900);
    await screenshots(teacher, 'attachments-preview');
    await preview.getByRole('button', { name: 'Close' }).click();
    await files
      .getByRole('listitem', { name: 'lab-sheet.pdf' })
      .getByRole('button', { name: 'Open' })
      .click();
    const pdfPreview = teacher.getByRole('dialog', { name: 'lab-sheet.pdf' });
    await expect(pdfPreview.locator('iframe')).toHaveAttribute('src', /^blob:/);
    await screenshots(teacher, 'attachments-pdf');
    await pdfPreview.getByRole('button', { name: 'Close' }).click();

    // Every file at once: a zip with a folder for the student.
    const [download] = await Promise.all([
      teacher.waitForEvent('download'),
      submissions.getByRole('button', { name: 'Download all files (zip)' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('Lab sheet.zip');
    const zip = readFileSync((await download.path())!);
    expect(zip.subarray(0, 2).toString()).toBe('PK');
    expect(zip.includes('experiment.jpg')).toBe(true);
    expect(zip.includes('lab-sheet.pdf')).toBe(true);
    await screenshots(teacher, 'attachments-teacher');

    // Graded one by one, with a file of comments beside the grade.
    await submissions.getByRole('link', { name: 'Grade one by one' }).click();
    await expect(teacher).toHaveURL(/\/assignments\/[^/]+\/grading/);
    await teacher.getByLabel('Attach files to feedback files').setInputFiles({
      name: 'comments.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('Label the axes next time.'),
    });
    await expect(teacher.getByRole('list', { name: 'Feedback files' }).getByRole('listitem')).toHaveText([
      /comments\.txt/,
    ]);
    const form = teacher.getByRole('form', { name: "Grade File Student's submission" });
    await form.getByLabel('Points').fill('90');
    await form.getByRole('button', { name: 'Save grade' }).click();
    await expect(teacher.getByText('Grade saved')).toBeVisible();
    // The saved grade's answer carries no files: the work keeps its own.
    await expect(teacher.getByRole('list', { name: 'Files handed in' }).getByRole('listitem')).toHaveCount(2);
    await screenshots(teacher, 'attachments-grading');

    // The student reads back their files with the work, and the teacher's file with the grade.
    await cardOf(student, 'Lab sheet').getByRole('button', { name: 'View Submission' }).click();
    const view = student.getByRole('dialog', { name: 'Your Submission' });
    await expect(view.getByRole('list', { name: 'Your files' }).getByRole('listitem')).toHaveCount(2);
    await expect(
      view.getByRole('list', { name: 'Files from your teacher' }).getByRole('listitem'),
    ).toHaveText([/comments\.txt/]);
    await screenshots(student, 'attachments-student-view');

    await teacherContext.close();
    await studentContext.close();
  });
});
