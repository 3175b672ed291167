import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, type LiveEvent, type Post, type PostPage, type StreamNewsItem } from '@classwave/shared';
import type { Logger } from 'drizzle-orm';
import { commentOn, createPost } from '../../test/support/conversations.js';
import {
  addCoTeacher,
  createClass,
  createCourse,
  createStudent,
  createTeacher,
  inDays,
  joinCourse,
  type Actor,
} from '../../test/support/factories.js';
import { liveTestApp, type LiveTestApp } from '../../test/support/live-app.js';
import { createUpload, uploadFile } from '../../test/support/uploads.js';
import { files } from '../db/schema.js';
import { FILES_SWEEP_KIND } from '../files/uploads.js';

/**
 * A post's attachments (DESIGN §19 with §18), its live "seen by" and "what's new": files uploaded
 * in the composer go out with the post and are seen as it is; first views reach the teachers
 * coalesced; each reader's news counts what others wrote since they last opened the stream.
 */
let t: LiveTestApp;
let dataDir: string;
beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'classwave-post-files-'));
  t = await liveTestApp({ env: { DATA_DIR: dataDir, LOG_LEVEL: 'error' } });
});
afterAll(() => t.close());

const get = (who: Actor | undefined, path: string) =>
  t.app.inject({ method: 'GET', url: path, headers: who?.headers ?? {} });
const postFile = (courseId: string, name = 'slides.txt') => ({ purpose: 'post', targetId: courseId, name });
const storedFiles = () => readdirSync(dataDir, { recursive: true }).length;

describe('files on a post', () => {
  it('go out with the post: the class hears them live and downloads them; outsiders get 404', async () => {
    const { teacher, course, students } = await createClass(t, 2);
    const [ada, ben] = students as [Actor, Actor];
    const [coTeacher, otherTeacher, stranger] = await Promise.all([
      createTeacher(t, 'Co Teacher'),
      createTeacher(t, 'Other Teacher'),
      createStudent(t, 'Stranger'),
    ]);
    await addCoTeacher(t, teacher, course, coTeacher);
    const bytes = Buffer.from('Week 1 slides\n');
    const fileId = await uploadFile(t, teacher, postFile(course.id), bytes);
    // In the composer it is its uploader's alone.
    expect((await get(ada, `/api/files/${fileId}`)).statusCode).toBe(404);
    expect((await get(teacher, `/api/files/${fileId}`)).statusCode).toBe(200);

    const adaTab = await t.tab(ada);
    const post = await createPost(t, teacher, course.id, { text: 'Slides', fileIds: [fileId] });
    const file = { id: fileId, name: 'slides.txt', size: bytes.length, type: 'text/plain' };
    expect(post.files).toEqual([file]);
    const live = await adaTab.waitFor((e) => e.type === 'post:created' && (e.data as Post).id === post.id);
    expect((live.data as Post).files).toEqual([file]);
    const listed = (await get(ben, `/api/courses/${course.id}/posts`)).json<PostPage>();
    expect(listed.items[0]!.files).toEqual([file]);

    for (const who of [teacher, coTeacher, ada, ben]) {
      const res = await get(who, `/api/files/${fileId}`);
      expect(res.statusCode, who.fullName).toBe(200);
      expect(res.rawPayload.equals(bytes)).toBe(true);
    }
    await t.app.inject({
      method: 'DELETE',
      url: `/api/courses/${course.id}/members/${ben.id}`,
      headers: teacher.headers,
    });
    for (const who of [ben, otherTeacher, stranger])
      expect((await get(who, `/api/files/${fileId}`)).statusCode, who.fullName).toBe(404);
    expect((await get(undefined, `/api/files/${fileId}`)).statusCode).toBe(401);
    // On a post, a file goes with the post: not removed alone.
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/files/${fileId}`,
      headers: teacher.headers,
    });
    expect(del.statusCode).toBe(404);
  });

  it('wait with a scheduled post (its teacher sees them) and go out when it is published', async () => {
    const { teacher, course, students } = await createClass(t, 1);
    const ada = students[0] as Actor;
    const fileId = await uploadFile(t, teacher, postFile(course.id, 'later.txt'), Buffer.from('later'));
    const adaTab = await t.tab(ada);
    const post = await createPost(t, teacher, course.id, {
      text: 'Later',
      publishAt: inDays(1),
      fileIds: [fileId],
    });
    expect((await get(ada, `/api/files/${fileId}`)).statusCode).toBe(404);
    expect((await get(teacher, `/api/files/${fileId}`)).statusCode).toBe(200);
    const asTeacher = (await get(teacher, `/api/courses/${course.id}/posts`)).json<PostPage>();
    expect(asTeacher.scheduled[0]!.files.map((f) => f.id)).toEqual([fileId]);

    const now = await t.app.inject({
      method: 'PATCH',
      url: `/api/posts/${post.id}`,
      headers: teacher.headers,
      payload: { publishAt: null },
    });
    expect(now.statusCode, now.body).toBe(200);
    const live = await adaTab.waitFor((e) => e.type === 'post:created' && (e.data as Post).id === post.id);
    expect((live.data as Post).files.map((f) => f.id)).toEqual([fileId]);
    expect((await get(ada, `/api/files/${fileId}`)).statusCode).toBe(200);
  });

  it('are deleted with their post: rows and bytes', async () => {
    const { teacher, course } = await createClass(t, 0);
    const before = storedFiles();
    const fileId = await uploadFile(t, teacher, postFile(course.id), Buffer.from('gone soon'));
    expect(storedFiles()).toBeGreaterThan(before);
    const post = await createPost(t, teacher, course.id, { text: 'Brief', fileIds: [fileId] });
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/posts/${post.id}`,
      headers: teacher.headers,
    });
    expect(res.statusCode).toBe(204);
    expect((await get(teacher, `/api/files/${fileId}`)).statusCode).toBe(404);
    expect(await t.app.core.db.select().from(files).where(eq(files.id, fileId))).toEqual([]);
    expect(storedFiles()).toBe(before);
  });

  it("are uploaded by the course's teachers only, and attached only by their uploader, once stored", async () => {
    const { teacher, course, students } = await createClass(t, 1);
    const ada = students[0] as Actor;
    const otherTeacher = await createTeacher(t);
    expect((await createUpload(t, ada, postFile(course.id), 5)).statusCode).toBe(403);
    expect((await createUpload(t, otherTeacher, postFile(course.id), 5)).statusCode).toBe(404);
    expect((await createUpload(t, undefined, postFile(course.id), 5)).statusCode).toBe(401);

    const theirs = await uploadFile(
      t,
      otherTeacher,
      postFile((await createCourse(t, otherTeacher)).id),
      Buffer.from('x'),
    );
    const refused = await t.app.inject({
      method: 'POST',
      url: `/api/courses/${course.id}/posts`,
      headers: teacher.headers,
      payload: { text: 'Not mine', fileIds: [theirs] },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: ErrorCode.validationFailed });

    const pending = await createUpload(t, teacher, postFile(course.id), 10);
    const pendingId = String(pending.headers.location).split('/').pop()!;
    const early = await t.app.inject({
      method: 'POST',
      url: `/api/courses/${course.id}/posts`,
      headers: teacher.headers,
      payload: { text: 'Too soon', fileIds: [pendingId] },
    });
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ code: ErrorCode.filesNotReady });
    // The refused post is not there: the post and its files are one write.
    const listed = (await get(teacher, `/api/courses/${course.id}/posts`)).json<PostPage>();
    expect(listed.items).toEqual([]);
  });
});

describe("a post's files and the daily sweep", () => {
  it('sweeps a file left in a composer for a day, and keeps the files that went out with a post', async () => {
    const { teacher, course } = await createClass(t, 0);
    const left = await uploadFile(t, teacher, postFile(course.id, 'left.txt'), Buffer.from('left'));
    const kept = await uploadFile(t, teacher, postFile(course.id, 'kept.txt'), Buffer.from('kept'));
    await createPost(t, teacher, course.id, { text: 'With one file', fileIds: [kept] });
    t.clock.advance(25 * 3600 * 1000);
    try {
      await t.app.core.jobs.runNow([FILES_SWEEP_KIND]);
    } finally {
      t.clock.advance(-25 * 3600 * 1000);
    }
    expect(await t.app.core.db.select().from(files).where(eq(files.id, left))).toEqual([]);
    expect((await get(teacher, `/api/files/${left}`)).statusCode).toBe(404);
    expect((await get(teacher, `/api/files/${kept}`)).statusCode).toBe(200);
  });
});

describe('seen by, live', () => {
  it('reaches the teachers once for many first views at once, and never a student', async () => {
    const { teacher, course, students } = await createClass(t, 6);
    const post = await createPost(t, teacher, course.id, { text: 'Read me' });
    const teacherTab = await t.tab(teacher);
    const watcher = await t.tab(students[5]!);
    await Promise.all(
      students
        .slice(0, 5)
        .map((s) => t.app.inject({ method: 'POST', url: `/api/posts/${post.id}/seen`, headers: s.headers })),
    );
    const heard = await teacherTab.waitFor(
      (e) => e.type === 'post:seen' && (e as LiveEvent<'post:seen'>).data.seen.count === 5,
    );
    expect((heard as LiveEvent<'post:seen'>).data).toMatchObject({
      postId: post.id,
      courseId: course.id,
      seen: { count: 5, of: 6 },
    });
    // Coalesced: five first views, at most two events (a window may close between them), not five.
    await new Promise((r) => setTimeout(r, 700));
    expect(teacherTab.events.filter((e) => e.type === 'post:seen').length).toBeLessThanOrEqual(2);
    // A view counted already moves nothing; students never hear it.
    await t.app.inject({ method: 'POST', url: `/api/posts/${post.id}/seen`, headers: students[0]!.headers });
    await new Promise((r) => setTimeout(r, 700));
    expect(teacherTab.events.filter((e) => e.type === 'post:seen').length).toBeLessThanOrEqual(2);
    expect(watcher.events.some((e) => e.type === 'post:seen')).toBe(false);
  });
});

describe("what's new", () => {
  const news = async (who: Actor) => {
    const res = await get(who, '/api/stream/news');
    expect(res.statusCode, res.body).toBe(200);
    return res.json<StreamNewsItem[]>();
  };

  it('counts posts and comments by others since the reader last opened the stream; opening clears it', async () => {
    const { teacher, course, students } = await createClass(t, 2);
    const [ada, ben] = students as [Actor, Actor];
    expect(await news(ada)).toEqual([]);
    const first = await createPost(t, teacher, course.id, { text: 'Old news' });
    await new Promise((r) => setTimeout(r, 5));
    await createPost(t, teacher, course.id, { text: '\nQuiz on Friday\nBring a pencil.' });
    await createPost(t, teacher, course.id, { text: 'Not yet', publishAt: inDays(1) });
    await commentOn(t, ben, first.id, 'Me too');
    await commentOn(t, ada, first.id, 'Mine does not count for me');
    const [item] = await news(ada);
    expect(item).toMatchObject({
      courseId: course.id,
      courseTitle: course.title,
      newPosts: 2,
      newComments: 1,
      latest: { title: 'Quiz on Friday' },
    });
    // The teacher hears the students' comments.
    expect((await news(teacher))[0]).toMatchObject({ newPosts: 0, newComments: 2, latest: null });

    const read = await t.app.inject({
      method: 'POST',
      url: `/api/courses/${course.id}/stream/read`,
      headers: ada.headers,
    });
    expect(read.statusCode).toBe(204);
    expect(await news(ada)).toEqual([]);
    expect(await news(ben)).toHaveLength(1);
    // A post the reader has seen (on screen, live, with no mark written after it: a tab closed at
    // once) is not news; one they have not seen still is.
    const seen = await createPost(t, teacher, course.id, { text: 'Seen live' });
    await createPost(t, teacher, course.id, { text: 'Not seen' });
    const saw = await t.app.inject({
      method: 'POST',
      url: `/api/posts/${seen.id}/seen`,
      headers: ada.headers,
    });
    expect(saw.statusCode).toBe(204);
    expect(await news(ada)).toMatchObject([{ newPosts: 1, latest: { title: 'Not seen' } }]);
    // Opening a stream one does not read: 404.
    const outsider = await createStudent(t);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/courses/${course.id}/stream/read`,
          headers: outsider.headers,
        })
      ).statusCode,
    ).toBe(404);
  });

  it('is one statement however many courses', async () => {
    const ada = await createStudent(t);
    for (let i = 0; i < 3; i++) {
      const { teacher, course } = await createClass(t, 0);
      await joinCourse(t, ada, course);
      await createPost(t, teacher, course.id, { text: `Post ${i}` });
    }
    await get(ada, '/api/me');
    type Session = { logger: Logger };
    const session = (t.app.core.db as unknown as { session: Session }).session;
    const sent: string[] = [];
    const before = session.logger;
    session.logger = { logQuery: (q) => void sent.push(q) };
    try {
      expect(await news(ada)).toHaveLength(3);
    } finally {
      session.logger = before;
    }
    expect(sent).toHaveLength(1);
  });
});
