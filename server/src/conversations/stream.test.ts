import { like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, type CommentPage, type PostPage } from '@classwave/shared';
import { comments, events, posts } from '../db/schema.js';
import { commentOn, createPost } from '../../test/support/conversations.js';
import {
  addCoTeacher,
  createClass,
  createStudent,
  createTeacher,
  type Actor,
} from '../../test/support/factories.js';
import { liveTestApp, type LiveTestApp } from '../../test/support/live-app.js';

/** The class stream (DESIGN §19): posts, comments, switches and "seen by", live. */
let t: LiveTestApp;
beforeAll(async () => {
  t = await liveTestApp({
    conversationLimits: { posts: { max: 6, timeWindow: 60_000 } },
    env: { LOG_LEVEL: 'error' },
  });
});
afterAll(() => t.close());

const page = async (who: Actor, courseId: string, query = '') => {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/courses/${courseId}/posts${query}`,
    headers: who.headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<PostPage>();
};

describe('posts', () => {
  it('reach the class live, newest first, pinned apart, with the teacher alone seeing who has seen them', async () => {
    const { teacher, course, students } = await createClass(t, 2);
    const [ada, ben] = students as [Actor, Actor];
    const adaTab = await t.tab(ada);
    const first = await createPost(t, teacher, course.id, { text: 'Line one\nline two https://example.org' });
    const live = await adaTab.waitFor(
      (e) => e.type === 'post:created' && (e.data as { id: string }).id === first.id,
    );
    expect(live.data).toMatchObject({
      text: 'Line one\nline two https://example.org',
      seen: null,
      seenByMe: false,
    });
    const pinned = await createPost(t, teacher, course.id, { text: 'Rules', pinned: true });

    expect(
      (await t.app.inject({ method: 'POST', url: `/api/posts/${first.id}/seen`, headers: ada.headers }))
        .statusCode,
    ).toBe(204);
    // Twice counts once.
    await t.app.inject({ method: 'POST', url: `/api/posts/${first.id}/seen`, headers: ada.headers });

    const asTeacher = await page(teacher, course.id);
    expect(asTeacher.items.map((p) => p.id)).toEqual([first.id]);
    expect(asTeacher.pinned.map((p) => p.id)).toEqual([pinned.id]);
    expect(asTeacher.items[0]!.seen).toEqual({
      count: 1,
      of: 2,
      by: [{ id: ada.id, fullName: ada.fullName }],
    });
    const asBen = await page(ben, course.id);
    expect(asBen.items[0]!.seen).toBeNull();
    expect(asBen.items[0]!.seenByMe).toBe(false);
    expect((await page(ada, course.id)).items[0]!.seenByMe).toBe(true);
  });

  it('are posted, edited and deleted by the course’s teacher only; students are told 403, strangers 404', async () => {
    const { teacher, course, students } = await createClass(t, 1);
    const other = await createTeacher(t);
    const stranger = await createStudent(t);
    const post = await createPost(t, teacher, course.id);
    const tries = [
      { who: students[0]!, status: 403 },
      { who: other, status: 404 },
      { who: stranger, status: 404 },
    ];
    for (const { who, status } of tries) {
      const made = await t.app.inject({
        method: 'POST',
        url: `/api/courses/${course.id}/posts`,
        headers: who.headers,
        payload: { text: 'Mine' },
      });
      expect(made.statusCode).toBe(status);
      const edited = await t.app.inject({
        method: 'PATCH',
        url: `/api/posts/${post.id}`,
        headers: who.headers,
        payload: { text: 'Changed' },
      });
      expect(edited.statusCode).toBe(status);
    }
    const edited = await t.app.inject({
      method: 'PATCH',
      url: `/api/posts/${post.id}`,
      headers: teacher.headers,
      payload: { text: 'Changed', pinned: true },
    });
    expect(edited.json()).toMatchObject({ text: 'Changed', pinned: true, editedAt: expect.any(String) });
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/posts/${post.id}`,
      headers: teacher.headers,
    });
    expect(removed.statusCode).toBe(204);
    expect((await page(teacher, course.id)).pinned).toEqual([]);
  });

  it('refuses text that is blank, too long, or not text, naming the problem', async () => {
    const { teacher, course } = await createClass(t, 0);
    const cases: Array<[unknown, string]> = [
      ['   \n\t', 'body.text'],
      ['x'.repeat(10_001), '10000'],
      [42, 'body.text'],
    ];
    for (const [text, named] of cases) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/courses/${course.id}/posts`,
        headers: teacher.headers,
        payload: { text },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toContain(named);
    }
    const nul = await t.app.inject({
      method: 'POST',
      url: `/api/courses/${course.id}/posts`,
      headers: { ...teacher.headers, 'content-type': 'application/json' },
      payload: '{"text":"a\\u0000b"}',
    });
    expect(nul.statusCode).toBe(400);
    const exact = await createPost(t, teacher, course.id, { text: 'y'.repeat(10_000) });
    expect(exact.text).toHaveLength(10_000);
  });

  it('pages with before=, and refuses a cursor it did not hand out', async () => {
    const { teacher, course, students } = await createClass(t, 1);
    const made = [];
    for (let i = 0; i < 5; i++) {
      made.push(await createPost(t, teacher, course.id, { text: `Post ${i}` }));
      t.clock.advance(1000);
    }
    const first = await page(students[0]!, course.id, '?limit=2');
    expect(first.items.map((p) => p.text)).toEqual(['Post 4', 'Post 3']);
    const second = await page(students[0]!, course.id, `?limit=2&before=${first.nextBefore}`);
    expect(second.items.map((p) => p.text)).toEqual(['Post 2', 'Post 1']);
    const third = await page(students[0]!, course.id, `?limit=2&before=${second.nextBefore}`);
    expect(third.items.map((p) => p.text)).toEqual(['Post 0']);
    expect(third.nextBefore).toBeNull();
    for (const bad of [
      'nope',
      'bm9wZQ',
      Buffer.from('2026-01-01T00:00:00.000Z|x').toString('base64url'),
      '%00',
    ]) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/courses/${course.id}/posts?before=${bad}`,
        headers: teacher.headers,
      });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().message).toContain('before');
    }
  }, 20_000);

  it('publishes a scheduled post at its time, once, and hides it from the class until then', async () => {
    const { teacher, course, students } = await createClass(t, 1);
    const adaTab = await t.tab(students[0]!);
    const at = new Date(t.clock.now().getTime() + 5 * 60_000).toISOString();
    const post = await createPost(t, teacher, course.id, { text: 'Later', publishAt: at });
    expect(post).toMatchObject({ publishAt: at, publishedAt: null });
    expect((await page(teacher, course.id)).scheduled.map((p) => p.id)).toEqual([post.id]);
    expect((await page(students[0]!, course.id)).items).toEqual([]);
    const hidden = await t.app.inject({
      method: 'GET',
      url: `/api/posts/${post.id}/comments`,
      headers: students[0]!.headers,
    });
    expect(hidden.statusCode).toBe(404);
    // Not even its teacher comments before it is out: the class would hear of it.
    const early = await t.app.inject({
      method: 'POST',
      url: `/api/posts/${post.id}/comments`,
      headers: teacher.headers,
      payload: { text: 'Too soon' },
    });
    expect(early.statusCode).toBe(409);
    await t.app.core.jobs.runDue();
    expect((await page(students[0]!, course.id)).items).toEqual([]);
    t.clock.advance(5 * 60_000);
    await t.app.core.jobs.runDue();
    await t.app.core.jobs.runDue();
    const seen = (await page(students[0]!, course.id)).items;
    expect(seen.map((p) => p.id)).toEqual([post.id]);
    await adaTab.waitFor((e) => e.type === 'post:created' && (e.data as { id: string }).id === post.id);
    expect(
      adaTab.events.filter((e) => e.type === 'post:created' && (e.data as { id: string }).id === post.id),
    ).toHaveLength(1);
  });

  it('answers, sends and stores one and the same post published now, to the class and each of its teachers', async () => {
    // Its event is written by the post's own statement (issue 27): the author's name and the
    // teachers' rooms come from the database, as they did from the transaction's reads.
    const { teacher, course, students } = await createClass(t, 1);
    const co = await createTeacher(t);
    await addCoTeacher(t, teacher, course, co);
    const tabs = await Promise.all([teacher, co, students[0]!].map((who) => t.tab(who)));
    const post = await createPost(t, co, course.id, { text: 'From the co-teacher' });
    expect(post.author).toEqual({ id: co.id, fullName: co.fullName });
    for (const tab of tabs) {
      const live = await tab.waitFor(
        (e) => e.type === 'post:created' && (e.data as { id: string }).id === post.id,
      );
      expect(live.data).toEqual(post);
    }
    const stored = await t.app.core.db
      .select({ data: events.data, audience: events.audience })
      .from(events)
      .where(sql`${events.type} = 'post:created' and ${events.data}->>'id' = ${post.id}`);
    expect(stored).toHaveLength(1);
    expect(stored[0]!.data).toEqual(post);
    expect([...new Set(stored[0]!.audience)].sort()).toEqual(
      [`course:${course.id}`, `user:${teacher.id}`, `user:${co.id}`].sort(),
    );
    // A stranger's or a member student's post writes neither a post nor an event.
    for (const [who, status] of [
      [await createTeacher(t), 404],
      [students[0]!, 403],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/courses/${course.id}/posts`,
        headers: who.headers,
        payload: { text: 'Not mine to post' },
      });
      expect(res.statusCode, res.body).toBe(status);
    }
    const refused = sql`(select count(*)::int from ${posts} where ${posts.text} = 'Not mine to post')
      + (select count(*)::int from ${events} where ${events.data}->>'text' = 'Not mine to post')`;
    expect(await t.app.core.db.select({ n: sql<number>`${refused}` }).from(sql`(select 1) as one`)).toEqual([
      { n: 0 },
    ]);
  });

  it('limits posts per account with 429 and a message that says when to try again', async () => {
    const { teacher, course } = await createClass(t, 0);
    for (let i = 0; i < 6; i++) await createPost(t, teacher, course.id, { text: `n${i}` });
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/courses/${course.id}/posts`,
      headers: teacher.headers,
      payload: { text: 'one too many' },
    });
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({
      code: ErrorCode.rateLimited,
      message: expect.stringMatching(/try again/i),
    });
    expect(res.headers['retry-after']).toBeDefined();
  });
});

describe('comments', () => {
  it('reach the class live; a deleted one leaves a tombstone with its text gone everywhere', async () => {
    const { teacher, course, students } = await createClass(t, 2);
    const [ada, ben] = students as [Actor, Actor];
    const benTab = await t.tab(ben);
    const post = await createPost(t, teacher, course.id);
    const comment = await commentOn(t, ada, post.id, 'my secret-ish words');
    await benTab.waitFor((e) => e.type === 'comment:created' && (e.data as { id: string }).id === comment.id);
    // Ben cannot delete Ada's comment; the teacher can.
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/comments/${comment.id}`, headers: ben.headers }))
        .statusCode,
    ).toBe(403);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/comments/${comment.id}`, headers: teacher.headers }))
        .statusCode,
    ).toBe(204);
    await benTab.waitFor((e) => e.type === 'comment:deleted' && (e.data as { id: string }).id === comment.id);
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/posts/${post.id}/comments`,
      headers: ben.headers,
    });
    expect(list.json<CommentPage>().items).toEqual([
      expect.objectContaining({ id: comment.id, deleted: true, text: null }),
    ]);
    const replay = await t.app.inject({ method: 'GET', url: '/api/events?after=0', headers: ben.headers });
    expect(replay.body).not.toContain('secret-ish');
    const exported = await t.app.inject({ method: 'GET', url: '/api/me/export', headers: ada.headers });
    expect(exported.body).not.toContain('secret-ish');
    // Nothing in the database still holds the words: the row and the stored events.
    expect(await t.app.core.db.select().from(comments).where(like(comments.text, '%secret-ish%'))).toEqual(
      [],
    );
    expect(
      await t.app.core.db
        .select()
        .from(events)
        .where(sql`${events.data}::text like '%secret-ish%'`),
    ).toEqual([]);
  });

  it('follow the switches: comments off per post or per course, and a muted student (403 with its code)', async () => {
    const { teacher, course, students } = await createClass(t, 2);
    const [ada, ben] = students as [Actor, Actor];
    const post = await createPost(t, teacher, course.id);
    const closed = await createPost(t, teacher, course.id, { commentsOff: true });
    const tryComment = (who: Actor, postId: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/posts/${postId}/comments`,
        headers: who.headers,
        payload: { text: 'Hi' },
      });
    expect((await tryComment(ada, closed.id)).json().code).toBe(ErrorCode.commentsOff);
    expect((await tryComment(teacher, closed.id)).statusCode).toBe(201);

    expect(
      (
        await t.app.inject({
          method: 'PUT',
          url: `/api/courses/${course.id}/mutes/${ada.id}`,
          headers: teacher.headers,
        })
      ).statusCode,
    ).toBe(204);
    const muted = await tryComment(ada, post.id);
    expect(muted.statusCode).toBe(403);
    expect(muted.json().code).toBe(ErrorCode.mutedInCourse);
    expect((await tryComment(ben, post.id)).statusCode).toBe(201);
    const settings = await t.app.inject({
      method: 'GET',
      url: `/api/courses/${course.id}/stream`,
      headers: ada.headers,
    });
    expect(settings.json()).toMatchObject({ muted: true, mutedStudentIds: [] });
    await t.app.inject({
      method: 'DELETE',
      url: `/api/courses/${course.id}/mutes/${ada.id}`,
      headers: teacher.headers,
    });
    expect((await tryComment(ada, post.id)).statusCode).toBe(201);

    const off = await t.app.inject({
      method: 'PATCH',
      url: `/api/courses/${course.id}/stream`,
      headers: teacher.headers,
      payload: { commentsOff: true },
    });
    expect(off.json()).toMatchObject({ commentsOff: true });
    expect((await tryComment(ben, post.id)).json().code).toBe(ErrorCode.commentsOff);
    expect((await page(ben, course.id)).stream.commentsOff).toBe(true);
  });

  it('are gone for a removed student at once: the stream, the comments and the live events', async () => {
    const { teacher, course, students } = await createClass(t, 2);
    const [ada, ben] = students as [Actor, Actor];
    const adaTab = await t.tab(ada);
    const post = await createPost(t, teacher, course.id);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/courses/${course.id}/members/${ada.id}`,
      headers: teacher.headers,
    });
    expect(removed.statusCode).toBe(200);
    for (const request of [
      { method: 'GET' as const, url: `/api/courses/${course.id}/posts` },
      { method: 'GET' as const, url: `/api/posts/${post.id}/comments` },
      { method: 'POST' as const, url: `/api/posts/${post.id}/seen` },
    ])
      expect((await t.app.inject({ ...request, headers: ada.headers })).statusCode).toBe(404);
    const refused = await t.app.inject({
      method: 'POST',
      url: `/api/posts/${post.id}/comments`,
      headers: ada.headers,
      payload: { text: 'still here?' },
    });
    expect(refused.json().code).toBe(ErrorCode.notAMember);
    const later = await createPost(t, teacher, course.id, { text: 'After the removal' });
    const benTab = await t.tab(ben);
    await commentOn(t, ben, later.id, 'Ben was here');
    await benTab.waitFor((e) => e.type === 'comment:created');
    expect(adaTab.events.filter((e) => JSON.stringify(e.data).includes(later.id))).toEqual([]);
  });
});
