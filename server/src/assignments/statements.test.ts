import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, type Assignment, type LiveEvent } from '@classwave/shared';
import { jobs, notifications } from '../db/schema.js';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import { statementsOf } from '../../test/support/statements.js';
import {
  addCoTeacher,
  createClass,
  createTeacher,
  inDays,
  type Actor,
} from '../../test/support/factories.js';
import { connect, listen, type Recorder } from '../../test/support/sockets.js';

/**
 * A new assignment in few round trips (issue 30, DESIGN §22; bench S8school creates one every 5 s):
 * three statements however it is made — the standing (who may, the category, the students it is
 * for and their settings), the write (the row, its publication job or its reminders, each
 * student's inbox entry) and the outbox's events — counted at the driver as PostgreSQL receives
 * them (BEGIN and COMMIT aside), with whatever follows the commit (nothing, for a class). No archive
 * guard's read before them: the standing answers 409 course_archived itself.
 */
let t: TestApp;
let url: string;
const tabs: Recorder[] = [];
beforeAll(async () => {
  t = await createTestApp();
  url = await listen(t.app);
});
afterAll(async () => {
  tabs.forEach((r) => r.close());
  await t.close();
});

async function setup() {
  const { teacher, course, students } = await createClass(t, 3, { title: 'Physics' });
  const cora = await createTeacher(t, 'Cora CoTeacher');
  await addCoTeacher(t, teacher, course, cora);
  const categories = await t.app.inject({
    method: 'PUT',
    url: `/api/courses/${course.id}/categories`,
    headers: teacher.headers,
    payload: { categories: [{ name: 'Labs', weight: 100 }] },
  });
  expect(categories.statusCode, categories.body).toBe(200);
  const categoryId = categories.json<{ categories: Array<{ id: string }> }>().categories[0]!.id;
  // Every writer's request once first: their sessions are then in the session cache.
  for (const who of [teacher, cora])
    await t.app.inject({ method: 'GET', url: '/api/me', headers: who.headers });
  return { teacher, cora, course, students: students as [Actor, Actor, Actor], categoryId };
}

/** The statements of a create, with the work after its commit settled inside the count. */
async function created(who: Actor, payload: Record<string, unknown>) {
  let made: Assignment | undefined;
  const sent = await statementsOf(
    t,
    201,
    async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/assignments',
        headers: who.headers,
        payload,
      });
      await t.app.core.afterCommit.settled();
      if (res.statusCode === 201) made = res.json<Assignment>();
      return res;
      // No archive guard's read before it: its standing reads archived_at itself.
    },
    { guarded: false },
  );
  return { sent, made: made! };
}

const entriesOf = (assignmentId: string) =>
  t.app.core.db
    .select({ userId: notifications.userId })
    .from(notifications)
    .where(and(eq(notifications.assignmentId, assignmentId), eq(notifications.kind, 'assignment_created')));
const jobsOf = async (assignmentId: string) =>
  (
    await t.app.core.db
      .select({ key: jobs.key })
      .from(jobs)
      .where(like(jobs.key, `%${assignmentId}%`))
  )
    .map((j) => j.key.replace(`:${assignmentId}`, ''))
    .sort();
const about = (id: string) => (e: LiveEvent) => (e.data as { id?: string }).id === id;

describe('POST /api/assignments', () => {
  it('sends three statements for the whole class, with its inbox entries, reminders and events', async () => {
    const { teacher, cora, course, students } = await setup();
    const tab = await connect(url, students[0].token);
    const coraTab = await connect(url, cora.token);
    tabs.push(tab, coraTab);
    const { sent, made } = await created(teacher, {
      title: 'Lab 1',
      dueDate: inDays(3),
      courseId: course.id,
    });
    expect(sent).toHaveLength(3);
    expect((await entriesOf(made.id)).map((e) => e.userId).sort()).toEqual(students.map((s) => s.id).sort());
    expect(await jobsOf(made.id)).toEqual(['closed', 'due_soon']);
    // The class hears it with the status everyone has; the co-teacher, with the counts.
    const heard = await tab.waitFor((e) => e.type === 'assignment:created' && about(made.id)(e));
    expect(heard.data).toMatchObject({ status: 'not_submitted', submissionCount: null });
    const taught = await coraTab.waitFor((e) => e.type === 'assignment:created' && about(made.id)(e));
    expect(taught.data).toMatchObject({ submissionCount: 0, needsGrading: 0 });
  });

  it('sends three statements for some students in a category, a co-teacher creating it', async () => {
    const { cora, course, students, categoryId } = await setup();
    const [ada, bo] = students;
    const { sent, made } = await created(cora, {
      title: 'Lab 2',
      dueDate: inDays(3),
      courseId: course.id,
      categoryId,
      assignees: [ada.id, bo.id],
    });
    expect(sent).toHaveLength(3);
    expect(made).toMatchObject({ categoryId, assignees: [ada.id, bo.id] });
    expect((await entriesOf(made.id)).map((e) => e.userId).sort()).toEqual([ada.id, bo.id].sort());
  });

  it('sends three statements for a scheduled one, which tells no student yet', async () => {
    const { teacher, course } = await setup();
    const publishAt = new Date(t.clock.now().getTime() + 3_600_000).toISOString();
    const { sent, made } = await created(teacher, {
      title: 'Lab 3',
      dueDate: inDays(3),
      courseId: course.id,
      publishAt,
    });
    expect(sent).toHaveLength(3);
    expect(made.publishAt).toBe(publishAt);
    expect(await entriesOf(made.id)).toEqual([]);
    expect(await jobsOf(made.id)).toEqual(['assignment_publish']);
  });

  it('sends three statements for one already past its due time, with no reminder', async () => {
    const { teacher, course, students } = await setup();
    const { sent, made } = await created(teacher, {
      title: 'Lab 0',
      dueDate: inDays(-1),
      courseId: course.id,
    });
    expect(sent).toHaveLength(3);
    expect(await entriesOf(made.id)).toHaveLength(students.length);
    expect(await jobsOf(made.id)).toEqual([]);
  });
});

describe('POST /api/assignments to an archived course', () => {
  it('answers from its own standing: 409 course_archived to those who see the course, their answers to others', async () => {
    const { teacher, cora, course, students } = await setup();
    const archived = await t.app.inject({
      method: 'POST',
      url: `/api/courses/${course.id}/archive`,
      headers: teacher.headers,
    });
    expect(archived.statusCode, archived.body).toBeLessThan(300);
    const [stranger, outsider] = [await createTeacher(t, 'Stranger'), (await createClass(t, 1)).students[0]!];
    for (const who of [stranger, outsider, students[0]])
      await t.app.inject({ method: 'GET', url: '/api/me', headers: who.headers });
    const payload = { title: 'Late', dueDate: inDays(3), courseId: course.id };
    const callers: Array<[string, Actor, number]> = [
      ['its owner', teacher, 409],
      ['its co-teacher', cora, 409],
      ['a member student', students[0], 409],
      ['a teacher of other courses', stranger, 404],
      ['a student of another class', outsider, 403],
    ];
    for (const [what, who, status] of callers) {
      const sent = await statementsOf(
        t,
        status,
        () => t.app.inject({ method: 'POST', url: '/api/assignments', headers: who.headers, payload }),
        { guarded: false },
      );
      // The refusal rolls its transaction back (node-postgres sends ROLLBACK, PGlite does not).
      const standing = sent.filter((s) => !/^rollback\b/i.test(s));
      expect({ what, statements: standing.length }).toEqual({ what, statements: 1 });
      if (status === 409) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/assignments',
          headers: who.headers,
          payload,
        });
        expect(res.json()).toMatchObject({ code: ErrorCode.courseArchived });
      }
    }
  });
});
