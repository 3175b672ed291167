import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ICAL from 'ical.js';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import {
  createAssignment,
  createCourse,
  createStudent,
  createTeacher,
  inDays,
  joinCourse,
  type Actor,
} from '../../test/support/factories.js';

/** The personal ICS feed (DESIGN §14): read back by a parser, and held to RFC 5545 on top. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Makes (or resets) the caller's feed; its path. */
async function newFeed(actor: Actor): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/api/calendar/feed', headers: actor.headers });
  expect(res.statusCode).toBe(200);
  return new URL(res.json<{ url: string }>().url).pathname;
}

/**
 * The feed parsed by ical.js, with each VEVENT checked against RFC 5545 §3.8.2.2 (DTEND, where
 * there is one, must be later than DTSTART) and §3.6.1 (DTEND and DURATION never both).
 */
async function readFeed(path: string) {
  const res = await t.app.inject({ method: 'GET', url: path });
  expect(res.statusCode, res.body).toBe(200);
  const calendar = new ICAL.Component(ICAL.parse(res.body));
  const vevents = calendar.getAllSubcomponents('vevent');
  for (const vevent of vevents) {
    const start = vevent.getFirstPropertyValue('dtstart') as ICAL.Time | null;
    const end = vevent.getFirstPropertyValue('dtend') as ICAL.Time | null;
    expect(start, 'DTSTART').not.toBeNull();
    if (end)
      expect(end.toJSDate().getTime(), 'DTEND must be later than DTSTART').toBeGreaterThan(
        start!.toJSDate().getTime(),
      );
    expect(end && vevent.hasProperty('duration'), 'DTEND and DURATION together').toBeFalsy();
  }
  return { res, calendar, events: vevents.map((v) => new ICAL.Event(v)) };
}

// iCalendar times are whole seconds.
const toSecond = (iso: string) => new Date(Math.floor(Date.parse(iso) / 1000) * 1000).toISOString();

async function classroom() {
  const teacher = await createTeacher(t);
  const course = await createCourse(t, teacher);
  const student = await createStudent(t);
  await joinCourse(t, student, course);
  return { teacher, course, student };
}

describe('GET /api/calendar/<token>.ics', () => {
  it('is valid RFC 5545: each due date an instant in UTC, with no DTEND at or before its DTSTART', async () => {
    const { teacher, course, student } = await classroom();
    const a = await createAssignment(t, teacher, course, { title: 'Essay', dueDate: inDays(5) });
    const none = await t.app.inject({ method: 'GET', url: '/api/calendar/feed', headers: student.headers });
    expect(none.json()).toEqual({ url: null });
    const path = await newFeed(student);
    expect(path).toMatch(/^\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
    const { res, calendar, events } = await readFeed(path);
    expect(res.headers['content-type']).toContain('text/calendar');
    expect(res.headers['cache-control']).toContain('private');
    expect(res.body).toMatch(/^DTSTART:\d{8}T\d{6}Z\r$/m);
    // The zero-length form of §3.6.1: DTSTART alone (a DTEND equal to it is what §3.8.2.2 forbids).
    expect(res.body).not.toMatch(/^DTEND/m);
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe('Classwave due dates');
    expect(String(calendar.getFirstPropertyValue('refresh-interval'))).toBe('PT1H');
    expect(events).toHaveLength(1);
    const event = events[0]!;
    expect(event.uid).toBe(`assignment-${a.id}@classwave`);
    expect(event.summary).toBe(`Due: Essay (${course.title})`);
    expect(event.startDate.toJSDate().toISOString()).toBe(toSecond(a.dueDate));
    expect(event.startDate.zone?.tzid).toBe('UTC');
    expect(event.endDate.toJSDate().toISOString()).toBe(toSecond(a.dueDate));
    expect(event.sequence).toBe(0);
  });

  it("grows SEQUENCE on every edit made through the API (due date, title, the course's name), keeping the UID", async () => {
    const { teacher, course, student } = await classroom();
    const a = await createAssignment(t, teacher, course, { title: 'Essay', dueDate: inDays(5) });
    const path = await newFeed(student);
    const current = async () => (await readFeed(path)).events[0]!;
    const uid = (await current()).uid;
    const patch = async (url: string, payload: object) => {
      const res = await t.app.inject({ method: 'PATCH', url, headers: teacher.headers, payload });
      expect(res.statusCode, res.body).toBe(200);
    };

    const moved = new Date(Date.parse(a.dueDate) + 3600_000).toISOString();
    await patch(`/api/assignments/${a.id}`, { dueDate: moved });
    let event = await current();
    expect([event.uid, event.sequence]).toEqual([uid, 1]);
    expect(event.startDate.toJSDate().toISOString()).toBe(toSecond(moved));

    await patch(`/api/assignments/${a.id}`, { title: 'Long essay' });
    event = await current();
    expect([event.uid, event.sequence, event.summary]).toEqual([uid, 2, `Due: Long essay (${course.title})`]);

    await patch(`/api/courses/${course.id}`, { title: 'Renamed course' });
    event = await current();
    expect([event.uid, event.sequence, event.summary]).toEqual([uid, 3, 'Due: Long essay (Renamed course)']);

    // A join-code reset is the teacher's alone and changes nothing a calendar shows.
    const reset = await t.app.inject({
      method: 'POST',
      url: `/api/courses/${course.id}/join-code`,
      headers: teacher.headers,
      payload: { action: 'reset' },
    });
    expect(reset.statusCode).toBe(200);
    expect((await current()).sequence).toBe(3);
  });

  it("holds the owner's visible due dates only: the teacher's own, a stranger's has nothing", async () => {
    const { teacher, course, student } = await classroom();
    const a = await createAssignment(t, teacher, course, { dueDate: inDays(2) });
    const uid = `assignment-${a.id}@classwave`;
    expect((await readFeed(await newFeed(student))).events.map((e) => e.uid)).toEqual([uid]);
    expect((await readFeed(await newFeed(teacher))).events.map((e) => e.uid)).toEqual([uid]);
    const strangers = [await createStudent(t), await createTeacher(t)];
    // A student who joined and left: gone from the class, gone from the feed.
    const former = await createStudent(t);
    await joinCourse(t, former, course);
    const left = await t.app.inject({
      method: 'POST',
      url: `/api/courses/${course.id}/leave`,
      headers: former.headers,
    });
    expect(left.statusCode).toBe(204);
    for (const stranger of [...strangers, former]) {
      const { res, events } = await readFeed(await newFeed(stranger));
      expect(events).toEqual([]);
      expect(res.body).not.toContain(a.id);
    }
  });

  it('answers 404 for a reset token, an unknown one, or a malformed address; no sign-in needed', async () => {
    const { student } = await classroom();
    const old = await newFeed(student);
    expect((await t.app.inject({ method: 'GET', url: old })).statusCode).toBe(200);
    const current = await newFeed(student);
    expect(current).not.toBe(old);
    expect((await t.app.inject({ method: 'GET', url: old })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: current })).statusCode).toBe(200);
    for (const path of ['/api/calendar/nope.ics', `/api/calendar/${'a'.repeat(43)}.ics`, `${current}x`]) {
      const res = await t.app.inject({ method: 'GET', url: path });
      expect(res.statusCode, path).toBe(404);
      expect(res.json()).toMatchObject({ statusCode: 404, code: expect.any(String) });
    }
  });
});
