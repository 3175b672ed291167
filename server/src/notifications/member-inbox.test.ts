import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs, notifications } from '../db/schema.js';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import { createClass, createAssignment } from '../../test/support/factories.js';

/** A new assignment's inbox entries are written right after it commits, with a job as the net. */
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

describe("a new assignment's inbox entries", () => {
  it('are there, one per member, once the teacher has the answer; the job is done', async () => {
    const { teacher, course, students } = await classOf(5);
    const assignment = await createAssignment(t, teacher, course, { title: 'Leaves' });
    const entries = await entriesOf(assignment.id);
    expect(entries.map((e) => e.userId).sort()).toEqual(students.map((s) => s.id).sort());
    expect(new Set(entries.map((e) => e.title))).toEqual(new Set(['New assignment in Botany: Leaves']));
    expect((await jobOf(assignment.id))?.doneAt).not.toBeNull();
    // The poller passing by later writes nothing more.
    t.clock.advance(2 * 60_000);
    await t.app.core.jobs.runDue();
    expect(await entriesOf(assignment.id)).toHaveLength(5);
  });

  it('are written once by the poller when the process died after the commit', async () => {
    const { teacher, course } = await classOf(3);
    const assignment = await createAssignment(t, teacher, course, { title: 'Roots' });
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
    const assignment = await createAssignment(t, teacher, course);
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
    expect((await jobOf(assignment.id))?.doneAt).not.toBeNull();
  });
});
