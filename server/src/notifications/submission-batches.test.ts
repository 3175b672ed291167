import { and, eq, inArray, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Assignment, NotificationPage } from '@classwave/shared';
import { jobs, notifications } from '../db/schema.js';
import { createAfterCommit } from '../after-commit.js';
import { DomainEventBus, isEvent } from '../events.js';
import { createOutbox } from '../realtime/outbox.js';
import { createSubmissionService } from '../submissions/service.js';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import { createClass, createAssignment, submit, type Actor } from '../../test/support/factories.js';

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

/** The batch as the teacher reads it once the work after the commits is done. */
async function batchesOf(teacher: Actor, assignment: Assignment) {
  await t.app.core.afterCommit.settled();
  const res = await t.app.inject({ method: 'GET', url: '/api/notifications', headers: teacher.headers });
  return res
    .json<NotificationPage>()
    .items.filter((n) => n.kind === 'submissions' && n.assignmentId === assignment.id);
}

const jobsOf = (keyPrefix: string) =>
  t.app.core.database.db
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
    // The answers did not wait for the batch; once it is up to date, one entry counts them all.
    expect((await batchesOf(teacher, assignment)).map((n) => n.count)).toEqual([24]);
    const net = await jobsOf('submission_batch:');
    const mine = new Set(answers.map((a) => `submission_batch:${a.json<{ id: string }>().id}`));
    const ours = net.filter((j) => mine.has(j.key));
    expect(ours).toHaveLength(24);
    expect(ours.every((j) => j.doneAt !== null)).toBe(true);
  });

  it('answers the submit without waiting for the batch, which follows the commit', async () => {
    const { students, assignment } = await classOf(1);
    const database = t.app.core.database;
    let handedOver: string | undefined;
    const bus = new DomainEventBus();
    const afterCommit = createAfterCommit();
    // A batch that never finishes, started as the notifications module starts it: the answer must not hang on it.
    bus.on('live', (event) => {
      if (!isEvent(event, 'submission:created')) return;
      handedOver = event.data.id;
      afterCommit.track(new Promise<void>(() => {}));
    });
    const service = createSubmissionService({
      database,
      clock: t.clock,
      outbox: createOutbox({ db: database.db, bus, clock: t.clock }),
    });
    const caller = {
      userId: students[0]!.id,
      sessionId: 'test',
      role: 'student' as const,
      tokenExpiresAt: 0,
    };
    const answer = await Promise.race([
      service.submit(caller, assignment.id, { content: 'On time' }),
      new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 5_000)),
    ]);
    expect(answer).not.toBe('hung');
    expect(answer).toMatchObject({ created: true });
    expect(handedOver).toBe((answer as { submission: { id: string } }).submission.id);
  });

  it('leaves an applied submission alone when the poller comes by', async () => {
    const { teacher, students, assignment } = await classOf(1);
    await submit(t, students[0]!, assignment);
    const [before] = await batchesOf(teacher, assignment);
    t.clock.advance(2 * 60_000);
    await t.app.core.jobs.runDue();
    expect(await batchesOf(teacher, assignment)).toEqual([before]);
  });

  it('is applied by the poller when the process died between the commit and the batch', async () => {
    const { teacher, students, assignment } = await classOf(2);
    const first = await submit(t, students[0]!, assignment);
    const second = await submit(t, students[1]!, assignment);
    // As if the process had died right after each commit: no batch, both jobs pending.
    await t.app.core.database.db
      .delete(notifications)
      .where(and(eq(notifications.assignmentId, assignment.id), eq(notifications.kind, 'submissions')));
    await t.app.core.database.db
      .update(jobs)
      .set({ doneAt: null })
      .where(
        inArray(
          jobs.key,
          [first.id, second.id].map((id) => `submission_batch:${id}`),
        ),
      );
    expect(await batchesOf(teacher, assignment)).toEqual([]);

    await t.app.core.jobs.runDue(); // not yet: the net waits a minute
    expect(await batchesOf(teacher, assignment)).toEqual([]);
    t.clock.advance(61_000);
    await t.app.core.jobs.runDue();
    expect((await batchesOf(teacher, assignment)).map((n) => [n.count, n.title])).toEqual([
      [2, '2 new submissions: Deadline'],
    ]);
  });
});
