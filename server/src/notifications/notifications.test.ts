import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  Assignment,
  CalendarItems,
  LiveEvent,
  Notification,
  NotificationPage,
  NotificationSettings,
  NotificationsReadData,
  Todo,
} from '@classwave/shared';
import {
  createAssignment,
  createCourse,
  createStudent,
  createTeacher,
  inDays,
  joinCourse,
  submit,
  type Actor,
} from '../../test/support/factories.js';
import { liveTestApp, type LiveTestApp } from '../../test/support/live-app.js';

let t: LiveTestApp;

beforeAll(async () => {
  t = await liveTestApp({ env: { JOB_POLL_MS: '0' } });
});
afterAll(() => t.close());

async function inbox(actor: Actor, before?: string): Promise<NotificationPage> {
  await t.app.core.afterCommit.settled(); // the teacher's submissions batch follows the submit's answer
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/notifications${before ? `?before=${encodeURIComponent(before)}` : ''}`,
    headers: actor.headers,
  });
  expect(res.statusCode).toBe(200);
  return res.json();
}

const notificationEvent = (match: (n: Notification) => boolean) => (e: LiveEvent) =>
  e.type === 'notification:created' && match(e.data as Notification);

/** A course of a new teacher with `n` new active students. */
async function classroom(n: number) {
  const teacher = await createTeacher(t);
  const course = await createCourse(t, teacher);
  const students = await Promise.all(Array.from({ length: n }, () => createStudent(t)));
  await Promise.all(students.map((s) => joinCourse(t, s, course)));
  return { teacher, course, students };
}

describe('inbox', () => {
  it("a new assignment is in each member's inbox as its event reaches their tabs, with no event per member; reading in one tab clears the count in the other", async () => {
    const { teacher, course, students } = await classroom(1);
    const student = students[0]!;
    const outsider = await createStudent(t);
    const [tabA, tabB, outsiderTab, teacherTab] = await Promise.all([
      t.tab(student),
      t.tab(student),
      t.tab(outsider),
      t.tab(teacher),
    ]);
    const assignment = await createAssignment(t, teacher, course, { title: 'Lab report' });

    // The members' tabs hear the assignment itself (one event to the course room) and load the
    // inbox from it: the entry is stored in the same transaction, so it is there when they ask.
    const isOurs = (e: LiveEvent) =>
      e.type === 'assignment:created' && (e.data as { id: string }).id === assignment.id;
    await Promise.all([tabA.waitFor(isOurs), tabB.waitFor(isOurs)]);
    const page = await inbox(student);
    expect(page.items).toHaveLength(1);
    const note = page.items[0]!;
    expect(note).toMatchObject({
      kind: 'assignment_created',
      title: `New assignment in ${course.title}: Lab report`,
      body: expect.stringMatching(/^Due [A-Z][a-z]{2} \d{1,2}, \d{1,2}:\d{2} [AP]M UTC$/),
      link: `/assignments?open=${assignment.id}`,
      courseId: course.id,
      assignmentId: assignment.id,
      readAt: null,
      alert: true,
      count: 1,
    });
    expect(page.unreadCount).toBe(1);
    expect(page.nextBefore).toBeNull();
    for (const own of [tabA, tabB])
      expect(own.events.filter((e) => e.type === 'notification:created')).toEqual([]);

    const read = await t.app.inject({
      method: 'POST',
      url: '/api/notifications/read',
      headers: student.headers,
      payload: { ids: [note.id] },
    });
    expect(read.json()).toEqual({ unreadCount: 0 });
    const heard = await tabB.waitFor((e) => e.type === 'notifications:read');
    expect(heard.data as NotificationsReadData).toMatchObject({ ids: [note.id], unreadCount: 0 });
    expect((await inbox(student)).items[0]!.readAt).toEqual((heard.data as NotificationsReadData).readAt);

    // Nobody else heard of it: not the teacher (it is their own), not a student outside the course.
    await new Promise((r) => setTimeout(r, 200));
    for (const other of [outsiderTab, teacherTab])
      expect(other.events.filter((e) => e.type.startsWith('notification'))).toEqual([]);
    expect((await inbox(outsider)).items).toEqual([]);
    expect((await inbox(teacher)).items).toEqual([]);
  });

  it("a class's new-assignment entries are written in each reader's zone, held by each one's quiet hours, for active members only", async () => {
    const { teacher, course, students } = await classroom(4);
    const [tokyo, quiet, plain, gone] = students as [Actor, Actor, Actor, Actor];
    const settings = async (who: Actor, quietHours: object) => {
      const res = await t.app.inject({
        method: 'PUT',
        url: '/api/me/notification-settings',
        headers: who.headers,
        payload: { quietHours, email: false },
      });
      expect(res.statusCode).toBe(200);
    };
    await settings(tokyo, { enabled: false, start: '21:00', end: '07:00', timeZone: 'Asia/Tokyo' });
    // Quiet all day but one minute: whatever the clock says, now is inside.
    const now = t.clock.now();
    const minute = (d: Date) => d.toISOString().slice(11, 16);
    await settings(quiet, {
      enabled: true,
      start: minute(new Date(now.getTime() + 2 * 60_000)),
      end: minute(new Date(now.getTime() + 60_000)),
      timeZone: 'UTC',
    });
    const left = await t.app.inject({
      method: 'POST',
      url: `/api/courses/${course.id}/leave`,
      headers: gone.headers,
    });
    expect(left.statusCode).toBe(204);

    const due = new Date(Date.UTC(2031, 0, 15, 14, 30));
    const assignment = await createAssignment(t, teacher, course, {
      title: 'Zones',
      dueDate: due.toISOString(),
    });
    const entry = async (who: Actor) =>
      (await inbox(who)).items.find((n) => n.assignmentId === assignment.id);
    expect(await entry(tokyo)).toMatchObject({ body: 'Due Jan 15, 11:30 PM', alert: true });
    // UTC, chosen or the fallback of a user whose browser never reported a zone, is named.
    expect(await entry(quiet)).toMatchObject({ body: 'Due Jan 15, 2:30 PM UTC', alert: false });
    expect(await entry(plain)).toMatchObject({ body: 'Due Jan 15, 2:30 PM UTC', alert: true });
    expect(await entry(gone)).toBeUndefined();
    expect(await entry(teacher)).toBeUndefined();
  });

  it('pages by updatedAt and marks all read; ids of another user are ignored', async () => {
    const { teacher, course, students } = await classroom(1);
    const [student] = students as [Actor];
    for (let i = 0; i < 22; i++) {
      await createAssignment(t, teacher, course, { title: `Task ${i}` });
      t.clock.advance(1000);
    }
    const first = await inbox(student);
    expect(first.items).toHaveLength(20);
    expect(first.unreadCount).toBe(22);
    expect(first.items[0]!.title).toContain('Task 21');
    const second = await inbox(student, first.nextBefore!);
    expect(second.items.map((n) => n.title.split(': ')[1])).toEqual(['Task 1', 'Task 0']);
    expect(second.nextBefore).toBeNull();

    const other = await createStudent(t);
    const foreign = await t.app.inject({
      method: 'POST',
      url: '/api/notifications/read',
      headers: other.headers,
      payload: { ids: [first.items[0]!.id] },
    });
    expect(foreign.json()).toEqual({ unreadCount: 0 });
    expect((await inbox(student)).unreadCount).toBe(22);

    const all = await t.app.inject({
      method: 'POST',
      url: '/api/notifications/read',
      headers: student.headers,
      payload: { all: true },
    });
    expect(all.json()).toEqual({ unreadCount: 0 });
    expect((await inbox(student)).unreadCount).toBe(0);
  });

  it('refuses a bad cursor or read body with a 400 naming the field', async () => {
    const student = await createStudent(t);
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/notifications?before=yesterday',
      headers: student.headers,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('before');
    for (const payload of [{}, { ids: [] }, { ids: ['nope'] }, { all: false }]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/notifications/read',
        headers: student.headers,
        payload,
      });
      expect(res.statusCode).toBe(400);
    }
  });
});

describe('derived notifications', () => {
  it('batches new submissions per assignment for 10 minutes: one entry whose count grows, re-sent with the same id', async () => {
    const { teacher, course, students } = await classroom(4);
    const assignment = await createAssignment(t, teacher, course, { title: 'Poem' });
    const teacherTab = await t.tab(teacher);
    for (const s of students.slice(0, 3)) {
      await submit(t, s, assignment);
      t.clock.advance(60_000);
    }
    const page = await inbox(teacher);
    expect(page.items).toHaveLength(1);
    const batch = page.items[0]!;
    expect(batch).toMatchObject({ kind: 'submissions', count: 3, title: '3 new submissions: Poem' });
    await teacherTab.waitFor(notificationEvent((n) => n.count === 3));
    const sent = teacherTab.events.filter(notificationEvent((n) => n.assignmentId === assignment.id));
    expect(sent.map((e) => (e.data as Notification).id)).toEqual([batch.id, batch.id, batch.id]);
    expect(sent.map((e) => (e.data as Notification).count)).toEqual([1, 2, 3]);

    // Read, then another arrives within the window: unread again. After the window: a new entry.
    await t.app.inject({
      method: 'POST',
      url: '/api/notifications/read',
      headers: teacher.headers,
      payload: { all: true },
    });
    t.clock.advance(11 * 60_000);
    await submit(t, students[3]!, assignment);
    const after = await inbox(teacher);
    expect(after.items).toHaveLength(2);
    expect(after.items[0]).toMatchObject({ count: 1, readAt: null, title: 'New submission: Poem' });
    expect(after.items[0]!.id).not.toBe(batch.id);
    expect(after.unreadCount).toBe(1);
    // Students never hear of each other's submissions.
    for (const s of students)
      expect((await inbox(s)).items.every((n) => n.kind === 'assignment_created')).toBe(true);
  });

  it('a grade reaches only its student; a removal reaches only the removed student', async () => {
    const { teacher, course, students } = await classroom(2);
    const [graded, other] = students as [Actor, Actor];
    const assignment = await createAssignment(t, teacher, course, { title: 'Quiz', maxPoints: 10 });
    const own = await submit(t, graded, assignment);
    await submit(t, other, assignment);
    const gradedTab = await t.tab(graded);
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/submissions/${own.id}`,
      headers: teacher.headers,
      payload: { grade: 8, baseVersion: 0 },
    });
    expect(res.statusCode).toBe(200);
    const heard = await gradedTab.waitFor(notificationEvent((n) => n.kind === 'grade_returned'));
    expect(heard.data).toMatchObject({ title: 'Grade returned: Quiz', assignmentId: assignment.id });
    expect((await inbox(other)).items.map((n) => n.kind)).toEqual(['assignment_created']);
    expect((await inbox(teacher)).items.map((n) => n.kind)).toEqual(['submissions']);

    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/courses/${course.id}/members/${other.id}`,
      headers: teacher.headers,
    });
    expect(removed.statusCode).toBe(200);
    expect((await inbox(other)).items[0]).toMatchObject({
      kind: 'removed_from_course',
      title: `You were removed from ${course.title}`,
      courseId: course.id,
    });
    expect((await inbox(graded)).items.map((n) => n.kind)).toEqual(['grade_returned', 'assignment_created']);
  });
});

describe('replay', () => {
  it("after the last event of a change's transaction, replays none of that transaction's earlier events", async () => {
    const { teacher, course, students } = await classroom(1);
    const assignment = await createAssignment(t, teacher, course);
    const replayAfter = async (after: number) =>
      (await t.app.inject({ method: 'GET', url: `/api/events?after=${after}`, headers: teacher.headers }))
        .json<{ events: LiveEvent[] }>()
        // The live panel's counts are written in the background after a submit, in their own transaction.
        .events.filter((e) => e.type !== 'assignment:panel');
    const head = await t.app.inject({ method: 'GET', url: '/api/events', headers: teacher.headers });
    const start = head.json<{ lastId: number }>().lastId;
    await submit(t, students[0]!, assignment);
    // The submission and the teacher's notification of it were written together, in that order.
    const written = await replayAfter(start);
    expect(written.map((e) => e.type)).toEqual(['submission:created', 'notification:created']);
    expect(await replayAfter(written[1]!.id)).toEqual([]);
  });
});

describe('settings', () => {
  it('quiet hours are off until turned on; an unknown zone is a 400 naming timeZone', async () => {
    const student = await createStudent(t);
    const get = await t.app.inject({
      method: 'GET',
      url: '/api/me/notification-settings',
      headers: student.headers,
    });
    expect(get.json()).toEqual({
      quietHours: { enabled: false, start: '21:00', end: '07:00', timeZone: 'UTC' },
      email: false,
    });
    const wanted: NotificationSettings = {
      quietHours: { enabled: true, start: '22:30', end: '06:45', timeZone: 'Europe/Paris' },
      email: true,
    };
    const put = await t.app.inject({
      method: 'PUT',
      url: '/api/me/notification-settings',
      headers: student.headers,
      payload: wanted,
    });
    expect(put.json()).toEqual(wanted);
    const again = await t.app.inject({
      method: 'GET',
      url: '/api/me/notification-settings',
      headers: student.headers,
    });
    expect(again.json()).toEqual(wanted);
    const bad = await t.app.inject({
      method: 'PUT',
      url: '/api/me/notification-settings',
      headers: student.headers,
      payload: { ...wanted, quietHours: { ...wanted.quietHours, timeZone: 'Mars/Base' } },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('timeZone');
    const badTime = await t.app.inject({
      method: 'PUT',
      url: '/api/me/notification-settings',
      headers: student.headers,
      payload: { ...wanted, quietHours: { ...wanted.quietHours, start: '25:00' } },
    });
    expect(badTime.statusCode).toBe(400);
    expect(badTime.json().message).toContain('start');
  });
});

describe('to-do and calendar', () => {
  it("a student's to-do lists unsubmitted work, overdue included, until it is submitted; a teacher's lists what to grade", async () => {
    const { teacher, course, students } = await classroom(2);
    const [student, other] = students as [Actor, Actor];
    const late = await createAssignment(t, teacher, course, { title: 'Late', dueDate: inDays(-2) });
    const soon = await createAssignment(t, teacher, course, { title: 'Soon', dueDate: inDays(1) });
    const stranger = await createTeacher(t);
    await createAssignment(t, stranger, await createCourse(t, stranger), { title: 'Elsewhere' });
    const todoOf = async (actor: Actor) =>
      (await t.app.inject({ method: 'GET', url: '/api/todo', headers: actor.headers })).json<Todo>();
    expect((await todoOf(student)).work.map((i) => i.title)).toEqual(['Late', 'Soon']);
    await submit(t, student, soon);
    await submit(t, other, soon);
    await submit(t, other, late);
    expect(await todoOf(student)).toMatchObject({
      work: [{ title: 'Late', count: 1 }],
      toGrade: [],
      toReturn: [],
    });
    const teacherTodo = await todoOf(teacher);
    expect(teacherTodo.work).toEqual([]);
    expect(teacherTodo.toGrade.map((i) => [i.title, i.count])).toEqual([
      ['Late', 1],
      ['Soon', 2],
    ]);
    expect(teacherTodo.toReturn).toEqual([]);
  });

  it('a held grade is "to return" for the teacher and still "submitted" on the student\'s calendar; excused work leaves the to-do', async () => {
    const { teacher, course, students } = await classroom(2);
    const [student, excused] = students as [Actor, Actor];
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/assignments',
      headers: teacher.headers,
      payload: { title: 'Held', dueDate: inDays(3), courseId: course.id, gradeRelease: 'manual' },
    });
    const held = res.json<Assignment>();
    const submission = await submit(t, student, held);
    const grade = await t.app.inject({
      method: 'PATCH',
      url: `/api/submissions/${submission.id}`,
      headers: teacher.headers,
      payload: { grade: 90, baseVersion: 0 },
    });
    expect(grade.statusCode).toBe(200);
    const excuse = await t.app.inject({
      method: 'POST',
      url: `/api/assignments/${held.id}/excuse`,
      headers: teacher.headers,
      payload: { studentId: excused.id, excused: true },
    });
    expect(excuse.statusCode).toBe(200);
    const todoOf = async (actor: Actor) =>
      (await t.app.inject({ method: 'GET', url: '/api/todo', headers: actor.headers })).json<Todo>();
    expect((await todoOf(teacher)).toReturn.map((i) => [i.title, i.count])).toEqual([['Held', 1]]);
    expect((await todoOf(excused)).work).toEqual([]);
    const query = `from=${encodeURIComponent(inDays(0))}&to=${encodeURIComponent(inDays(30))}`;
    const statusOf = async (actor: Actor) =>
      (
        await t.app.inject({ method: 'GET', url: `/api/calendar?${query}`, headers: actor.headers })
      ).json<CalendarItems>().items[0]?.status;
    expect(await statusOf(student)).toBe('submitted');
    expect(await statusOf(excused)).toBe('excused');
    const returned = await t.app.inject({
      method: 'POST',
      url: `/api/assignments/${held.id}/return`,
      headers: teacher.headers,
      payload: {},
    });
    expect(returned.json()).toEqual({ returned: 1 });
    expect(await statusOf(student)).toBe('returned');
    expect((await todoOf(teacher)).toReturn).toEqual([]);
  });

  it('answers the visible assignments in range with status (students) or needsGrading (teachers)', async () => {
    const { teacher, course, students } = await classroom(1);
    const [student] = students as [Actor];
    const a = await createAssignment(t, teacher, course, { title: 'In range', dueDate: inDays(3) });
    await createAssignment(t, teacher, course, { title: 'Out of range', dueDate: inDays(40) });
    await submit(t, student, a);
    const query = `from=${encodeURIComponent(inDays(0))}&to=${encodeURIComponent(inDays(30))}`;
    const get = async (actor: Actor) =>
      (
        await t.app.inject({ method: 'GET', url: `/api/calendar?${query}`, headers: actor.headers })
      ).json<CalendarItems>();
    expect((await get(student)).items).toEqual([
      expect.objectContaining({ title: 'In range', status: 'submitted', needsGrading: null, maxPoints: 100 }),
    ]);
    expect((await get(teacher)).items).toEqual([
      expect.objectContaining({ title: 'In range', status: null, needsGrading: 1 }),
    ]);
    expect((await get(await createStudent(t))).items).toEqual([]);
    for (const bad of [
      `from=${encodeURIComponent(inDays(5))}&to=${encodeURIComponent(inDays(1))}`,
      `from=${encodeURIComponent(inDays(0))}&to=${encodeURIComponent(inDays(500))}`,
      `from=soon&to=${encodeURIComponent(inDays(1))}`,
      `to=${encodeURIComponent(inDays(1))}`,
    ]) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/calendar?${bad}`,
        headers: student.headers,
      });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().message).toMatch(/from|to/);
    }
  });
});
