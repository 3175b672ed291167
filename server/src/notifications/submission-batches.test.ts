import { and, eq, inArray, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Assignment, NotificationPage } from '@classwave/shared';
import { jobs, notifications } from '../db/schema.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { createClass, createAssignment, submit, type Actor } from '../test/factories.js';

/** The teacher's batch is applied after each submission commits, with a job as the net (issue 15). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function classOf(n: number) {
  const { teacher, course, students } = await createClass(t, n);
  const assignment = await createAssignment(t, teacher, course, { title: 'Deadline' });
  return { teacher, students, assignment };
}

const batchesOf = async (teacher: Actor, assignment: Assignment) =>
  (await t.app.inject({ method: 'GET', url: '/api/notifications', headers: teacher.headers }))
    .json<NotificationPage>()
    .items.filter((n) => n.kind === 'submissions' && n.assignmentId === assignment.id);

const jobsOf = (keyPrefix: string) =>
  t.app.database.db
    .select()
    .from(jobs)
    .where(like(jobs.key, `${keyPrefix}%`));

describe('the submissions batch, after the commit', () => {
  it('takes a whole class submitting at once into one entry, each student once', async () => {
    const { teacher, students, assignment } = await classOf(24);
    const answers = await Promise.all(
      students.map((s) =>
        t.app.inject({
          method: 'POST',
          url: `/api/assignments/${assignment.id}/submissions`,
          headers: s.headers,
          payload: { content: `From ${s.fullName}` },
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(students.map(() => 201));
    // Every answer came after its batch was up to date: the entry counts all of them at once.
    expect((await batchesOf(teacher, assignment)).map((n) => n.count)).toEqual([24]);
    const net = await jobsOf('submission_batch:');
    const mine = new Set(answers.map((a) => `submission_batch:${a.json<{ id: string }>().id}`));
    const ours = net.filter((j) => mine.has(j.key));
    expect(ours).toHaveLength(24);
    expect(ours.every((j) => j.doneAt !== null)).toBe(true);
  });

  it('leaves an applied submission alone when the poller comes by', async () => {
    const { teacher, students, assignment } = await classOf(1);
    await submit(t, students[0]!, assignment);
    const [before] = await batchesOf(teacher, assignment);
    t.clock.advance(2 * 60_000);
    await t.app.jobs.runDue();
    expect(await batchesOf(teacher, assignment)).toEqual([before]);
  });

  it('is applied by the poller when the process died between the commit and the batch', async () => {
    const { teacher, students, assignment } = await classOf(2);
    const first = await submit(t, students[0]!, assignment);
    const second = await submit(t, students[1]!, assignment);
    // As if the process had died right after each commit: no batch, both jobs pending.
    await t.app.database.db
      .delete(notifications)
      .where(and(eq(notifications.assignmentId, assignment.id), eq(notifications.kind, 'submissions')));
    await t.app.database.db
      .update(jobs)
      .set({ doneAt: null })
      .where(
        inArray(
          jobs.key,
          [first.id, second.id].map((id) => `submission_batch:${id}`),
        ),
      );
    expect(await batchesOf(teacher, assignment)).toEqual([]);

    await t.app.jobs.runDue(); // not yet: the net waits a minute
    expect(await batchesOf(teacher, assignment)).toEqual([]);
    t.clock.advance(61_000);
    await t.app.jobs.runDue();
    expect((await batchesOf(teacher, assignment)).map((n) => [n.count, n.title])).toEqual([
      [2, '2 new submissions: Deadline'],
    ]);
  });
});
