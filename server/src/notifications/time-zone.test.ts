import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationPage, NotificationSettings } from '@classwave/shared';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import {
  createAssignment,
  createCourse,
  createStudent,
  createTeacher,
  joinCourse,
  type Actor,
} from '../../test/support/factories.js';

/** Texts in the reader's time (DESIGN §14): the zone their browser reports, unless they chose one. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const HOUR = 3600_000;

const report = (who: Actor, timeZone: unknown) =>
  t.app.inject({ method: 'PUT', url: '/api/me/time-zone', headers: who.headers, payload: { timeZone } });

async function zoneOf(who: Actor): Promise<string> {
  const res = await t.app.inject({
    method: 'GET',
    url: '/api/me/notification-settings',
    headers: who.headers,
  });
  return res.json<NotificationSettings>().quietHours.timeZone;
}

async function saveByHand(who: Actor, timeZone: string) {
  const res = await t.app.inject({
    method: 'PUT',
    url: '/api/me/notification-settings',
    headers: who.headers,
    payload: { quietHours: { enabled: true, start: '22:00', end: '06:00', timeZone }, email: false },
  });
  expect(res.statusCode).toBe(200);
}

describe('PUT /api/me/time-zone', () => {
  it('writes new-assignment and due-soon texts in the reported zone; without one, in UTC and saying so', async () => {
    const teacher = await createTeacher(t);
    const course = await createCourse(t, teacher);
    const [tokyo, unknown] = [await createStudent(t), await createStudent(t)];
    await Promise.all([joinCourse(t, tokyo, course), joinCourse(t, unknown, course)]);
    const reported = await report(tokyo, 'Asia/Tokyo');
    expect(reported.statusCode).toBe(200);
    // Recording the zone turns nothing on: quiet hours stay off, e-mail too.
    expect(reported.json()).toEqual({
      quietHours: { enabled: false, start: '21:00', end: '07:00', timeZone: 'Asia/Tokyo' },
      email: false,
    });

    const due = new Date(Date.UTC(2031, 0, 15, 14, 30));
    const far = await createAssignment(t, teacher, course, { title: 'Far', dueDate: due.toISOString() });
    // Due in 5 h at 14:30 UTC on the test's day: the reminder runs at once.
    const soonDue = new Date(t.clock.now().getTime() + 5 * HOUR);
    soonDue.setUTCMinutes(30, 0, 0);
    const soon = await createAssignment(t, teacher, course, {
      title: 'Soon',
      dueDate: soonDue.toISOString(),
    });
    await t.app.core.jobs.runDue();
    const bodies = async (who: Actor) => {
      const page = (
        await t.app.inject({ method: 'GET', url: '/api/notifications', headers: who.headers })
      ).json<NotificationPage>();
      const of = (id: string, kind: string) =>
        page.items.find((n) => n.assignmentId === id && n.kind === kind)?.body;
      return [of(far.id, 'assignment_created'), of(soon.id, 'due_soon')];
    };
    const local = (zone: string) =>
      new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        month: 'short',
        day: 'numeric',
        hour: 'numeric',
        minute: '2-digit',
      }).format(soonDue);
    expect(await bodies(tokyo)).toEqual(['Due Jan 15, 11:30 PM', `Due ${local('Asia/Tokyo')}`]);
    expect(await bodies(unknown)).toEqual(['Due Jan 15, 2:30 PM UTC', `Due ${local('UTC')} UTC`]);
  });

  it('follows the browser until the user picks a zone in Settings; saving Settings with the same zone is no pick', async () => {
    const student = await createStudent(t);
    expect((await report(student, 'Asia/Tokyo')).statusCode).toBe(200);
    await saveByHand(student, 'Asia/Tokyo');
    expect((await report(student, 'America/New_York')).statusCode).toBe(200);
    expect(await zoneOf(student)).toBe('America/New_York');

    await saveByHand(student, 'Europe/Paris');
    const kept = await report(student, 'Asia/Tokyo');
    expect(kept.statusCode).toBe(200);
    expect(kept.json<NotificationSettings>().quietHours).toMatchObject({
      enabled: true,
      timeZone: 'Europe/Paris',
    });
    expect(await zoneOf(student)).toBe('Europe/Paris');
  });

  it('refuses a zone that does not exist, or no zone, with a 400 naming timeZone', async () => {
    const student = await createStudent(t);
    for (const timeZone of ['Mars/Base', '', 42, null]) {
      const res = await report(student, timeZone);
      expect(res.statusCode, String(timeZone)).toBe(400);
      expect(res.json().message).toContain('timeZone');
    }
    const none = await t.app.inject({
      method: 'PUT',
      url: '/api/me/time-zone',
      headers: student.headers,
      payload: {},
    });
    expect(none.statusCode).toBe(400);
    expect(await zoneOf(student)).toBe('UTC');
    expect(
      (await t.app.inject({ method: 'PUT', url: '/api/me/time-zone', payload: { timeZone: 'UTC' } }))
        .statusCode,
    ).toBe(401);
  });
});
