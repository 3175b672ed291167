import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETURN_UNDO_SECONDS, type AssignmentRubric, type MissedEvents } from '@classwave/shared';
import {
  createAssignment,
  createCourse,
  createStudent,
  createTeacher,
  inDays,
  joinCourse,
  submit,
  type Actor,
} from '../../test/support/factories.js';
import { liveTestApp, type LiveTestApp } from '../../test/support/live-app.js';
import { barrier } from '../../test/support/sockets.js';

/**
 * A held grade reaches the student by no route, event, replay, export, notification or feed until
 * it is returned (DESIGN §13), and by each of those that shows grades once it is. The grade is 17
 * of 23 with a feedback word found nowhere else, matched loosely ("grade":17, "17 points", 17/23),
 * so a new field or wording that carries it is caught too.
 */
const FEEDBACK = 'Kumquat-5e1f: a word found nowhere else';
/**
 * The 17 is given by a rubric (DESIGN §17) whose levels the student may read: what must not leak is
 * the choice, as scores (`"<criterion>":"<level>"`) or as the export spells it (`"level":"Quince-77"`).
 */
let scoreMarks: string[] = [];
const scoresIn = (text: string) => scoreMarks.some((mark) => text.includes(mark));
const leaks = (text: string) =>
  text.includes('Kumquat-5e1f') ||
  scoresIn(text) ||
  /grade\W{0,4}17\b/i.test(text) ||
  /\b17\s*(?:\/\s*23\b|of\s+23\b|points?\b|pts\b)/i.test(text);
const RUBRIC = {
  criteria: [
    {
      title: 'Depth',
      levels: [
        { title: 'Shallow', points: 0 },
        { title: 'Quince-77', points: 17 },
      ],
    },
    {
      title: 'Care',
      levels: [
        { title: 'Nil', points: 0 },
        { title: 'Rest', points: 6 },
      ],
    },
  ],
};

let t: LiveTestApp;
let teacher: Actor;
let ada: Actor;

beforeAll(async () => {
  t = await liveTestApp();
  teacher = await createTeacher(t, 'Hal Holder');
});
afterAll(() => t.close());

const get = async (actor: Actor | null, path: string) => {
  const res = await t.app.inject({ method: 'GET', url: path, ...(actor ? { headers: actor.headers } : {}) });
  expect(res.statusCode, `${path}: ${res.body.slice(0, 200)}`).toBe(200);
  return res.body;
};

/**
 * Grades 17 of 23 on a manual assignment, held, then returned with undo: `given` says how, on a
 * submission of Ada's, or as a grade for missing work (DESIGN §17: no submission at all).
 */
async function heldThenReturned(given: 'submission' | 'missing work') {
  // A student of their own each time: the detector reads everything Ada has, the other run's grade too.
  ada = await createStudent(t, 'Ada Watcher');
  const course = await createCourse(t, teacher);
  await joinCourse(t, ada, course);
  const assignment = await createAssignment(t, teacher, course, {
    title: 'Leak check',
    maxPoints: 23,
    dueDate: inDays(3),
  });
  const manual = await t.app.inject({
    method: 'PATCH',
    url: `/api/assignments/${assignment.id}`,
    headers: teacher.headers,
    payload: { gradeRelease: 'manual' },
  });
  expect(manual.statusCode).toBe(200);
  const written = await t.app.inject({
    method: 'PUT',
    url: `/api/assignments/${assignment.id}/rubric`,
    headers: teacher.headers,
    payload: RUBRIC,
  });
  expect(written.statusCode).toBe(200);
  const [depth, care] = written.json<AssignmentRubric>().rubric!.criteria;
  const rubric = { [depth!.id]: depth!.levels[1]!.id, [care!.id]: care!.levels[0]!.id };
  scoreMarks = [`"${depth!.id}":"${depth!.levels[1]!.id}"`, '"level":"Quince-77"'];
  const feed = await t.app.inject({ method: 'POST', url: '/api/calendar/feed', headers: ada.headers });
  const ics = new URL(feed.json<{ url: string }>().url).pathname;
  const cursor = JSON.parse(await get(ada, '/api/events')).lastId as number;
  const adaLive = await t.tab(ada);
  const teacherLive = await t.tab(teacher);

  const payload = { grade: 17, feedback: FEEDBACK, rubric, baseVersion: 0 };
  const graded =
    given === 'submission'
      ? await t.app.inject({
          method: 'PATCH',
          url: `/api/submissions/${(await submit(t, ada, assignment)).id}`,
          headers: teacher.headers,
          payload,
        })
      : await t.app.inject({
          method: 'PUT',
          url: `/api/assignments/${assignment.id}/grades/${ada.id}`,
          headers: teacher.headers,
          payload,
        });
  expect(graded.statusCode).toBe(200);
  await teacherLive.waitFor((e) => e.type === 'submission:graded' && leaks(JSON.stringify(e.data)));

  // Every read a student has, the calendar feed (no sign-in: its token is the secret) included.
  // With no submission, the read-back of one is a 404 (checked for leaks below all the same).
  const ownWork = `/api/assignments/${assignment.id}/submission`;
  const reads: Array<[Actor | null, string]> = [
    [ada, '/api/assignments'],
    [ada, `/api/courses/${course.id}`],
    // The rubric itself is the student's to read before submitting; the levels chosen are not.
    [ada, `/api/assignments/${assignment.id}/rubric`],
    ...(given === 'submission' ? ([[ada, ownWork]] as Array<[Actor, string]>) : []),
    [ada, '/api/dashboard'],
    [ada, '/api/grades'],
    [ada, '/api/me/export'],
    [ada, `/api/events?after=${cursor}`],
    [ada, '/api/notifications'],
    [ada, '/api/todo'],
    [ada, `/api/calendar?from=${encodeURIComponent(inDays(-1))}&to=${encodeURIComponent(inDays(30))}`],
    [null, ics],
  ];
  const readsThatLeak = async () => {
    const found: string[] = [];
    for (const [actor, path] of reads) if (leaks(await get(actor, path))) found.push(path);
    if (given === 'missing work') {
      const none = await t.app.inject({ method: 'GET', url: ownWork, headers: ada.headers });
      expect(none.statusCode).toBe(404);
      if (leaks(none.body)) found.push(ownWork);
    }
    return found;
  };
  /** What a tab reconnecting from `cursor` is sent (events:missed). */
  const catchUp = async () => {
    const reconnected = await t.tab(ada, cursor);
    const missed: MissedEvents = reconnected.missed[0]!;
    reconnected.close();
    expect(missed.resync).toBe(false);
    // Ada's own submission is in it; with none, a held grade leaves her nothing to replay at all.
    if (given === 'submission') expect(missed.events.length).toBeGreaterThan(0);
    return JSON.stringify(missed);
  };
  const checkNothingLeaks = async () => {
    await barrier(adaLive, teacherLive);
    expect(await readsThatLeak()).toEqual([]);
    expect(adaLive.heard.filter((h) => leaks(JSON.stringify(h.args))).map((h) => h.name)).toEqual([]);
    expect(leaks(await catchUp())).toBe(false);
  };
  await checkNothingLeaks();

  // Return with undo: nothing either while the window is open (the clock stands still to its last ms).
  t.clock.freezeAt(t.clock.now());
  const scheduled = await t.app.inject({
    method: 'POST',
    url: `/api/assignments/${assignment.id}/return`,
    headers: teacher.headers,
    payload: { undoable: true },
  });
  expect(scheduled.statusCode).toBe(202);
  t.clock.advance(RETURN_UNDO_SECONDS * 1000 - 1);
  await t.app.core.jobs.runDue();
  await checkNothingLeaks();

  t.clock.advance(1);
  await t.app.core.jobs.runDue();
  await adaLive.waitFor((e) => e.type === 'submission:graded' && leaks(JSON.stringify(e.data)));
  // The detector finds it wherever grades are shown; the dashboard, to-do, calendar and feed show none.
  expect(await readsThatLeak()).toEqual([
    '/api/assignments',
    `/api/courses/${course.id}`,
    ...(given === 'submission' ? [ownWork] : []),
    '/api/grades',
    '/api/me/export',
    `/api/events?after=${cursor}`,
    '/api/notifications',
  ]);
  expect(await get(ada, '/api/notifications')).toContain('· 17 points');
  // The scores themselves went out with the grade: in the student's own view and the export.
  if (given === 'submission') expect(scoresIn(await get(ada, ownWork))).toBe(true);
  expect(scoresIn(await get(ada, '/api/me/export'))).toBe(true);
  expect(leaks(await catchUp())).toBe(true);
}

describe('a held grade (17 of 23)', () => {
  it('reaches the student by nothing until returned, then by every route, event and replay that shows grades', () =>
    heldThenReturned('submission'));

  it('given for missing work (no submission), reaches the student by nothing until returned, then as any grade', () =>
    heldThenReturned('missing work'));
});
