import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Assignment, Notification } from '@classwave/shared';
import { createTestApp, openTestDatabase, type TestApp } from '../../test/support/app.js';
import {
  createAssignment,
  createCourse,
  createStudent,
  createTeacher,
  joinCourse,
  submit,
  type Actor,
} from '../../test/support/factories.js';
import { connect, listen, type Recorder } from '../../test/support/sockets.js';
import type { Database } from '../db/client.js';
import { assignments, events, jobs, notifications } from '../db/schema.js';
import { toNotification } from './store.js';
import { otherProcessJobs } from '../../test/support/jobs.js';
import { notificationJobs } from './jobs.js';
import { jobKeys, rescheduleReminders } from './reminders.js';

const HOUR = 3600_000;

/** Two server processes over one database, each polling the job table, with clocks moved together. */
let database: Database & { dispose(): Promise<void> };
let a: TestApp;
let b: TestApp;
const sockets: Recorder[] = [];

beforeAll(async () => {
  database = await openTestDatabase();
  [a, b] = await Promise.all([
    createTestApp({ database, env: { JOB_POLL_MS: '0' } }),
    createTestApp({ database, env: { JOB_POLL_MS: '0' } }),
  ]);
});
afterAll(async () => {
  sockets.forEach((s) => s.close());
  await Promise.all([a.close(), b.close()]);
  await database.dispose();
});

const listenedUrl = (t: TestApp) => `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
const advance = (ms: number) => {
  a.clock.advance(ms);
  b.clock.advance(ms);
};
const inHours = (hours: number) => new Date(a.clock.now().getTime() + hours * HOUR).toISOString();

/** The user's inbox as stored (read from the table: moving the clock by hours expires the test's access tokens). */
async function inbox(actor: Actor): Promise<Notification[]> {
  const rows = await database.db
    .select()
    .from(notifications)
    .where(eq(notifications.userId, actor.id))
    .orderBy(desc(notifications.updatedAt), desc(notifications.id));
  return rows.map(toNotification);
}
const kinds = async (actor: Actor, kind: string) => (await inbox(actor)).filter((n) => n.kind === kind);

/** A teacher's course with two students, one of whom has already submitted an assignment due in `dueInHours`. */
async function scenario(dueInHours: number) {
  const teacher = await createTeacher(a);
  const course = await createCourse(a, teacher);
  const [done, missing] = await Promise.all([createStudent(a), createStudent(a)]);
  await Promise.all([joinCourse(a, done, course), joinCourse(a, missing, course)]);
  const assignment = await createAssignment(a, teacher, course, {
    title: 'Report',
    dueDate: inHours(dueInHours),
  });
  await submit(a, done, assignment);
  return { teacher, course, done, missing, assignment };
}

/** How many notification:created events were ever written for this user, assignment and kind. */
async function eventsFor(userId: string, assignment: Assignment, kind: string) {
  const [row] = await database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(events)
    .where(
      and(
        eq(events.type, 'notification:created'),
        sql`${events.audience} @> array[${`user:${userId}`}]::text[]`,
        sql`${events.data}->>'assignmentId' = ${assignment.id}`,
        sql`${events.data}->>'kind' = ${kind}`,
      ),
    );
  return row!.n;
}

describe('timed notifications', () => {
  it('due soon fires once, to the members who have not submitted, with two processes polling at the same moment', async () => {
    const { done, missing, assignment, teacher } = await scenario(30);
    // Without Redis each process reaches its own sockets: one tab on each.
    const tabs = await Promise.all([
      connect(await listen(a.app), missing.token),
      connect(await listen(b.app), missing.token),
    ]);
    sockets.push(...tabs);
    advance(5 * HOUR);
    await Promise.all([a.app.core.jobs.runDue(), b.app.core.jobs.runDue()]);
    expect(await kinds(missing, 'due_soon')).toEqual([]);

    advance(1 * HOUR + 60_000);
    await Promise.all([
      a.app.core.jobs.runDue(),
      b.app.core.jobs.runDue(),
      a.app.core.jobs.runDue(),
      b.app.core.jobs.runDue(),
    ]);
    const [reminder] = await kinds(missing, 'due_soon');
    expect(reminder).toMatchObject({
      title: expect.stringContaining('Due soon'),
      assignmentId: assignment.id,
    });
    await Promise.any(
      tabs.map((tab) =>
        tab.waitFor((e) => e.type === 'notification:created' && (e.data as Notification).kind === 'due_soon'),
      ),
    );
    await Promise.all([a.app.core.jobs.runDue(), b.app.core.jobs.runDue()]);
    expect(await kinds(missing, 'due_soon')).toHaveLength(1);
    expect(await eventsFor(missing.id, assignment, 'due_soon')).toBe(1);
    expect(await kinds(done, 'due_soon')).toEqual([]);
    expect(await kinds(teacher, 'due_soon')).toEqual([]);

    // At the due time the teacher hears how many are missing, once.
    advance(24 * HOUR);
    await Promise.all([a.app.core.jobs.runDue(), b.app.core.jobs.runDue()]);
    const closed = await kinds(teacher, 'assignment_closed');
    expect(closed).toEqual([expect.objectContaining({ title: 'Closed: 1 missing — Report', count: 1 })]);
    expect(await eventsFor(teacher.id, assignment, 'assignment_closed')).toBe(1);
    expect(await kinds(missing, 'assignment_closed')).toEqual([]);
  });

  it('an excused student gets no reminder and is not counted missing', async () => {
    const { missing, assignment, teacher } = await scenario(30);
    const excuse = await a.app.inject({
      method: 'POST',
      url: `/api/assignments/${assignment.id}/excuse`,
      headers: teacher.headers,
      payload: { studentId: missing.id, excused: true },
    });
    expect(excuse.statusCode).toBe(200);
    advance(7 * HOUR);
    await a.app.core.jobs.runDue();
    expect(await kinds(missing, 'due_soon')).toEqual([]);
    advance(24 * HOUR);
    await a.app.core.jobs.runDue();
    expect(await kinds(teacher, 'assignment_closed')).toEqual([
      expect.objectContaining({
        title: 'Closed: 0 missing — Report',
        body: expect.stringMatching(/: every student submitted or was excused$/),
        count: 0,
      }),
    ]);
  });

  it('closes an assignment of a class with no students as "no students", not "every student submitted"', async () => {
    const teacher = await createTeacher(a);
    const course = await createCourse(a, teacher);
    const left = await createStudent(a);
    await joinCourse(a, left, course);
    await a.app.inject({ method: 'POST', url: `/api/courses/${course.id}/leave`, headers: left.headers });
    await createAssignment(a, teacher, course, { title: 'Empty', dueDate: inHours(2) });
    advance(3 * HOUR);
    await a.app.core.jobs.runDue();
    expect(await kinds(teacher, 'assignment_closed')).toEqual([
      expect.objectContaining({ body: `${course.title}: no students in this class`, count: 0 }),
    ]);
  });

  it('each process polls on its own timer: a reminder due while both poll arrives exactly once', async () => {
    const database2 = database;
    const [p, q] = await Promise.all([
      createTestApp({ database: database2, env: { JOB_POLL_MS: '20' } }),
      createTestApp({ database: database2, env: { JOB_POLL_MS: '20' } }),
    ]);
    try {
      const teacher = await createTeacher(p);
      const course = await createCourse(p, teacher);
      const student = await createStudent(p);
      await joinCourse(p, student, course);
      // Due within 24 h: the reminder is due at once.
      const assignment = await createAssignment(p, teacher, course, {
        dueDate: new Date(Date.now() + 3 * HOUR).toISOString(),
      });
      const deadline = Date.now() + 5000;
      while ((await eventsFor(student.id, assignment, 'due_soon')) === 0 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      await new Promise((r) => setTimeout(r, 300));
      expect(await eventsFor(student.id, assignment, 'due_soon')).toBe(1);
    } finally {
      await Promise.all([p.close(), q.close()]);
    }
  });

  it('a run that dies before its commit leaves no trace and is run again in full, once', async () => {
    const { missing, assignment } = await scenario(30);
    const crashing = otherProcessJobs({
      db: database.db,
      bus: a.app.core.bus,
      clock: a.clock,
      mailer: { send: async () => {}, close: () => {} },
      appOrigin: a.config.appOrigin,
      log: a.app.log,
      handlers: {
        // The real work, then the process "dies" before the commit.
        async due_soon(job, context) {
          await notificationJobs.due_soon!(job, context);
          expect(
            await context.tx.select().from(notifications).where(eq(notifications.kind, 'due_soon')),
          ).not.toEqual([]);
          throw new Error('killed mid-run');
        },
      },
    });
    advance(6 * HOUR + 60_000);
    // The crashing process may first meet other due jobs (e.g. retention): run until it has met this one.
    while (true) {
      const [job] = await database.db
        .select()
        .from(jobs)
        .where(eq(jobs.key, jobKeys.dueSoon(assignment.id)));
      if (job!.attempts > 0) break;
      await crashing.runOne();
    }
    expect(await kinds(missing, 'due_soon')).toEqual([]);
    expect(await eventsFor(missing.id, assignment, 'due_soon')).toBe(0);
    const [pending] = await database.db
      .select()
      .from(jobs)
      .where(eq(jobs.key, jobKeys.dueSoon(assignment.id)));
    expect(pending).toMatchObject({ doneAt: null, attempts: 1, lastError: 'killed mid-run' });

    advance(60_000);
    await Promise.all([a.app.core.jobs.runDue(), b.app.core.jobs.runDue()]);
    expect(await kinds(missing, 'due_soon')).toHaveLength(1);
    expect(await eventsFor(missing.id, assignment, 'due_soon')).toBe(1);
  });

  it('moving the due date moves the reminder; deleting the assignment cancels it', async () => {
    const { missing, assignment, teacher, course } = await scenario(30);
    const gone = await createAssignment(a, teacher, course, { dueDate: inHours(30) });
    const del = await a.app.inject({
      method: 'DELETE',
      url: `/api/assignments/${gone.id}`,
      headers: teacher.headers,
    });
    expect(del.statusCode).toBe(204);
    expect(
      await database.db
        .select()
        .from(jobs)
        .where(eq(jobs.key, jobKeys.dueSoon(gone.id))),
    ).toEqual([]);
    // The teacher moves the due date (PATCH, DESIGN §13): the edit reschedules in its own transaction.
    const later = new Date(Date.parse(assignment.dueDate) + 30 * HOUR);
    const moved = await a.app.inject({
      method: 'PATCH',
      url: `/api/assignments/${assignment.id}`,
      headers: teacher.headers,
      payload: { dueDate: later.toISOString() },
    });
    expect(moved.statusCode).toBe(200);
    const [job] = await database.db
      .select()
      .from(jobs)
      .where(eq(jobs.key, jobKeys.dueSoon(assignment.id)));
    expect(job!.runAt.getTime()).toBe(later.getTime() - 24 * HOUR);
    advance(7 * HOUR);
    await a.app.core.jobs.runDue();
    expect(await kinds(missing, 'due_soon')).toEqual([]);
    advance(30 * HOUR);
    await a.app.core.jobs.runDue();
    const [first] = await kinds(missing, 'due_soon');
    expect(first).toBeDefined();
    await database.db
      .update(notifications)
      .set({ readAt: a.clock.now() })
      .where(eq(notifications.id, first!.id));

    // Sent, read, and then the date moves two days later: the one entry comes back, unread, refreshed.
    const again = new Date(later.getTime() + 48 * HOUR);
    await database.db.transaction(async (tx) => {
      await tx.update(assignments).set({ dueDate: again }).where(eq(assignments.id, assignment.id));
      await rescheduleReminders(tx, assignment.id, a.clock.now());
    });
    await a.app.core.jobs.runDue();
    // Not yet: 24 h before the new date.
    expect((await kinds(missing, 'due_soon'))[0]).toMatchObject({
      id: first!.id,
      readAt: expect.any(String),
    });
    advance(48 * HOUR);
    await a.app.core.jobs.runDue();
    const [refreshed] = await kinds(missing, 'due_soon');
    expect(refreshed).toMatchObject({ id: first!.id, readAt: null });
    expect(Date.parse(refreshed!.updatedAt)).toBeGreaterThan(Date.parse(first!.updatedAt));
    expect(await kinds(missing, 'due_soon')).toHaveLength(1);
    expect(await eventsFor(missing.id, assignment, 'due_soon')).toBe(2);

    advance(40 * HOUR);
    await a.app.core.jobs.runDue();
    expect(
      (await inbox(missing)).filter((n) => n.assignmentId === gone.id && n.kind !== 'assignment_created'),
    ).toEqual([]);
  });

  it('quiet hours store the entry at once without alert, and hold the e-mail until they end', async () => {
    const teacher = await createTeacher(a);
    const course = await createCourse(a, teacher);
    const student = await createStudent(a);
    await joinCourse(a, student, course);
    const hhmm = (d: Date) => d.toISOString().slice(11, 16);
    const now = a.clock.now();
    const res = await a.app.inject({
      method: 'PUT',
      url: '/api/me/notification-settings',
      headers: student.headers,
      payload: {
        quietHours: {
          enabled: true,
          start: hhmm(new Date(now.getTime() - HOUR)),
          end: hhmm(new Date(now.getTime() + 2 * HOUR)),
          timeZone: 'UTC',
        },
        email: true,
      },
    });
    expect(res.statusCode).toBe(200);
    const tab = await connect(a.app.server.listening ? listenedUrl(a) : await listen(a.app), student.token);
    sockets.push(tab);
    const assignment = await createAssignment(a, teacher, course, {
      title: 'Night shift',
      dueDate: inHours(10),
    });
    await a.app.core.jobs.runDue();
    const reminder = await tab.waitFor(
      (e) => e.type === 'notification:created' && (e.data as Notification).kind === 'due_soon',
    );
    expect(reminder.data).toMatchObject({ alert: false, assignmentId: assignment.id });
    expect((await inbox(student)).map((n) => [n.kind, n.alert])).toEqual([
      ['due_soon', false],
      ['assignment_created', false],
    ]);
    const reminders = () =>
      a.mail.mails.filter((m) => m.to === student.email && m.subject.includes('Due soon'));
    expect(reminders()).toEqual([]);

    advance(HOUR);
    await a.app.core.jobs.runDue();
    expect(reminders()).toEqual([]);
    advance(HOUR + 2 * 60_000);
    await a.app.core.jobs.runDue();
    const mail = await a.mail.latestTo(student.email);
    expect(mail.subject).toBe('Due soon in ' + course.title + ': Night shift');
    expect(mail.text).toContain(`/assignments?open=${assignment.id}`);
    await a.app.core.jobs.runDue();
    expect(reminders()).toHaveLength(1);
  });

  it('schedules nothing for an assignment made past its due time, and reminds at once inside 24 h', async () => {
    const { teacher, course, missing } = await scenario(30);
    const past = await createAssignment(a, teacher, course, { dueDate: inHours(-2) });
    const keys = [jobKeys.dueSoon(past.id), jobKeys.closed(past.id)];
    expect(await database.db.select().from(jobs).where(inArray(jobs.key, keys))).toEqual([]);
    const soon = await createAssignment(a, teacher, course, { title: 'Tonight', dueDate: inHours(5) });
    await a.app.core.jobs.runDue();
    expect((await kinds(missing, 'due_soon')).map((n) => n.assignmentId)).toEqual([soon.id]);
  });

  it('keeps notifications 90 days', async () => {
    const student = await createStudent(a);
    const old = new Date(a.clock.now().getTime() - 91 * 24 * HOUR);
    await database.db.insert(notifications).values([
      {
        userId: student.id,
        kind: 'removed_from_course',
        title: 'Old',
        link: '/courses',
        createdAt: old,
        updatedAt: old,
      },
      { userId: student.id, kind: 'removed_from_course', title: 'New', link: '/courses' },
    ]);
    await database.db.update(jobs).set({ runAt: a.clock.now() }).where(eq(jobs.key, jobKeys.retention));
    await a.app.core.jobs.runDue();
    expect((await inbox(student)).map((n) => n.title)).toEqual(['New']);
  });
});
