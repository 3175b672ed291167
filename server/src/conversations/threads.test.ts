import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, THREAD_MAIL_DELAY_MINUTES, type Thread, type ThreadSummary } from '@classwave/shared';
import { createPost, writePrivately } from '../../test/support/conversations.js';
import {
  createAssignment,
  createClass,
  createStudent,
  createTeacher,
  type Actor,
} from '../../test/support/factories.js';
import { liveTestApp, type LiveTestApp } from '../../test/support/live-app.js';
import type { Recorder } from '../../test/support/sockets.js';

/** Private threads (DESIGN §19): one per assignment and student, that student and the teacher only. */
let t: LiveTestApp;
beforeAll(async () => {
  t = await liveTestApp();
});
afterAll(() => t.close());
const read = (who: Actor, assignmentId: string, studentId: string) =>
  t.app.inject({
    method: 'GET',
    url: `/api/assignments/${assignmentId}/threads/${studentId}`,
    headers: who.headers,
  });
const notificationsOf = async (who: Actor) =>
  (await t.app.inject({ method: 'GET', url: '/api/notifications', headers: who.headers })).json<{
    items: Array<{ kind: string; title: string; body: string; link: string; alert: boolean }>;
  }>().items;

describe('private threads', () => {
  it('go back and forth live with unread counts and notifications both ways', async () => {
    const { teacher, course, students } = await createClass(t, 2);
    const [ada, ben] = students as [Actor, Actor];
    const assignment = await createAssignment(t, teacher, course, { title: 'Essay one' });
    const [teacherTab, adaTab, benTab] = await Promise.all([t.tab(teacher), t.tab(ada), t.tab(ben)]);

    const question = await writePrivately(t, ada, assignment.id, ada.id, 'Can I have more time?');
    expect(question).toMatchObject({
      thread: { assignmentId: assignment.id, studentId: ada.id },
      postId: null,
    });
    await teacherTab.waitFor(
      (e) => e.type === 'thread:comment' && (e.data as { id: string }).id === question.id,
    );
    const [note] = await notificationsOf(teacher);
    expect(note).toMatchObject({ kind: 'thread_comment', title: expect.stringContaining(ada.fullName) });
    expect(note!.link).toContain(`thread=${ada.id}`);
    // The teacher's list shows one unread; opening it reads it.
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/assignments/${assignment.id}/threads`,
      headers: teacher.headers,
    });
    expect(list.json<ThreadSummary[]>()).toEqual([
      expect.objectContaining({
        student: { id: ada.id, fullName: ada.fullName },
        commentCount: 1,
        unreadCount: 1,
      }),
    ]);
    const opened = (await read(teacher, assignment.id, ada.id)).json<Thread>();
    expect(opened.unreadCount).toBe(1);
    expect((await read(teacher, assignment.id, ada.id)).json<Thread>().unreadCount).toBe(0);

    const answer = await writePrivately(t, teacher, assignment.id, ada.id, 'Yes, until Friday.');
    await adaTab.waitFor((e) => e.type === 'thread:comment' && (e.data as { id: string }).id === answer.id);
    expect((await notificationsOf(ada)).map((n) => n.kind)).toContain('thread_comment');
    const adaView = (await read(ada, assignment.id, ada.id)).json<Thread>();
    expect(adaView.items.map((c) => c.text)).toEqual(['Can I have more time?', 'Yes, until Friday.']);
    expect(adaView.unreadCount).toBe(1);

    // Ben hears none of it, and cannot open or write to Ada's thread.
    expect(benTab.events.filter((e) => e.type === 'thread:comment')).toEqual([]);
    expect((await read(ben, assignment.id, ada.id)).statusCode).toBe(404);
    const intrude = await t.app.inject({
      method: 'POST',
      url: `/api/assignments/${assignment.id}/threads/${ada.id}/comments`,
      headers: ben.headers,
      payload: { text: 'hello' },
    });
    expect(intrude.statusCode).toBe(404);
    const benList = await t.app.inject({
      method: 'GET',
      url: `/api/assignments/${assignment.id}/threads`,
      headers: ben.headers,
    });
    expect(benList.json()).toEqual([]);
  });

  it('is closed to other teachers and strangers, and to a removed student at once', async () => {
    const { teacher, course, students } = await createClass(t, 1);
    const ada = students[0]!;
    const assignment = await createAssignment(t, teacher, course);
    const [other, stranger] = await Promise.all([createTeacher(t), createStudent(t)]);
    await writePrivately(t, ada, assignment.id, ada.id, 'First');
    for (const who of [other, stranger])
      expect((await read(who, assignment.id, ada.id)).statusCode).toBe(404);
    const adaTab = await t.tab(ada);
    await t.app.inject({
      method: 'DELETE',
      url: `/api/courses/${course.id}/members/${ada.id}`,
      headers: teacher.headers,
    });
    expect((await read(ada, assignment.id, ada.id)).statusCode).toBe(404);
    const write = await t.app.inject({
      method: 'POST',
      url: `/api/assignments/${assignment.id}/threads/${ada.id}/comments`,
      headers: ada.headers,
      payload: { text: 'Still there?' },
    });
    expect(write.json().code).toBe(ErrorCode.notAMember);
    // The teacher still reads the history, but cannot write to a student who is gone.
    expect((await read(teacher, assignment.id, ada.id)).statusCode).toBe(200);
    const reply = await t.app.inject({
      method: 'POST',
      url: `/api/assignments/${assignment.id}/threads/${ada.id}/comments`,
      headers: teacher.headers,
      payload: { text: 'After removal' },
    });
    expect(reply.statusCode).toBe(404);
    expect(adaTab.events.filter((e) => e.type === 'thread:comment')).toEqual([]);
  });

  it('e-mails a reply still unread after the delay (when the reader takes e-mail), and not one that was read', async () => {
    const { teacher, course, students } = await createClass(t, 2);
    const [ada, ben] = students as [Actor, Actor];
    const assignment = await createAssignment(t, teacher, course, { title: 'Lab report' });
    for (const who of [ada, ben])
      await t.app.inject({
        method: 'PUT',
        url: '/api/me/notification-settings',
        headers: who.headers,
        payload: {
          quietHours: { enabled: false, start: '21:00', end: '07:00', timeZone: 'UTC' },
          email: true,
        },
      });
    await writePrivately(t, teacher, assignment.id, ada.id, 'Words that never go by mail');
    await writePrivately(t, teacher, assignment.id, ben.id, 'Read me soon');
    await read(ben, assignment.id, ben.id);
    t.clock.advance(THREAD_MAIL_DELAY_MINUTES * 60_000 + 1000);
    await t.app.core.jobs.runDue();
    const mail = await t.mail.latestTo(ada.email);
    expect(mail.subject).toContain('Lab report');
    expect(mail.text).not.toContain('Words that never go by mail');
    expect(
      t.mail.mails.some(
        (m) => m.to.toLowerCase() === ben.email.toLowerCase() && m.subject.includes('Lab report'),
      ),
    ).toBe(false);
  });

  it("holds the alert, not the inbox entry, in the reader's quiet hours", async () => {
    const { teacher, course, students } = await createClass(t, 1);
    const ada = students[0]!;
    const assignment = await createAssignment(t, teacher, course);
    await t.app.inject({
      method: 'PUT',
      url: '/api/me/notification-settings',
      headers: ada.headers,
      // Quiet all day long, whatever the hour the test runs at.
      payload: { quietHours: { enabled: true, start: '00:00', end: '23:59', timeZone: 'UTC' }, email: false },
    });
    await writePrivately(t, teacher, assignment.id, ada.id, 'Late note');
    const [note] = await notificationsOf(ada);
    expect(note).toMatchObject({ kind: 'thread_comment', alert: false });
  });

  it('relays typing to the other side only, at most once every two seconds per target', async () => {
    const { teacher, course, students } = await createClass(t, 2);
    const [ada, ben] = students as [Actor, Actor];
    const assignment = await createAssignment(t, teacher, course);
    const post = await createPost(t, teacher, course.id);
    const [teacherTab, adaTab, benTab] = await Promise.all([t.tab(teacher), t.tab(ada), t.tab(ben)]);
    const say = (r: Recorder, payload: unknown) =>
      (
        r.socket as unknown as {
          timeout(ms: number): {
            emitWithAck(e: string, p: unknown): Promise<{ ok: boolean; code?: string }>;
          };
        }
      )
        .timeout(2000)
        .emitWithAck('typing', payload);
    expect(await say(adaTab, { thread: { assignmentId: assignment.id, studentId: ada.id } })).toEqual({
      ok: true,
    });
    const heard = await teacherTab.waitForHeard((h) => h.name === 'typing');
    expect(heard.args[0]).toMatchObject({ user: { id: ada.id }, thread: { studentId: ada.id } });
    expect(await say(adaTab, { thread: { assignmentId: assignment.id, studentId: ada.id } })).toMatchObject({
      ok: false,
      code: ErrorCode.rateLimited,
    });
    expect(await say(benTab, { thread: { assignmentId: assignment.id, studentId: ada.id } })).toMatchObject({
      ok: false,
      code: ErrorCode.notFound,
    });
    expect(await say(benTab, { postId: post.id })).toEqual({ ok: true });
    await adaTab.waitForHeard(
      (h) => h.name === 'typing' && (h.args[0] as { postId?: string }).postId === post.id,
    );
    for (const bad of [
      null,
      {},
      { postId: 'x' },
      { postId: post.id, extra: 1 },
      { thread: { assignmentId: assignment.id } },
    ])
      expect((await say(benTab, bad)).code).toBe(ErrorCode.validationFailed);
    expect(
      benTab.heard.filter((h) => h.name === 'typing' && (h.args[0] as { thread?: unknown }).thread),
    ).toEqual([]);
  });
});
