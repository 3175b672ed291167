import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Assignment, Course } from '@classwave/shared';
import { jobs, notifications } from '../db/schema.js';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import { createClass, createAssignment, inDays, type Actor } from '../../test/support/factories.js';
import { INBOX_IN_THE_WRITE } from './member-inbox.js';

/**
 * A new assignment's inbox entries: written by its own write for a class, and right after the
 * commit, with a job as the net, for more students than that or when a scheduled one is published.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const classOf = (n: number) => createClass(t, n, { title: 'Botany' });

const entriesOf = (assignmentId: string) =>
  t.app.core.database.db
    .select({ userId: notifications.userId, title: notifications.title })
    .from(notifications)
    .where(and(eq(notifications.assignmentId, assignmentId), eq(notifications.kind, 'assignment_created')));
const jobOf = async (assignmentId: string) =>
  (
    await t.app.core.database.db
      .select()
      .from(jobs)
      .where(eq(jobs.key, `member_inbox:${assignmentId}`))
  )[0];

/** `n` more active members, written straight to the tables: signing up a hundred students would be the test's whole time. */
async function addMembers(course: Course, n: number): Promise<void> {
  await t.app.core.database.db.execute(sql`with u as (
      insert into users (email, password_hash, email_confirmed_at)
      select 'seeded-' || gen_random_uuid() || '@example.com', 'not-a-hash', now() from generate_series(1, ${n})
      returning id),
    p as (insert into profiles (id, full_name, role) select id, 'Seeded Student', 'student' from u)
    insert into course_members (course_id, student_id, status) select ${course.id}::uuid, id, 'active' from u`);
}

/** A scheduled assignment, published by its job: the students are told through the member-inbox job. */
async function publishedByItsJob(teacher: Actor, course: Course, title: string): Promise<Assignment> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/assignments',
    headers: teacher.headers,
    payload: {
      title,
      dueDate: inDays(7),
      courseId: course.id,
      publishAt: new Date(t.clock.now().getTime() + 60_000).toISOString(),
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  t.clock.advance(61_000);
  await t.app.core.jobs.runDue();
  return res.json<Assignment>();
}

describe("a new assignment's inbox entries", () => {
  it('are written by the assignment itself for a class, one per member, with no job to follow', async () => {
    const { teacher, course, students } = await classOf(5);
    const assignment = await createAssignment(t, teacher, course, { title: 'Leaves' });
    const entries = await entriesOf(assignment.id);
    expect(entries.map((e) => e.userId).sort()).toEqual(students.map((s) => s.id).sort());
    expect(new Set(entries.map((e) => e.title))).toEqual(new Set(['New assignment in Botany: Leaves']));
    expect(await jobOf(assignment.id)).toBeUndefined();
    // The poller passing by later writes nothing more.
    t.clock.advance(2 * 60_000);
    await t.app.core.jobs.runDue();
    expect(await entriesOf(assignment.id)).toHaveLength(5);
  });

  it(`are written right after the commit for more than ${INBOX_IN_THE_WRITE} students; the job is done`, async () => {
    const { teacher, course, students } = await classOf(1);
    await addMembers(course, INBOX_IN_THE_WRITE);
    const assignment = await createAssignment(t, teacher, course, { title: 'Trunks' });
    // The teacher's answer waited for them (module.ts holds it), so they are there now.
    const entries = await entriesOf(assignment.id);
    expect(entries).toHaveLength(INBOX_IN_THE_WRITE + 1);
    expect(entries.map((e) => e.userId)).toContain(students[0]!.id);
    expect((await jobOf(assignment.id))?.doneAt).toBeInstanceOf(Date);
  });

  it('are written once by the poller when the process died after the commit', async () => {
    const { teacher, course } = await classOf(3);
    const assignment = await publishedByItsJob(teacher, course, 'Roots');
    expect(await entriesOf(assignment.id)).toHaveLength(3);
    // As if the process had died right after the commit: no entries, the job pending.
    await t.app.core.database.db.delete(notifications).where(eq(notifications.assignmentId, assignment.id));
    await t.app.core.database.db
      .update(jobs)
      .set({ doneAt: null })
      .where(eq(jobs.key, `member_inbox:${assignment.id}`));
    await t.app.core.jobs.runDue();
    expect(await entriesOf(assignment.id)).toHaveLength(0); // its net is a minute away
    t.clock.advance(61_000);
    await t.app.core.jobs.runDue();
    await t.app.core.jobs.runDue();
    expect(await entriesOf(assignment.id)).toHaveLength(3);
  });

  it('are not written for an assignment deleted before its job ran', async () => {
    const { teacher, course } = await classOf(2);
    const assignment = await publishedByItsJob(teacher, course, 'Stems');
    await t.app.core.database.db.delete(notifications).where(eq(notifications.assignmentId, assignment.id));
    await t.app.core.database.db
      .update(jobs)
      .set({ doneAt: null })
      .where(eq(jobs.key, `member_inbox:${assignment.id}`));
    const gone = await t.app.inject({
      method: 'DELETE',
      url: `/api/assignments/${assignment.id}`,
      headers: teacher.headers,
    });
    expect(gone.statusCode).toBe(204);
    t.clock.advance(61_000);
    await t.app.core.jobs.runDue();
    expect(await entriesOf(assignment.id)).toHaveLength(0);
    expect((await jobOf(assignment.id))?.doneAt).toBeInstanceOf(Date);
  });
});
