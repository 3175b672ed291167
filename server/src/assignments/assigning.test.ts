import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, type Assignment, type LiveEvent } from '@classwave/shared';
import { createTestApp, openTestDatabase } from '../../test/support/app.js';
import {
  createAssignment,
  createClass,
  createCourse,
  createStudent,
  createTeacher,
  joinCourse,
  submit,
  type Actor,
} from '../../test/support/factories.js';
import { liveTestApp, type LiveTestApp } from '../../test/support/live-app.js';
import type { Database } from '../db/client.js';
import { events, jobs, notifications } from '../db/schema.js';
import { defaultRateLimits } from '../auth/limits.js';
import { PUBLISH_ASSIGNMENT_KIND } from './assigning.js';

/** Assign to some students, scheduled publishing and per-student extensions (DESIGN §20). */

let t: LiveTestApp;
// Many people sign up here: room above the sign-up limit, which is not what is tested.
const roomy = { max: 100_000, timeWindow: 60_000 };
beforeAll(async () => {
  t = await liveTestApp({
    rateLimits: Object.fromEntries(Object.keys(defaultRateLimits).map((k) => [k, roomy])),
  });
});
afterAll(() => t.close());

const inMinutes = (minutes: number) => new Date(t.clock.now().getTime() + minutes * 60_000).toISOString();
const list = async (who: Actor): Promise<Assignment[]> =>
  (await t.app.inject({ method: 'GET', url: '/api/assignments', headers: who.headers })).json();
const ids = async (who: Actor) => (await list(who)).map((a) => a.id);
const post = (who: Actor, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/assignments', headers: who.headers, payload });
const patch = (who: Actor, id: string, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'PATCH', url: `/api/assignments/${id}`, headers: who.headers, payload });
const extend = (who: Actor, id: string, studentId: string, dueDate: unknown) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/assignments/${id}/extensions/${studentId}`,
    headers: who.headers,
    payload: { dueDate },
  });
const about = (id: string) => (e: LiveEvent) => (e.data as { id?: string; assignmentId?: string }).id === id;
const newAssignmentNotes = async (who: Actor, assignmentId: string) =>
  t.app.core.db
    .select()
    .from(notifications)
    .where(
      and(
        eq(notifications.userId, who.id),
        eq(notifications.assignmentId, assignmentId),
        eq(notifications.kind, 'assignment_created'),
      ),
    );

describe('assignees', () => {
  it('shows an assignment for some students to them only, live and in the inbox', async () => {
    const { teacher, course, students } = await createClass(t, 2);
    const [ada, ben] = students as [Actor, Actor];
    const [adaTab, benTab] = [await t.tab(ada), await t.tab(ben)];
    const res = await post(teacher, {
      title: 'Only Ada',
      dueDate: inMinutes(60 * 48),
      courseId: course.id,
      assignees: [ada.id],
    });
    expect(res.statusCode, res.body).toBe(201);
    const made = res.json<Assignment>();
    expect(made).toMatchObject({ assignees: [ada.id], publishAt: null });
    await adaTab.waitFor((e) => e.type === 'assignment:created' && about(made.id)(e));
    expect(await ids(ada)).toEqual([made.id]);
    expect(await ids(ben)).toEqual([]);
    const page = await t.app.inject({
      method: 'GET',
      url: `/api/courses/${course.id}`,
      headers: ben.headers,
    });
    expect(page.json<{ assignments: Assignment[] }>().assignments).toEqual([]);
    expect(await newAssignmentNotes(ada, made.id)).toHaveLength(1);
    expect(await newAssignmentNotes(ben, made.id)).toHaveLength(0);
    // Ben's submit and draft answer as for an assignment that is not there.
    const refused = await t.app.inject({
      method: 'POST',
      url: `/api/assignments/${made.id}/submissions`,
      headers: ben.headers,
      payload: { content: 'Mine too' },
    });
    expect(refused.statusCode).toBe(404);
    const draft = await t.app.inject({
      method: 'PUT',
      url: `/api/assignments/${made.id}/draft`,
      headers: ben.headers,
      payload: { content: 'x', baseVersion: 0 },
    });
    expect(draft.statusCode).toBe(404);
    // Teacher routes answer Ben 404 too, not the 403 a member who sees it gets.
    const edit = await patch(ben, made.id, { title: 'Mine' });
    expect(edit.statusCode).toBe(404);
    expect((await patch(ada, made.id, { title: 'Mine' })).statusCode).toBe(403);
    // Nor can a grade tell Ben of it.
    const graded = await t.app.inject({
      method: 'PUT',
      url: `/api/assignments/${made.id}/grades/${ben.id}`,
      headers: teacher.headers,
      payload: { grade: 0, baseVersion: 0 },
    });
    expect(graded.statusCode).toBe(422);
    expect(graded.json()).toMatchObject({ code: ErrorCode.notAssigned });
    expect(benTab.events.filter(about(made.id))).toEqual([]);
    // The gradebook shows Ben's cell as not assigned, never missing.
    const book = (
      await t.app.inject({
        method: 'GET',
        url: `/api/courses/${course.id}/gradebook`,
        headers: teacher.headers,
      })
    ).json<{ cells: Array<{ studentId: string; assigned?: boolean; status: string }> }>();
    expect(book.cells.find((c) => c.studentId === ben.id)).toMatchObject({
      assigned: false,
      status: 'excused',
    });
    expect(book.cells.find((c) => c.studentId === ada.id)?.assigned).toBeUndefined();
  });

  it('gives it live to students added and takes it live from those left out, keeping handed-in work', async () => {
    const { teacher, course, students } = await createClass(t, 3);
    const [ada, ben, cy] = students as [Actor, Actor, Actor];
    const made = await createAssignment(t, teacher, course, { title: 'Moving' });
    await submit(t, cy, made);
    const [adaTab, benTab] = [await t.tab(ada), await t.tab(ben)];
    const res = await patch(teacher, made.id, { assignees: [ben.id] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Assignment>().assignees).toEqual([ben.id]);
    await adaTab.waitFor((e) => e.type === 'assignment:deleted' && about(made.id)(e));
    expect(await ids(ada)).toEqual([]);
    expect(await ids(ben)).toEqual([made.id]);
    // Cy handed work in: it stays theirs to see, with their submission.
    expect((await list(cy))[0]).toMatchObject({
      id: made.id,
      submission: { submittedAt: expect.any(String) },
    });
    await patch(teacher, made.id, { assignees: 'all' });
    await adaTab.waitFor((e) => e.type === 'assignment:created' && about(made.id)(e));
    expect(await ids(ada)).toEqual([made.id]);
    // Ada is told it is new once more (she lost it in between); Ben, who kept it, never again.
    expect(await newAssignmentNotes(ada, made.id)).toHaveLength(2);
    expect(await newAssignmentNotes(ben, made.id)).toHaveLength(1);
    expect(benTab.events.filter((e) => e.type === 'assignment:created' && about(made.id)(e))).toEqual([]);
  });

  it.each([
    ['a student of another class', 'stranger', 422, ErrorCode.assigneeNotMember],
    ['a teacher', 'teacher', 422, ErrorCode.assigneeNotMember],
    ['a name that is no id', 'garbage', 400, ErrorCode.validationFailed],
    ['the same student twice', 'twice', 400, ErrorCode.validationFailed],
    // The body is over the server's limit before its schema is read.
    ['10,000 ids', 'many', 413, ErrorCode.payloadTooLarge],
  ])('refuses %s among the assignees', async (_what, which, status, code) => {
    const { teacher, course, students } = await createClass(t, 1);
    const stranger = await createStudent(t);
    const assignees =
      which === 'stranger'
        ? [stranger.id]
        : which === 'teacher'
          ? [teacher.id]
          : which === 'garbage'
            ? ['not-an-id']
            : which === 'twice'
              ? [students[0]!.id, students[0]!.id]
              : Array.from({ length: 10_000 }, () => crypto.randomUUID());
    const res = await post(teacher, { title: 'X', dueDate: inMinutes(60), courseId: course.id, assignees });
    expect(res.statusCode).toBe(status);
    expect(res.json()).toMatchObject({ code });
  });

  it('tells only the students it is for that its archived course is read-only', async () => {
    const { teacher, course, students } = await createClass(t, 2);
    const [ada, ben] = students as [Actor, Actor];
    const made = (
      await post(teacher, { title: 'Old', dueDate: inMinutes(600), courseId: course.id, assignees: [ada.id] })
    ).json<Assignment>();
    await t.app.inject({
      method: 'POST',
      url: `/api/courses/${course.id}/archive`,
      headers: teacher.headers,
    });
    const submitAs = (who: Actor) =>
      t.app.inject({
        method: 'POST',
        url: `/api/assignments/${made.id}/submissions`,
        headers: who.headers,
        payload: { content: 'x' },
      });
    expect((await submitAs(ada)).json()).toMatchObject({ code: ErrorCode.courseArchived });
    expect((await submitAs(ben)).statusCode).toBe(404);
  });

  it('refuses to excuse a student it is not for, or not yet published, as a grade is (422 not_assigned)', async () => {
    const { teacher, course, students } = await createClass(t, 2);
    const [ada, ben] = students as [Actor, Actor];
    const onlyAda = (
      await post(teacher, { title: 'Ada', dueDate: inMinutes(600), courseId: course.id, assignees: [ada.id] })
    ).json<Assignment>();
    const scheduled = (
      await post(teacher, {
        title: 'Later',
        dueDate: inMinutes(600),
        courseId: course.id,
        publishAt: inMinutes(120),
      })
    ).json<Assignment>();
    const teacherTab = await t.tab(teacher);
    const excuse = (assignment: Assignment, who: Actor, excused: boolean) =>
      t.app.inject({
        method: 'POST',
        url: `/api/assignments/${assignment.id}/excuse`,
        headers: teacher.headers,
        payload: { studentId: who.id, excused },
      });
    for (const [assignment, who, excused] of [
      [onlyAda, ben, true],
      [onlyAda, ben, false],
      [scheduled, ada, true],
    ] as const) {
      const res = await excuse(assignment, who, excused);
      expect([res.statusCode, res.json().code]).toEqual([422, ErrorCode.notAssigned]);
    }
    // The one it is for is excused as ever.
    expect((await excuse(onlyAda, ada, true)).statusCode).toBe(200);
    await teacherTab.waitFor(
      (e) => e.type === 'gradebook:cell' && (e.data as { assignmentId: string }).assignmentId === onlyAda.id,
    );
    expect(
      teacherTab.events
        .filter((e) => e.type === 'gradebook:cell')
        .map((e) => (e.data as { studentId: string }).studentId),
    ).toEqual([ada.id]);

    // Nothing was left behind: once it is Ben's too, his cell owes the work like anyone's.
    expect((await patch(teacher, onlyAda.id, { assignees: [ada.id, ben.id] })).statusCode).toBe(200);
    const book = (
      await t.app.inject({
        method: 'GET',
        url: `/api/courses/${course.id}/gradebook`,
        headers: teacher.headers,
      })
    ).json<{
      cells: Array<{ assignmentId: string; studentId: string; assigned?: boolean; status: string }>;
    }>();
    const cellOf = (assignment: Assignment, who: Actor) =>
      book.cells.find((c) => c.assignmentId === assignment.id && c.studentId === who.id);
    expect(cellOf(onlyAda, ben)).toMatchObject({ status: 'not_submitted' });
    expect(cellOf(onlyAda, ben)?.assigned).toBeUndefined();
    expect(cellOf(scheduled, ada)).toMatchObject({ assigned: false });
  });
});

describe('publishAt', () => {
  it('keeps a scheduled assignment from the class until the job publishes it, once', async () => {
    const { teacher, course, students } = await createClass(t, 1);
    const ada = students[0]!;
    const adaTab = await t.tab(ada);
    const at = inMinutes(5);
    const res = await post(teacher, {
      title: 'Later',
      dueDate: inMinutes(60 * 72),
      courseId: course.id,
      publishAt: at,
    });
    expect(res.statusCode, res.body).toBe(201);
    const made = res.json<Assignment>();
    expect(made.publishAt).toBe(at);
    expect(await ids(ada)).toEqual([]);
    expect((await list(teacher)).find((a) => a.id === made.id)?.publishAt).toBe(at);
    await t.app.core.jobs.runDue();
    expect(await ids(ada)).toEqual([]);
    t.clock.advance(5 * 60_000);
    await t.app.core.jobs.runDue();
    await t.app.core.jobs.runDue();
    await adaTab.waitFor((e) => e.type === 'assignment:created' && about(made.id)(e));
    expect(await ids(ada)).toEqual([made.id]);
    expect((await list(teacher)).find((a) => a.id === made.id)?.publishAt).toBeNull();
    expect(adaTab.events.filter((e) => e.type === 'assignment:created' && about(made.id)(e))).toHaveLength(1);
    expect(await newAssignmentNotes(ada, made.id)).toHaveLength(1);
    // Out already: a new publish time is refused, "now" changes nothing.
    const late = await patch(teacher, made.id, { publishAt: inMinutes(10) });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ code: ErrorCode.alreadyPublished });
    expect((await patch(teacher, made.id, { publishAt: null })).statusCode).toBe(200);
    expect(await newAssignmentNotes(ada, made.id)).toHaveLength(1);
  });

  it('moves with an edit, and publishes at once when asked', async () => {
    const { teacher, course, students } = await createClass(t, 1);
    const ada = students[0]!;
    const made = (
      await post(teacher, {
        title: 'Moved',
        dueDate: inMinutes(60 * 72),
        courseId: course.id,
        publishAt: inMinutes(5),
      })
    ).json<Assignment>();
    const later = inMinutes(60);
    expect((await patch(teacher, made.id, { publishAt: later })).json<Assignment>().publishAt).toBe(later);
    t.clock.advance(5 * 60_000);
    await t.app.core.jobs.runDue();
    expect(await ids(ada)).toEqual([]);
    const now = await patch(teacher, made.id, { publishAt: null });
    expect(now.json<Assignment>().publishAt).toBeNull();
    expect(await ids(ada)).toEqual([made.id]);
    // The job, when its time comes, finds it out and tells nobody again.
    t.clock.advance(60 * 60_000);
    await t.app.core.jobs.runDue();
    expect(await newAssignmentNotes(ada, made.id)).toHaveLength(1);
  });

  it.each([
    ['a past time: published now', () => inMinutes(-60), 201],
    ['garbage', () => 'next tuesday', 400],
    ['a number', () => 12, 400],
  ])('takes %s', async (_what, value, status) => {
    const { teacher, course } = await createClass(t, 0);
    const res = await post(teacher, {
      title: 'P',
      dueDate: inMinutes(60),
      courseId: course.id,
      publishAt: value(),
    });
    expect(res.statusCode).toBe(status);
    if (status === 201) expect(res.json<Assignment>().publishAt).toBeNull();
  });
});

describe('PUT/DELETE /api/assignments/:id/extensions/:studentId', () => {
  it("moves one student's due date, closing and status, and tells only them and the teachers", async () => {
    const { teacher, course, students } = await createClass(t, 2);
    const [ada, ben] = students as [Actor, Actor];
    const due = inMinutes(4);
    const made = await createAssignment(t, teacher, course, { title: 'Closing', dueDate: due });
    await patch(teacher, made.id, { closesAtDue: true });
    const [adaTab, benTab, teacherTab] = [await t.tab(ada), await t.tab(ben), await t.tab(teacher)];
    const extended = inMinutes(60 * 24 * 3);
    const res = await extend(teacher, made.id, ada.id, extended);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ studentId: ada.id, dueDate: extended, classDueDate: due });
    await adaTab.waitFor((e) => e.type === 'assignment:extended');
    await teacherTab.waitFor((e) => e.type === 'assignment:extended');
    expect((await list(ada))[0]).toMatchObject({ dueDate: extended, extendedFrom: due });
    expect((await list(ben))[0]).toMatchObject({ dueDate: due, extendedFrom: null });
    // Past the class's due time: Ben is closed out, Ada is not.
    // (Within the access tokens' 15 minutes.)
    t.clock.advance(5 * 60_000);
    expect((await list(ada))[0]!.status).toBe('not_submitted');
    expect((await list(ben))[0]!.status).toBe('missing');
    const benSubmit = await t.app.inject({
      method: 'POST',
      url: `/api/assignments/${made.id}/submissions`,
      headers: ben.headers,
      payload: { content: 'late' },
    });
    expect(benSubmit.statusCode).toBe(409);
    expect(benSubmit.json()).toMatchObject({ code: ErrorCode.assignmentClosed });
    const todo = (await t.app.inject({ method: 'GET', url: '/api/todo', headers: ada.headers })).json<{
      work: Array<{ assignmentId: string; dueDate: string }>;
    }>();
    expect(todo.work).toEqual([expect.objectContaining({ assignmentId: made.id, dueDate: extended })]);
    const calendar = await t.app.inject({
      method: 'GET',
      url: `/api/calendar?from=${encodeURIComponent(inMinutes(-60 * 24))}&to=${encodeURIComponent(inMinutes(60 * 24 * 7))}`,
      headers: ada.headers,
    });
    expect(calendar.json<{ items: Array<{ dueDate: string }> }>().items.map((i) => i.dueDate)).toEqual([
      extended,
    ]);
    await submit(t, ada, made);
    // Never another student's: Ben heard nothing of it.
    expect(benTab.events.filter((e) => e.type === 'assignment:extended')).toEqual([]);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/assignments/${made.id}/extensions/${ada.id}`,
      headers: teacher.headers,
    });
    expect(removed.statusCode).toBe(204);
    expect((await list(ada))[0]).toMatchObject({ dueDate: due, extendedFrom: null });
  });

  it('reminds the student on their own date, and the class without them', async () => {
    const { teacher, course, students } = await createClass(t, 2);
    const [ada, ben] = students as [Actor, Actor];
    const made = await createAssignment(t, teacher, course, {
      title: 'Reminded',
      dueDate: inMinutes(60 * 30),
    });
    await extend(teacher, made.id, ada.id, inMinutes(60 * 80));
    const dueSoon = async (who: Actor) =>
      (
        await t.app.core.db
          .select()
          .from(notifications)
          .where(and(eq(notifications.userId, who.id), eq(notifications.kind, 'due_soon')))
      ).filter((n) => n.assignmentId === made.id);
    t.clock.advance(7 * 60 * 60_000);
    await t.app.core.jobs.runDue();
    expect(await dueSoon(ben)).toHaveLength(1);
    expect(await dueSoon(ada)).toHaveLength(0);
    t.clock.advance(50 * 60 * 60_000);
    await t.app.core.jobs.runDue();
    expect(await dueSoon(ada)).toHaveLength(1);
    // At the class's due time the teacher hears of Ben missing; Ada still has time.
    const [closed] = await t.app.core.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, teacher.id), eq(notifications.kind, 'assignment_closed')));
    expect(closed).toMatchObject({ assignmentId: made.id, count: 1 });
  });

  it.each([
    ['a student of the class', 'member', 404, ErrorCode.notFound],
    ['a teacher of another course', 'other', 404, ErrorCode.notFound],
    ['a student who is not in the class', 'stranger-target', 404, ErrorCode.notFound],
    ['a student it is not for', 'unassigned-target', 422, ErrorCode.notAssigned],
    ['garbage for a date', 'garbage', 400, ErrorCode.validationFailed],
  ])('refuses %s', async (_what, which, status, code) => {
    const { teacher, course, students } = await createClass(t, 2);
    const [ada, ben] = students as [Actor, Actor];
    const made = (
      await post(teacher, { title: 'E', dueDate: inMinutes(60), courseId: course.id, assignees: [ada.id] })
    ).json<Assignment>();
    const [other, stranger] = await Promise.all([createTeacher(t), createStudent(t)]);
    const caller = which === 'member' ? ada : which === 'other' ? other : teacher;
    const target = which === 'stranger-target' ? stranger : which === 'unassigned-target' ? ben : ada;
    const res = await extend(caller, made.id, target.id, which === 'garbage' ? 'soon' : inMinutes(120));
    expect(res.statusCode).toBe(status);
    expect(res.json()).toMatchObject({ code });
  });
});

describe('publishing across processes', () => {
  it('publishes once when two runners race on it', async () => {
    const database: Database & { dispose(): Promise<void> } = await openTestDatabase();
    const [a, b] = await Promise.all([createTestApp({ database }), createTestApp({ database })]);
    try {
      const teacher = await createTeacher(a);
      const course = await createCourse(a, teacher);
      const ada = await createStudent(a);
      await joinCourse(a, ada, course);
      const at = new Date(a.clock.now().getTime() + 60_000).toISOString();
      const made = (
        await a.app.inject({
          method: 'POST',
          url: '/api/assignments',
          headers: teacher.headers,
          payload: {
            title: 'Raced',
            dueDate: new Date(Date.now() + 86_400_000 * 3).toISOString(),
            courseId: course.id,
            publishAt: at,
          },
        })
      ).json<Assignment>();
      // A second job for the same assignment (as a crash between two schedulings could leave), so
      // each runner claims one and they meet on the assignment's row.
      await database.db.insert(jobs).values({
        kind: PUBLISH_ASSIGNMENT_KIND,
        key: `${PUBLISH_ASSIGNMENT_KIND}:${made.id}:again`,
        runAt: new Date(at),
        payload: { assignmentId: made.id },
      });
      a.clock.advance(2 * 60_000);
      b.clock.advance(2 * 60_000);
      await Promise.all([a.app.core.jobs.runDue(), b.app.core.jobs.runDue(), a.app.core.jobs.runDue()]);
      const told = await database.db
        .select()
        .from(events)
        .where(
          and(
            eq(events.type, 'assignment:created'),
            sql`${events.data}->>'id' = ${made.id}`,
            sql`${events.data}->>'submissionCount' is null`,
          ),
        );
      expect(told).toHaveLength(1);
      const notes = await database.db
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, ada.id), eq(notifications.assignmentId, made.id)));
      expect(notes).toHaveLength(1);
      const pending = await database.db
        .select()
        .from(jobs)
        .where(sql`${jobs.key} like ${`${PUBLISH_ASSIGNMENT_KIND}:${made.id}%`} and ${jobs.doneAt} is null`);
      expect(pending).toEqual([]);
    } finally {
      await Promise.all([a.close(), b.close()]);
      await database.dispose();
    }
  });
});
