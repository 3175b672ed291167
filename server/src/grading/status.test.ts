import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  atZonedTime,
  ErrorCode,
  type Assignment,
  type Gradebook,
  type OwnSubmission,
} from '@classwave/shared';
import { defaultRateLimits } from '../auth/limits.js';
import { bearer, createTestApp, signIn, type TestApp } from '../../test/support/app.js';
import {
  createAssignment,
  createCourse,
  createStudent,
  createTeacher,
  joinCourse,
  type Actor,
} from '../../test/support/factories.js';

/**
 * Where a student's work stands is computed with the server's clock (DESIGN §13): a test moves
 * that clock (server/src/clock.ts) across a due time, and across a daylight-saving change, and
 * reads what the server says. Each describe has its own app, since its clock only moves forward.
 */

const MINUTE = 60_000;

/** Each move signs everyone in again: more sign-ins than the per-account limit allows a person. */
const roomy = { max: 10_000, timeWindow: 60_000 };
const appWithRoomyLimits = () =>
  createTestApp({ rateLimits: Object.fromEntries(Object.keys(defaultRateLimits).map((k) => [k, roomy])) });

/** Stops the app's clock at `at` and signs everyone in again there (their tokens were minted earlier). */
async function moveTo(t: TestApp, at: Date, ...actors: Actor[]): Promise<void> {
  t.clock.freezeAt(at);
  for (const actor of actors) {
    const { accessToken } = await signIn(t, actor.email);
    actor.token = accessToken;
    actor.headers = bearer(accessToken);
  }
}

const statusOf = async (t: TestApp, student: Actor, assignmentId: string) =>
  (await t.app.inject({ method: 'GET', url: '/api/assignments', headers: student.headers }))
    .json<Assignment[]>()
    .find((a) => a.id === assignmentId);

const submitNow = (t: TestApp, student: Actor, assignmentId: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/assignments/${assignmentId}/submissions`,
    headers: student.headers,
    payload: { content: 'My answer.' },
  });

describe('statuses around the due time', () => {
  let t: TestApp;
  let teacher: Actor;
  let ada: Actor;
  let ben: Actor;
  let cy: Actor;
  beforeAll(async () => {
    t = await appWithRoomyLimits();
    [teacher, ada, ben, cy] = await Promise.all([
      createTeacher(t),
      createStudent(t, 'Ada'),
      createStudent(t, 'Ben'),
      createStudent(t, 'Cy'),
    ]);
  });
  afterAll(() => t.close());

  it('not submitted before, on time at the due second, missing and then late after it', async () => {
    const course = await createCourse(t, teacher);
    await Promise.all([ada, ben, cy].map((s) => joinCourse(t, s, course)));
    // Whole seconds: the due time is compared to the millisecond.
    const due = new Date(Math.ceil((t.clock.now().getTime() + 10 * MINUTE) / 1000) * 1000);
    const assignment = await createAssignment(t, teacher, course, { dueDate: due.toISOString() });
    expect((await statusOf(t, ada, assignment.id))?.status).toBe('not_submitted');

    await moveTo(t, due, teacher, ada, ben, cy);
    expect((await statusOf(t, ada, assignment.id))?.status).toBe('not_submitted');
    const onTime = await submitNow(t, ada, assignment.id);
    expect(onTime.statusCode).toBe(201);
    expect(onTime.json<OwnSubmission>().late).toBeNull();
    expect((await statusOf(t, ada, assignment.id))?.status).toBe('submitted');

    await moveTo(t, new Date(due.getTime() + 1000), teacher, ben, cy);
    expect((await statusOf(t, ben, assignment.id))?.status).toBe('missing');
    await moveTo(t, new Date(due.getTime() + 90_000), teacher, ben, cy);
    const late = await submitNow(t, ben, assignment.id);
    expect(late.statusCode).toBe(201);
    expect(late.json<OwnSubmission>().late).toBe(1);
    expect((await statusOf(t, ben, assignment.id))?.status).toBe('late');

    await moveTo(t, new Date(due.getTime() + 2 * 3600_000 + 14 * MINUTE + 30_000), teacher, cy);
    const later = await submitNow(t, cy, assignment.id);
    expect(later.json<OwnSubmission>().late).toBe(134);

    const book = (
      await t.app.inject({
        method: 'GET',
        url: `/api/courses/${course.id}/gradebook`,
        headers: teacher.headers,
      })
    ).json<Gradebook>();
    const cellOf = (s: Actor) => book.cells.find((c) => c.studentId === s.id)!;
    expect([cellOf(ada), cellOf(ben), cellOf(cy)].map((c) => [c.status, c.late])).toEqual([
      ['submitted', null],
      ['late', 1],
      ['late', 134],
    ]);
  });

  it('an assignment that closes at its due time refuses a late submit (409 assignment_closed)', async () => {
    await moveTo(t, t.clock.now(), teacher, ada, ben); // fresh tokens where the last test left the clock
    const course = await createCourse(t, teacher);
    await Promise.all([ada, ben].map((s) => joinCourse(t, s, course)));
    const due = new Date(t.clock.now().getTime() + 5 * MINUTE);
    const assignment = await createAssignment(t, teacher, course, { dueDate: due.toISOString() });
    const closing = await t.app.inject({
      method: 'PATCH',
      url: `/api/assignments/${assignment.id}`,
      headers: teacher.headers,
      payload: { closesAtDue: true },
    });
    expect(closing.json<Assignment>().closesAtDue).toBe(true);
    expect((await submitNow(t, ada, assignment.id)).statusCode).toBe(201);

    await moveTo(t, new Date(due.getTime() + 1000), teacher, ada, ben);
    const refused = await submitNow(t, ben, assignment.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: ErrorCode.assignmentClosed });
    expect((await statusOf(t, ben, assignment.id))?.status).toBe('missing');

    // Opened again (or never closing), the same late submit is taken, marked late.
    await t.app.inject({
      method: 'PATCH',
      url: `/api/assignments/${assignment.id}`,
      headers: teacher.headers,
      payload: { closesAtDue: false },
    });
    const taken = await submitNow(t, ben, assignment.id);
    expect(taken.statusCode).toBe(201);
    expect(taken.json<OwnSubmission>().late).toBe(1);
  });
});

describe('a due time across a daylight-saving change', () => {
  let t: TestApp;
  let teacher: Actor;
  let ada: Actor;
  let ben: Actor;
  beforeAll(async () => {
    t = await appWithRoomyLimits();
    [teacher, ada, ben] = await Promise.all([
      createTeacher(t),
      createStudent(t, 'Ada'),
      createStudent(t, 'Ben'),
    ]);
  });
  afterAll(() => t.close());

  it('counts lateness in real minutes when Paris moves its clocks forward', async () => {
    // Europe/Paris goes from +01:00 to +02:00 at 01:00 UTC on Sunday 28 March 2027.
    const due = atZonedTime(new Date('2027-03-28T12:00:00Z'), 'Europe/Paris', 23, 59);
    expect(due.toISOString()).toBe('2027-03-28T21:59:00.000Z');
    const dayBefore = atZonedTime(new Date('2027-03-27T12:00:00Z'), 'Europe/Paris', 23, 59);
    expect(dayBefore.toISOString()).toBe('2027-03-27T22:59:00.000Z');
    const course = await createCourse(t, teacher);
    await Promise.all([ada, ben].map((s) => joinCourse(t, s, course)));
    const sunday = await createAssignment(t, teacher, course, { dueDate: due.toISOString() });
    const saturday = await createAssignment(t, teacher, course, { dueDate: dayBefore.toISOString() });

    // 22:30 UTC: 23:30 by Saturday's offset, but 00:30 on Monday in Paris.
    await moveTo(t, new Date('2027-03-28T22:30:00Z'), teacher, ada, ben);
    expect((await statusOf(t, ben, sunday.id))?.status).toBe('missing');
    const late = await submitNow(t, ada, sunday.id);
    expect(late.json<OwnSubmission>().late).toBe(31);
    expect((await statusOf(t, ada, sunday.id))?.status).toBe('late');
    expect((await statusOf(t, ada, saturday.id))?.status).toBe('missing');
  });

  it('in summer time, 21:30 UTC is on time for 23:59 Paris (+02:00), as 22:30 UTC is not', async () => {
    const course = await createCourse(t, teacher);
    await joinCourse(t, ben, course);
    const due = atZonedTime(new Date('2027-04-03T12:00:00Z'), 'Europe/Paris', 23, 59);
    expect(due.toISOString()).toBe('2027-04-03T21:59:00.000Z');
    const assignment = await createAssignment(t, teacher, course, { dueDate: due.toISOString() });
    await moveTo(t, new Date('2027-04-03T21:30:00Z'), teacher, ben);
    const onTime = await submitNow(t, ben, assignment.id);
    expect(onTime.json<OwnSubmission>().late).toBeNull();
    expect((await statusOf(t, ben, assignment.id))?.status).toBe('submitted');
    await moveTo(t, new Date('2027-04-03T22:30:00Z'), teacher);
    const book = (
      await t.app.inject({
        method: 'GET',
        url: `/api/courses/${course.id}/gradebook`,
        headers: teacher.headers,
      })
    ).json<Gradebook>();
    expect(book.cells.map((c) => c.late)).toEqual([null]);
  });
});
