import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Assignment } from '@classwave/shared';
import { bearer, signIn } from '../../test/support/app.js';
import { writePrivately } from '../../test/support/conversations.js';
import {
  createAssignment,
  createCourse,
  createStudent,
  createTeacher,
  joinCourse,
  type Actor,
} from '../../test/support/factories.js';
import { liveTestApp, type LiveTestApp } from '../../test/support/live-app.js';
import { barrier, type Recorder } from '../../test/support/sockets.js';

/**
 * What an assignment a student is not given lets out to them (DESIGN §20): nothing, by any REST
 * route, live event, replay (HTTP or socket), to-do, calendar, ICS feed, notification, e-mail or
 * export; the same for every student before a scheduled assignment is published; and no student
 * ever sees another's extension. The titles and the extension's date are marks found nowhere
 * else, so any new field or route that carries them is caught.
 */
const ONLY_ADA = 'Zanzibar-7f3e';
const SCHEDULED = 'Quetzal-19bd';
const HOUR = 3600_000;

let t: LiveTestApp;
beforeAll(async () => {
  t = await liveTestApp();
});
afterAll(() => t.close());
const body = async (who: Actor, path: string) =>
  (await t.app.inject({ method: 'GET', url: path, headers: who.headers })).body;
/** The ICS feed's text for `who` (made on first use). */
const feed = async (who: Actor) => {
  const made = await t.app.inject({ method: 'POST', url: '/api/calendar/feed', headers: who.headers });
  const path = new URL(made.json<{ url: string }>().url).pathname;
  return (await t.app.inject({ method: 'GET', url: path })).body;
};
/** 2026-11-30T10:15:47.321Z as an ICS date-time: 20261130T101547Z. */
const icsForm = (iso: string) => iso.replace(/[-:]/g, '').replace(/\.\d{3}/, '');

describe('what an assignment lets out to students it is not for', () => {
  it('shows nothing of it to them, of a scheduled one to anybody, nor of anyone else’s extension', async () => {
    const teacher = await createTeacher(t, 'Tess Teacher');
    const [ada, ben, stranger, other] = await Promise.all([
      createStudent(t, 'Ada Assigned'),
      createStudent(t, 'Ben Bystander'),
      createStudent(t, 'Sid Stranger'),
      createTeacher(t, 'Otto Other'),
    ]);
    const course = await createCourse(t, teacher);
    await Promise.all([ada, ben].map((s) => joinCourse(t, s, course)));
    await joinCourse(t, stranger, await createCourse(t, other));
    for (const who of [ada, ben, stranger, teacher])
      await t.app.inject({
        method: 'PUT',
        url: '/api/me/notification-settings',
        headers: who.headers,
        payload: {
          quietHours: { enabled: false, start: '21:00', end: '07:00', timeZone: 'UTC' },
          email: true,
        },
      });
    const start = (await t.app.inject({ method: 'GET', url: '/api/events', headers: ben.headers })).json<{
      lastId: number;
    }>().lastId;
    const tabs = new Map<Actor, Recorder>();
    for (const who of [ada, ben, stranger, teacher]) tabs.set(who, await t.tab(who));

    const soon = new Date(t.clock.now().getTime() + 20 * HOUR).toISOString();
    const create = async (payload: Record<string, unknown>) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/assignments',
        headers: teacher.headers,
        payload: { courseId: course.id, dueDate: soon, ...payload },
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<Assignment>();
    };
    // For Ada only; edited, an excuse tried for Ben (refused: not his, so nothing of it may reach
    // him), a thread.
    const onlyAda = await create({ title: ONLY_ADA, assignees: [ada.id] });
    await t.app.inject({
      method: 'PATCH',
      url: `/api/assignments/${onlyAda.id}`,
      headers: teacher.headers,
      payload: { description: `${ONLY_ADA} again` },
    });
    const excused = await t.app.inject({
      method: 'POST',
      url: `/api/assignments/${onlyAda.id}/excuse`,
      headers: teacher.headers,
      payload: { studentId: ben.id, excused: true },
    });
    expect(excused.statusCode).toBe(422);
    await writePrivately(t, ada, onlyAda.id, ada.id, 'A question');
    // Scheduled for the whole class in two hours, and edited meanwhile.
    const later = new Date(t.clock.now().getTime() + 2 * HOUR).toISOString();
    const scheduled = await create({ title: SCHEDULED, publishAt: later });
    await t.app.inject({
      method: 'PATCH',
      url: `/api/assignments/${scheduled.id}`,
      headers: teacher.headers,
      payload: { description: `${SCHEDULED} soon` },
    });
    // For everyone, with Ada's own due date: an odd instant no other row has.
    const common = await createAssignment(t, teacher, course, { title: 'Common', dueDate: soon });
    const extension = new Date(t.clock.now().getTime() + 50 * HOUR + 47_321).toISOString();
    const extended = await t.app.inject({
      method: 'PUT',
      url: `/api/assignments/${common.id}/extensions/${ada.id}`,
      headers: teacher.headers,
      payload: { dueDate: extension },
    });
    expect(extended.statusCode).toBe(200);
    // Inbox rows, reminders (both are due within 24 h), e-mails.
    await t.app.core.jobs.runDue();
    t.clock.advance(20 * 60_000);
    await t.app.core.jobs.runDue();
    await barrier(...tabs.values());
    for (const who of [ada, ben, stranger, teacher]) {
      const { accessToken } = await signIn(t, who.email);
      Object.assign(who, { token: accessToken, headers: bearer(accessToken) });
    }
    const range = `from=${encodeURIComponent(new Date(t.clock.now().getTime() - 24 * HOUR).toISOString())}&to=${encodeURIComponent(new Date(t.clock.now().getTime() + 300 * HOUR).toISOString())}`;

    /** Everything a person can get at: every route that could carry it, a fresh socket's replay, their mail. */
    const everything = async (who: Actor) => {
      const replayTab = await t.tab(who, start);
      const parts = await Promise.all([
        body(who, '/api/assignments'),
        body(who, `/api/courses/${course.id}`),
        ...[onlyAda, scheduled].flatMap((a) => [
          body(who, `/api/assignments/${a.id}/submission`),
          body(who, `/api/assignments/${a.id}/draft`),
          body(who, `/api/assignments/${a.id}/files`),
          body(who, `/api/assignments/${a.id}/rubric`),
          body(who, `/api/assignments/${a.id}/threads`),
          body(who, `/api/assignments/${a.id}/threads/${who.id}`),
        ]),
        body(who, '/api/todo'),
        body(who, `/api/calendar?${range}`),
        feed(who),
        body(who, '/api/dashboard'),
        body(who, '/api/grades'),
        body(who, '/api/notifications'),
        body(who, `/api/events?after=${start}`),
        body(who, '/api/me/export'),
      ]);
      const mail = t.mail.mails.filter((m) => m.to.toLowerCase() === who.email.toLowerCase());
      return {
        later: [...parts, JSON.stringify(replayTab.missed), JSON.stringify(mail)].join('\n'),
        live: JSON.stringify(tabs.get(who)!.heard),
      };
    };
    const marks = (text: string) => ({
      onlyAda: text.includes(ONLY_ADA) || text.includes(onlyAda.id),
      scheduled: text.includes(SCHEDULED) || text.includes(scheduled.id),
      extension: text.includes(extension) || text.includes(icsForm(extension)),
    });

    for (const who of [ben, stranger]) {
      const seen = await everything(who);
      expect({ who: who.fullName, later: marks(seen.later), live: marks(seen.live) }).toEqual({
        who: who.fullName,
        later: { onlyAda: false, scheduled: false, extension: false },
        live: { onlyAda: false, scheduled: false, extension: false },
      });
    }
    // Ada sees hers and her extension (so the test can tell a leak from nothing said at all), and
    // nothing of the scheduled one yet.
    const adas = await everything(ada);
    expect({ later: marks(adas.later), live: marks(adas.live) }).toEqual({
      later: { onlyAda: true, scheduled: false, extension: true },
      live: { onlyAda: true, scheduled: false, extension: true },
    });
    const teachers = await everything(teacher);
    expect(marks(teachers.later)).toEqual({ onlyAda: true, scheduled: true, extension: true });

    // Published: now the whole class has it, Ben included; Ada's assignment and extension still not.
    t.clock.advance(2 * HOUR);
    await t.app.core.jobs.runDue();
    await barrier(...tabs.values());
    for (const who of [ada, ben]) {
      const { accessToken } = await signIn(t, who.email);
      Object.assign(who, { token: accessToken, headers: bearer(accessToken) });
    }
    const bens = await everything(ben);
    expect({ later: marks(bens.later), live: marks(bens.live) }).toEqual({
      later: { onlyAda: false, scheduled: true, extension: false },
      live: { onlyAda: false, scheduled: true, extension: false },
    });
  });
});
