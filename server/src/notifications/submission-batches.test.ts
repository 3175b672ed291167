import { and, eq, inArray, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Assignment, NotificationPage } from '@classwave/shared';
import { jobs, notifications } from '../db/schema.js';
import { createAfterCommit } from '../after-commit.js';
import { DomainEventBus, isEvent } from '../events.js';
import { createOutbox } from '../realtime/outbox.js';
import { createSubmissionBatcher } from './submission-batches.js';
import { createSubmissionService } from '../submissions/service.js';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import { statementsOf } from '../../test/support/statements.js';
import {
  addCoTeacher,
  createClass,
  createAssignment,
  createTeacher,
  submit,
  type Actor,
} from '../../test/support/factories.js';

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

describe('a run of several submissions', () => {
  it('applies its first and its last as one by one: the last outside the first batch starts its own', async () => {
    const { teacher, students, assignment } = await classOf(3);
    const [a, b, c] = students as [Actor, Actor, Actor];
    const made = [await submit(t, a, assignment)];
    t.clock.advance(60_000);
    made.push(await submit(t, b, assignment));
    t.clock.advance(11 * 60_000);
    made.push(await submit(t, c, assignment));
    const applied = (await batchesOf(teacher, assignment)).map((n) => [n.count, n.body]);
    expect(applied).toEqual([
      [1, `Latest: ${c.fullName}`],
      [2, `Latest: ${b.fullName}`],
    ]);
    // As if the process had died after the three commits; then one run takes the first, the next
    // the other two together (they came while it ran).
    await t.app.core.database.db
      .delete(notifications)
      .where(and(eq(notifications.assignmentId, assignment.id), eq(notifications.kind, 'submissions')));
    await t.app.core.database.db
      .update(jobs)
      .set({ doneAt: null })
      .where(
        inArray(
          jobs.key,
          made.map((m) => `submission_batch:${m.id}`),
        ),
      );
    const batcher = createSubmissionBatcher({ ...t.app.core, log: t.app.log });
    await Promise.all(made.map((m) => batcher.submitted(assignment.id, m.id)));
    // The same batches (stamped in one instant here, so in either order).
    const again = (await batchesOf(teacher, assignment)).map((n) => [n.count, n.body]);
    expect(again).toHaveLength(2);
    expect(again).toEqual(expect.arrayContaining(applied));
    expect((await jobsOf('submission_batch:')).filter((j) => made.some((m) => j.key.endsWith(m.id)))).toEqual(
      made.map(() => expect.objectContaining({ doneAt: expect.any(Date) })),
    );
  });
});

describe("the batch's statements", () => {
  const EVENTS = /^(with co as .*)?insert into "events"/s;

  it('are three after the submit, however many teachers the class has: standing, write, events', async () => {
    const { teacher, course, students } = await createClass(t, 2);
    const cora = await createTeacher(t, 'Cora CoTeacher');
    await addCoTeacher(t, teacher, course, cora);
    const assignment = await createAssignment(t, teacher, course, { title: 'Counted' });
    for (const who of students) await t.app.inject({ method: 'GET', url: '/api/me', headers: who.headers });
    for (const [what, who] of [
      ['a submission that starts the batches', students[0]!],
      ['one that joins them', students[1]!],
    ] as const) {
      const sent = await statementsOf(
        t,
        201,
        async () => {
          const res = await t.app.inject({
            method: 'POST',
            url: `/api/assignments/${assignment.id}/submissions`,
            headers: who.headers,
            payload: { content: 'Mine.' },
          });
          await t.app.core.afterCommit.settled();
          return res;
        },
        { guarded: false },
      );
      // The submit's own three end with its events; what follows is the batch's.
      const after = sent.slice(sent.findIndex((s) => EVENTS.test(s)) + 1);
      expect({ what, statements: after.length }).toEqual({ what, statements: 3 });
    }
    // Each teacher has their own batch, counting both.
    for (const who of [teacher, cora])
      expect((await batchesOf(who, assignment)).map((n) => [n.count, n.title])).toEqual([
        [2, '2 new submissions: Counted'],
      ]);
  });
});
