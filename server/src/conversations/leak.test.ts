import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, signIn } from '../../test/support/app.js';
import { commentOn, createPost, writePrivately } from '../../test/support/conversations.js';
import {
  createAssignment,
  createCourse,
  createStudent,
  createTeacher,
  joinCourse,
  type Actor,
} from '../../test/support/factories.js';
import { liveTestApp, type LiveTestApp } from '../../test/support/live-app.js';
import { barrier, type Recorder } from '../../test/support/sockets.js';
import { uploadFile } from '../../test/support/uploads.js';
import { events } from '../db/schema.js';

/**
 * No private thread's words reach anyone but its student and the course's teacher, by any route,
 * live event, replay (HTTP or socket), notification, e-mail or export; and a deleted comment's
 * words reach nobody at all afterwards, its author included (DESIGN §19). The words are marks
 * found nowhere else, so any new field or route that carries them is caught.
 */
const PRIVATE = ['Persimmon-9a2c', 'Mangosteen-41be'];
const DELETED = 'Quokka-31d7';
const hasPrivate = (text: string) => PRIVATE.some((mark) => text.includes(mark));

let t: LiveTestApp;
beforeAll(async () => {
  t = await liveTestApp({ env: { DATA_DIR: mkdtempSync(path.join(tmpdir(), 'classwave-leak-')) } });
});
afterAll(() => t.close());
const body = async (who: Actor, path: string) =>
  (await t.app.inject({ method: 'GET', url: path, headers: who.headers })).body;

describe('what conversations let out', () => {
  it('keeps a private thread between its student and the teacher, and a deleted comment nowhere', async () => {
    const teacher = await createTeacher(t, 'Tess Teacher');
    const [ada, ben, gone, stranger, other] = await Promise.all([
      createStudent(t, 'Ada Author'),
      createStudent(t, 'Ben Classmate'),
      createStudent(t, 'Gia Gone'),
      createStudent(t, 'Sid Stranger'),
      createTeacher(t, 'Otto Other'),
    ]);
    const course = await createCourse(t, teacher);
    await Promise.all([ada, ben, gone].map((s) => joinCourse(t, s, course)));
    await joinCourse(t, stranger, await createCourse(t, other));
    const assignment = await createAssignment(t, teacher, course, { title: 'Essay' });
    const start = (await t.app.inject({ method: 'GET', url: '/api/events', headers: teacher.headers })).json<{
      lastId: number;
    }>().lastId;
    for (const who of [ada, ben, gone, stranger, other, teacher])
      await t.app.inject({
        method: 'PUT',
        url: '/api/me/notification-settings',
        headers: who.headers,
        payload: {
          quietHours: { enabled: false, start: '21:00', end: '07:00', timeZone: 'UTC' },
          email: true,
        },
      });
    const tabs = new Map<Actor, Recorder>();
    for (const who of [ada, ben, gone, stranger, other, teacher]) tabs.set(who, await t.tab(who));

    // The private thread, both ways; a classmate's comment on a post, deleted by the teacher.
    await writePrivately(t, ada, assignment.id, ada.id, `${PRIVATE[0]} is my question`);
    await writePrivately(t, teacher, assignment.id, ada.id, `${PRIVATE[1]} is my answer`);
    const post = await createPost(t, teacher, course.id, { text: 'Discuss' });
    const doomed = await commentOn(t, ben, post.id, `${DELETED} said once`);
    await tabs
      .get(ada)!
      .waitFor((e) => e.type === 'comment:created' && (e.data as { id: string }).id === doomed.id);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/comments/${doomed.id}`,
      headers: teacher.headers,
    });
    expect(removed.statusCode).toBe(204);
    // A member removed after all of it: their replay answers from their rooms now.
    await t.app.inject({
      method: 'DELETE',
      url: `/api/courses/${course.id}/members/${gone.id}`,
      headers: teacher.headers,
    });
    // The unread-reply mail's time (Ada has not read the teacher's answer): signed in again after.
    t.clock.advance(20 * 60_000);
    await t.app.core.jobs.runDue();
    await barrier(...tabs.values());
    for (const who of [ada, ben, gone, stranger, other, teacher]) {
      const { accessToken } = await signIn(t, who.email);
      Object.assign(who, { token: accessToken, headers: bearer(accessToken) });
    }

    /** Everything a person can get at: every route that could carry it, a fresh socket's replay, their mail. */
    const everything = async (who: Actor) => {
      const replayTab = await t.tab(who, start);
      const parts = await Promise.all([
        body(who, `/api/courses/${course.id}/posts`),
        body(who, `/api/posts/${post.id}/comments`),
        body(who, `/api/assignments/${assignment.id}/threads`),
        body(who, `/api/assignments/${assignment.id}/threads/${ada.id}`),
        body(who, `/api/assignments/${assignment.id}/threads/${who.id}`),
        body(who, '/api/notifications'),
        body(who, `/api/events?after=${start}`),
        body(who, '/api/me/export'),
        body(who, '/api/dashboard'),
        body(who, '/api/todo'),
        body(who, '/api/stream/news'),
      ]);
      const mail = t.mail.mails.filter((m) => m.to.toLowerCase() === who.email.toLowerCase());
      return {
        later: [...parts, JSON.stringify(replayTab.missed), JSON.stringify(mail)].join('\n'),
        live: JSON.stringify(tabs.get(who)!.heard),
      };
    };

    for (const who of [ben, gone, stranger, other]) {
      const seen = await everything(who);
      expect({ who: who.fullName, leaked: hasPrivate(seen.later) || hasPrivate(seen.live) }).toEqual({
        who: who.fullName,
        leaked: false,
      });
    }
    for (const who of [ada, teacher]) {
      const seen = await everything(who);
      // The parties do see it (so this test can tell a leak from nothing said at all).
      expect(PRIVATE.every((mark) => seen.later.includes(mark))).toBe(true);
    }
    for (const who of [ada, ben, gone, stranger, other, teacher]) {
      const seen = await everything(who);
      expect({ who: who.fullName, deletedWords: seen.later.includes(DELETED) }).toEqual({
        who: who.fullName,
        deletedWords: false,
      });
    }
    // Nor does the database keep them anywhere an export or replay could read later.
    const stored = await t.app.core.db
      .select()
      .from(events)
      .where(sql`${events.data}::text like ${`%${DELETED}%`}`);
    expect(stored).toEqual([]);
    // No e-mail carries a private comment's words, even to its parties.
    expect(t.mail.mails.filter((m) => hasPrivate(m.text) || hasPrivate(m.subject))).toEqual([]);
    expect(
      t.mail.mails.some((m) => m.to.toLowerCase() === ada.email.toLowerCase() && m.subject.includes('Essay')),
    ).toBe(true);
  });

  it("keeps a scheduled post's files and words with its teachers until it is published", async () => {
    const SCHEDULED = 'Tamarind-77e1';
    const BYTES = 'Rambutan-5c0f';
    const teacher = await createTeacher(t, 'Tia Teacher');
    const [ada, gone, stranger, other] = await Promise.all([
      createStudent(t, 'Ada Early'),
      createStudent(t, 'Gus Gone'),
      createStudent(t, 'Sue Stranger'),
      createTeacher(t, 'Oli Other'),
    ]);
    const course = await createCourse(t, teacher);
    await Promise.all([ada, gone].map((s) => joinCourse(t, s, course)));
    await joinCourse(t, stranger, await createCourse(t, other));
    await t.app.inject({
      method: 'DELETE',
      url: `/api/courses/${course.id}/members/${gone.id}`,
      headers: teacher.headers,
    });
    const start = (await t.app.inject({ method: 'GET', url: '/api/events', headers: teacher.headers })).json<{
      lastId: number;
    }>().lastId;
    const tabs = new Map<Actor, Recorder>();
    for (const who of [ada, gone, stranger, other, teacher]) tabs.set(who, await t.tab(who));
    const fileId = await uploadFile(
      t,
      teacher,
      { purpose: 'post', targetId: course.id, name: `${SCHEDULED}.txt` },
      Buffer.from(BYTES),
    );
    const post = await createPost(t, teacher, course.id, {
      text: `${SCHEDULED} at noon`,
      publishAt: new Date(t.clock.now().getTime() + 3600_000).toISOString(),
      fileIds: [fileId],
    });
    await tabs
      .get(teacher)!
      .waitFor((e) => e.type === 'post:created' && (e.data as { id: string }).id === post.id);
    await barrier(...tabs.values());
    const marks = (text: string) => text.includes(SCHEDULED) || text.includes(BYTES) || text.includes(fileId);
    for (const who of [ada, gone, stranger, other]) {
      const replayTab = await t.tab(who, start);
      const parts = await Promise.all([
        body(who, `/api/courses/${course.id}/posts`),
        body(who, `/api/files/${fileId}`),
        body(who, `/api/events?after=${start}`),
        body(who, '/api/me/export'),
        body(who, '/api/dashboard'),
        body(who, '/api/todo'),
        body(who, '/api/stream/news'),
      ]);
      const seen = [...parts, JSON.stringify(replayTab.missed), JSON.stringify(tabs.get(who)!.heard)].join(
        '\n',
      );
      expect({ who: who.fullName, leaked: marks(seen) }).toEqual({ who: who.fullName, leaked: false });
    }
    // Its teacher sees both (so the test can tell a leak from nothing there).
    expect(await body(teacher, `/api/courses/${course.id}/posts`)).toContain(SCHEDULED);
    expect(await body(teacher, `/api/files/${fileId}`)).toBe(BYTES);
  });
});
