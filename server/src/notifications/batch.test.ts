import { like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Assignment, Notification, NotificationPage } from '@classwave/shared';
import { jobs } from '../db/schema.js';
import { createClass, createAssignment, submit, type Actor } from '../../test/support/factories.js';
import { liveTestApp, type LiveTestApp } from '../../test/support/live-app.js';
import { barrier, type Recorder } from '../../test/support/sockets.js';

/** The teacher's "new submissions" batch counts distinct students whose submission stands. */
let t: LiveTestApp;
beforeAll(async () => {
  t = await liveTestApp();
});
afterAll(() => t.close());

async function setUp(n: number) {
  const { teacher, course, students } = await createClass(t, n);
  const assignment = await createAssignment(t, teacher, course, { title: 'Poem' });
  const teacherTab = await t.tab(teacher);
  return { teacher, course, students, assignment, teacherTab };
}

/** The teacher's batches once the work after the commits is done (the submit does not wait for it). */
async function batches(teacher: Actor, assignment: Assignment) {
  await t.app.core.afterCommit.settled();
  const res = await t.app.inject({ method: 'GET', url: '/api/notifications', headers: teacher.headers });
  return res
    .json<NotificationPage>()
    .items.filter((n) => n.kind === 'submissions' && n.assignmentId === assignment.id);
}

async function unsubmit(student: Actor, assignment: Assignment) {
  const res = await t.app.inject({
    method: 'DELETE',
    url: `/api/assignments/${assignment.id}/submission`,
    headers: student.headers,
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** Waits for the teacher's tab to hear the batch at `count`. */
const heardCount = (tab: Recorder, count: number) =>
  tab.waitFor((e) => e.type === 'notification:created' && (e.data as Notification).count === count);

describe('the submissions batch', () => {
  it('goes down when a submission is taken back, and counts a student who submits again once', async () => {
    const { teacher, students, assignment, teacherTab } = await setUp(3);
    const [a, b, c] = students as [Actor, Actor, Actor];
    for (const s of [a, b, c]) {
      await submit(t, s, assignment);
      t.clock.advance(30_000);
    }
    const [three] = await batches(teacher, assignment);
    expect(three).toMatchObject({ count: 3, title: '3 new submissions: Poem' });
    const read = await t.app.inject({
      method: 'POST',
      url: '/api/notifications/read',
      headers: teacher.headers,
      payload: { all: true },
    });
    expect(read.statusCode).toBe(200);

    // Taken back: two left; the entry keeps its place and stays read (less is not news), and the tab hears it.
    await unsubmit(a, assignment);
    const shrunk = await heardCount(teacherTab, 2);
    expect(shrunk.data).toMatchObject({ id: three!.id, title: '2 new submissions: Poem' });
    const [two] = await batches(teacher, assignment);
    expect(two).toMatchObject({ id: three!.id, count: 2, updatedAt: three!.updatedAt });
    expect(two!.readAt).not.toBeNull();

    // The same student submits again: three students, not four, and news again.
    t.clock.advance(30_000);
    await submit(t, a, assignment);
    const [again] = await batches(teacher, assignment);
    expect(again).toMatchObject({ id: three!.id, count: 3, title: '3 new submissions: Poem', readAt: null });
    await unsubmit(a, assignment);
    await submit(t, a, assignment);
    expect((await batches(teacher, assignment)).map((n) => n.count)).toEqual([3]);
  });

  it('says the only submission was taken back when none is left', async () => {
    const { teacher, students, assignment, teacherTab } = await setUp(1);
    await submit(t, students[0]!, assignment);
    await unsubmit(students[0]!, assignment);
    await heardCount(teacherTab, 0);
    expect(await batches(teacher, assignment)).toEqual([
      expect.objectContaining({ count: 0, title: 'Submission taken back: Poem' }),
    ]);
  });

  it('recounts an earlier batch, not the open one, for a submission made in its window', async () => {
    const { teacher, students, assignment } = await setUp(2);
    const [early, late] = students as [Actor, Actor];
    await submit(t, early, assignment);
    t.clock.advance(11 * 60_000);
    await submit(t, late, assignment);
    await unsubmit(early, assignment);
    expect((await batches(teacher, assignment)).map((n) => [n.title, n.count])).toEqual([
      ['New submission: Poem', 1],
      ['Submission taken back: Poem', 0],
    ]);
  });

  it('sends each version of the entry once, naming the latest student, even when a job is applied again', async () => {
    const { teacher, students, assignment, teacherTab } = await setUp(3);
    for (const s of students) {
      await submit(t, s, assignment);
      t.clock.advance(1000);
    }
    // A crash between a batch's commit and its job's: the poller applies every job again.
    await t.app.core.database.db
      .update(jobs)
      .set({ doneAt: null })
      .where(like(jobs.key, 'submission_batch:%'));
    t.clock.advance(61_000);
    await t.app.core.jobs.runDue();
    await barrier(teacherTab);
    const sent = teacherTab.events
      .filter((e) => e.type === 'notification:created')
      .map((e) => e.data as Notification)
      .filter((n) => n.assignmentId === assignment.id)
      .map((n) => `${n.count}:${n.updatedAt}`);
    expect(sent).toHaveLength(3);
    expect(new Set(sent).size).toBe(3);
    expect((await batches(teacher, assignment))[0]).toMatchObject({
      count: 3,
      body: `Latest: ${students[2]!.fullName}`,
    });
  });

  it("counts only its own assignment's submissions", async () => {
    const { teacher, course, students, assignment } = await setUp(3);
    const [a, b, c] = students as [Actor, Actor, Actor];
    const other = await createAssignment(t, teacher, course, { title: 'Essay' });
    await submit(t, a, assignment);
    await submit(t, b, other);
    await submit(t, c, assignment);
    expect((await batches(teacher, assignment)).map((n) => n.count)).toEqual([2]);
    expect((await batches(teacher, other)).map((n) => n.count)).toEqual([1]);
  });

  it("alerts for a batch that grows by the teacher's quiet hours at that moment", async () => {
    const { teacher, students, assignment, teacherTab } = await setUp(2);
    await submit(t, students[0]!, assignment);
    expect((await batches(teacher, assignment))[0]).toMatchObject({ count: 1, alert: true });
    // Quiet all day but one minute, from now on: the next submission arrives inside them.
    const now = t.clock.now();
    const hhmm = (ms: number) => new Date(now.getTime() + ms).toISOString().slice(11, 16);
    const quiet = await t.app.inject({
      method: 'PUT',
      url: '/api/me/notification-settings',
      headers: teacher.headers,
      payload: {
        quietHours: { enabled: true, start: hhmm(2 * 60_000), end: hhmm(60_000), timeZone: 'UTC' },
        email: false,
      },
    });
    expect(quiet.statusCode).toBe(200);
    await submit(t, students[1]!, assignment);
    expect((await heardCount(teacherTab, 2)).data).toMatchObject({ alert: false });
    expect((await batches(teacher, assignment))[0]).toMatchObject({ count: 2, alert: false });
  });
});
