import { expect, test, type Browser, type Page } from '@playwright/test';
import { screenshots, userInOwnBrowser, uniqueEmail } from './support.js';

/**
 * Conversations (issue 27, DESIGN §19): a teacher and two students, each in their own browser (one
 * on a phone), follow the class stream live — a post, a comment, typing, a deletion — and the
 * teacher and one student write back and forth in the student's private thread, with its unread
 * badge appearing and clearing on both sides. Accounts, the course and the assignment are made
 * through the API; only what the issue is about goes through the screens.
 */

const member = (
  browser: Browser,
  fullName: string,
  role: 'teacher' | 'student',
  viewport?: { width: number; height: number },
) => userInOwnBrowser(browser, { fullName, role, email: uniqueEmail('conv-' + role) }, viewport);

const stream = (page: Page) => page.getByRole('region', { name: 'Stream' });
const postOf = (page: Page, text: string) => stream(page).getByRole('article').filter({ hasText: text });

test('conversations: a post, a comment, typing and a deletion reach the class live; a private thread goes back and forth with its unread badge', async ({
  browser,
}) => {
  test.slow();
  const [teacher, ada, bo] = await Promise.all([
    member(browser, 'Grace Teacher', 'teacher'),
    member(browser, 'Ada Student', 'student'),
    member(browser, 'Bo Student', 'student', { width: 390, height: 844 }),
  ]);
  const course = await teacher.page.request.post('/api/courses', {
    headers: teacher.headers,
    data: { title: 'Stream Biology', code: 'SB101', description: 'Where the class talks.' },
  });
  expect(course.status()).toBe(201);
  const { id: courseId, joinCode } = (await course.json()) as { id: string; joinCode: string };
  const assignment = await teacher.page.request.post('/api/assignments', {
    headers: teacher.headers,
    data: { title: 'Cell essay', courseId, dueDate: new Date(Date.now() + 2 * 86_400_000).toISOString() },
  });
  expect(assignment.status()).toBe(201);
  const { id: assignmentId } = (await assignment.json()) as { id: string };
  for (const student of [ada, bo]) {
    const joined = await student.page.request.post('/api/courses/join', {
      headers: student.headers,
      data: { code: joinCode },
    });
    expect(joined.ok(), await joined.text()).toBe(true);
  }

  await Promise.all([teacher, ada, bo].map(({ page }) => page.goto(`/courses/${courseId}`)));
  for (const { page } of [ada, bo]) await expect(stream(page).getByText('No posts yet')).toBeVisible();

  // The teacher posts; both students see it at once, its link linked and its HTML as text.
  const text = 'Lab on Friday: bring goggles.\nReading: https://example.org/cells. <b>Not bold</b>';
  await stream(teacher.page).getByLabel('Share with your class').fill(text);
  await stream(teacher.page).getByRole('button', { name: 'Post', exact: true }).click();
  await expect(teacher.page.getByText('Posted to the class.')).toBeVisible();
  for (const { page } of [ada, bo]) {
    const post = postOf(page, 'Lab on Friday');
    await expect(post).toBeVisible();
    await expect(post.getByRole('link', { name: 'https://example.org/cells' })).toHaveAttribute(
      'href',
      'https://example.org/cells',
    );
    await expect(post.getByText('<b>Not bold</b>')).toBeVisible();
  }
  // Each student has seen it: the teacher's figure moves live (post:seen), without a reload.
  await expect(
    postOf(teacher.page, 'Lab on Friday').getByRole('button', { name: 'Seen by 2 of 2' }),
  ).toBeVisible();

  // A post with a file: uploaded in the composer, it goes out with the post and reaches the class live.
  await stream(teacher.page).getByLabel('Share with your class').fill('Worksheet for Friday');
  await stream(teacher.page)
    .getByLabel('Attach files to the post')
    .setInputFiles({
      name: 'worksheet.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('1. Name a cell part.\n'),
    });
  const composerFiles = stream(teacher.page).getByRole('list', { name: 'Files of the post' }).first();
  await expect(composerFiles.getByText(/ready/)).toBeVisible();
  await stream(teacher.page).getByRole('button', { name: 'Post', exact: true }).click();
  // (The first post's toast may still stand: the post itself says it went out.)
  await expect(
    postOf(teacher.page, 'Worksheet for Friday').getByRole('list', { name: 'Files of the post' }),
  ).toBeVisible();
  for (const { page } of [ada, bo]) {
    const files = postOf(page, 'Worksheet for Friday').getByRole('list', { name: 'Files of the post' });
    await expect(files.getByText('worksheet.txt')).toBeVisible();
  }
  // Ada downloads it: the bytes the teacher attached.
  const [download] = await Promise.all([
    ada.page.waitForEvent('download'),
    postOf(ada.page, 'Worksheet for Friday').getByRole('button', { name: 'Download worksheet.txt' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('worksheet.txt');
  await expect(
    postOf(teacher.page, 'Worksheet for Friday').getByRole('button', { name: 'Seen by 2 of 2' }),
  ).toBeVisible();
  await screenshots(teacher.page, 'conversations-post-files-teacher');
  await screenshots(bo.page, 'conversations-post-files-student');

  // Bo opens the comments; Ada types (Bo sees it) and comments (Bo sees it).
  await postOf(bo.page, 'Lab on Friday').getByRole('button', { name: 'Add a comment' }).click();
  await postOf(ada.page, 'Lab on Friday').getByRole('button', { name: 'Add a comment' }).click();
  const adaBox = postOf(ada.page, 'Lab on Friday').getByLabel('Add a class comment');
  await adaBox.pressSequentially('Can we');
  await expect(postOf(bo.page, 'Lab on Friday').getByText('Ada is typing…')).toBeVisible();
  await adaBox.pressSequentially(' bring our own goggles?');
  await postOf(ada.page, 'Lab on Friday').getByRole('button', { name: 'Send' }).click();
  const boComments = postOf(bo.page, 'Lab on Friday').getByRole('list', { name: 'Comments' });
  await expect(boComments.getByText('Can we bring our own goggles?')).toBeVisible();
  await expect(postOf(bo.page, 'Lab on Friday').getByText('Ada is typing…')).toBeHidden();

  // The teacher deletes it: "Comment deleted" everywhere, its words nowhere.
  await postOf(teacher.page, 'Lab on Friday').getByRole('button', { name: '1 comment' }).click();
  await postOf(teacher.page, 'Lab on Friday')
    .getByRole('button', { name: "Actions for Ada Student's comment" })
    .click();
  await teacher.page.getByRole('button', { name: 'Delete comment' }).click();
  for (const { page } of [teacher, ada, bo]) {
    await expect(postOf(page, 'Lab on Friday').getByText('Comment deleted')).toBeVisible();
    await expect(page.getByText('Can we bring our own goggles?')).toHaveCount(0);
  }
  await screenshots(bo.page, 'conversations-stream-student');
  await screenshots(teacher.page, 'conversations-stream-teacher');

  // Private thread: the teacher writes from the grading view while looking at Ada's work.
  await teacher.page.goto(`/assignments/${assignmentId}/grading?student=${ada.id}`);
  const teacherThread = teacher.page.getByRole('region', { name: 'Private comments' });
  await teacherThread.getByLabel('Private comment to Ada Student').fill('Please add your sources.');
  await teacherThread.getByRole('button', { name: 'Send' }).click();
  await expect(
    teacherThread.getByRole('list', { name: 'Private comments' }).getByText('Please add your sources.'),
  ).toBeVisible();

  // Ada sees the badge on her assignment; opening the thread reads it and clears it.
  await ada.page.goto('/assignments');
  const card = ada.page.getByRole('article', { name: 'Cell essay' });
  await expect(card.getByTestId('thread-unread')).toHaveText('1 unread');
  await card.getByRole('button', { name: /Private comments/ }).click();
  const dialog = ada.page.getByRole('dialog', { name: 'Private comments' });
  await expect(
    dialog.getByRole('list', { name: 'Private comments' }).getByText('Please add your sources.'),
  ).toBeVisible();
  await expect(card.getByTestId('thread-unread')).toHaveCount(0);

  // The teacher moves on to Bo; Ada's reply shows as unread on her name, and clears when opened.
  await teacher.page
    .getByRole('navigation', { name: 'Students' })
    .getByRole('button', { name: /Bo Student/ })
    .click();
  await dialog.getByLabel('Private comment to your teacher').fill('Added three sources, thanks!');
  await dialog.getByRole('button', { name: 'Send' }).click();
  await expect(
    dialog.getByRole('list', { name: 'Private comments' }).getByText('Added three sources, thanks!'),
  ).toBeVisible();
  const adaInList = teacher.page
    .getByRole('navigation', { name: 'Students' })
    .getByRole('button', { name: /Ada Student/ });
  await expect(adaInList.getByText('1 new')).toBeVisible();
  await adaInList.click();
  await expect(
    teacherThread.getByRole('list', { name: 'Private comments' }).getByText('Added three sources, thanks!'),
  ).toBeVisible();
  await expect(adaInList.getByText('1 new')).toHaveCount(0);

  await screenshots(ada.page, 'conversations-thread-student');
  await screenshots(teacher.page, 'conversations-thread-teacher');

  // What's new: a post while Ada is elsewhere shows on her dashboard's to-do; opening the stream clears it.
  const later = await teacher.page.request.post(`/api/courses/${courseId}/posts`, {
    headers: teacher.headers,
    data: { text: 'Field trip on Monday\nPermission slips are due on Friday.' },
  });
  expect(later.status(), await later.text()).toBe(201);
  await ada.page.goto('/dashboard');
  const news = ada.page.getByRole('region', { name: /New in your classes/ });
  const latest = news.getByRole('link', { name: /Field trip on Monday/ });
  await expect(latest).toContainText('Stream Biology, 1 new post');
  await screenshots(ada.page, 'conversations-news-student');
  await latest.click();
  await expect(postOf(ada.page, 'Field trip on Monday')).toBeVisible();
  await ada.page.goto('/dashboard');
  await expect(ada.page.getByRole('heading', { name: 'To-do' })).toBeVisible();
  await expect(ada.page.getByRole('region', { name: /New in your classes/ })).toHaveCount(0);
});
