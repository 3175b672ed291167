import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ErrorCode,
  RETURN_UNDO_SECONDS,
  type Assignment,
  type Gradebook,
  type LiveEvent,
  type ScheduledReturn,
  type Submission,
} from '@classwave/shared';
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
import { liveTestApp, type LiveTestApp } from '../../test/support/live-app.js';
import { barrier, connect, listen, type Recorder } from '../../test/support/sockets.js';

/**
 * How held grades leave (DESIGN §13): a Return whose undo window is kept on the server (a job that
 * runs once, in one process, after a restart too, and that Undo cancels), and switching an
 * assignment from "when I return them" to "automatically".
 */
let t: LiveTestApp;
/** The people of `t`; an app over a database of its own gets its own (peopleOf). */
let main: People;

interface People {
  teacher: Actor;
  ada: Actor;
  ben: Actor;
}
const peopleOf = async (app: TestApp): Promise<People> => ({
  teacher: await createTeacher(app, 'Rita Returner'),
  ada: await createStudent(app, 'Ada Held'),
  ben: await createStudent(app, 'Ben Held'),
});

beforeAll(async () => {
  t = await liveTestApp();
  main = await peopleOf(t);
});
afterAll(() => t.close());

const WINDOW_MS = RETURN_UNDO_SECONDS * 1000;
const inject = (
  app: TestApp,
  actor: Actor,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  payload?: object,
) => app.app.inject({ method, url: path, headers: actor.headers, ...(payload ? { payload } : {}) });
const gradedFor = (id: string) => (e: LiveEvent) =>
  e.type === 'submission:graded' && (e.data as Submission).id === id;

/** A manual-release assignment of 23 points in a course with Ada and Ben; Ada's answer graded 17 (held). */
async function heldGrade(app: TestApp = t, { teacher, ada, ben }: People = main) {
  const course = await createCourse(app, teacher);
  await Promise.all([joinCourse(app, ada, course), joinCourse(app, ben, course)]);
  const created = await createAssignment(app, teacher, course, { maxPoints: 23 });
  const manual = await inject(app, teacher, 'PATCH', `/api/assignments/${created.id}`, {
    gradeRelease: 'manual',
  });
  expect(manual.statusCode).toBe(200);
  const own = await submit(app, ada, created);
  const graded = await inject(app, teacher, 'PATCH', `/api/submissions/${own.id}`, {
    grade: 17,
    feedback: 'Held back for now',
    baseVersion: 0,
  });
  expect(graded.json<Submission>()).toMatchObject({ grade: 17, returnedAt: null });
  return { course, assignment: manual.json<Assignment>(), own };
}

/** What Ada's own assignment list says of it. */
async function adasView(assignmentId: string, app: TestApp = t, ada: Actor = main.ada) {
  const list = (await inject(app, ada, 'GET', '/api/assignments')).json<Assignment[]>();
  return list.find((a) => a.id === assignmentId)!;
}
/** How many times Ada's replay holds the grade of `submissionId` (once returned: exactly one). */
async function gradedEventsFor(submissionId: string, app: TestApp = t, ada: Actor = main.ada) {
  const replay = (await inject(app, ada, 'GET', '/api/events?after=0')).json<{ events: LiveEvent[] }>();
  return replay.events.filter(gradedFor(submissionId)).length;
}

describe('switching an assignment from manual to automatic release', () => {
  it('returns the held grades in the same edit, with the live event and notification a Return makes', async () => {
    const { course, assignment, own } = await heldGrade();
    const [adaLive, teacherLive] = [await t.tab(main.ada), await t.tab(main.teacher)];
    const res = await inject(t, main.teacher, 'PATCH', `/api/assignments/${assignment.id}`, {
      gradeRelease: 'auto',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<Assignment>()).toMatchObject({ gradeRelease: 'auto', needsGrading: 0 });

    const heard = await adaLive.waitFor(gradedFor(own.id));
    expect(heard.data).toMatchObject({ grade: 17, feedback: 'Held back for now' });
    expect((heard.data as Submission).returnedAt).not.toBeNull();
    await teacherLive.waitFor((e) => gradedFor(own.id)(e) && (e.data as Submission).returnedAt !== null);
    expect(await adasView(assignment.id)).toMatchObject({ status: 'returned', submission: { grade: 17 } });
    const inbox = (await inject(t, main.ada, 'GET', '/api/notifications')).json<{
      items: Array<{ kind: string; assignmentId: string; body: string }>;
    }>();
    expect(
      inbox.items.filter((n) => n.assignmentId === assignment.id && n.kind === 'grade_returned'),
    ).toEqual([expect.objectContaining({ body: expect.stringContaining('17 points') })]);
    const book = (
      await inject(t, main.teacher, 'GET', `/api/courses/${course.id}/gradebook`)
    ).json<Gradebook>();
    expect(book.cells.find((c) => c.submissionId === own.id)?.status).toBe('returned');
  });

  it('returns nothing when the same edit is refused (it is one transaction)', async () => {
    const { assignment } = await heldGrade();
    const res = await inject(t, main.teacher, 'PATCH', `/api/assignments/${assignment.id}`, {
      gradeRelease: 'auto',
      maxPoints: 10,
    });
    expect(res.statusCode).toBe(409);
    expect(await adasView(assignment.id)).toMatchObject({ status: 'submitted', submission: { grade: null } });
  });
});

describe('a Return with an undo window, on the server', () => {
  it('sends nothing during the window, then exactly the grades held when Return was pressed', async () => {
    const { course, assignment, own } = await heldGrade();
    const adaLive = await t.tab(main.ada);
    const before = t.clock.now().getTime();
    const res = await inject(t, main.teacher, 'POST', `/api/assignments/${assignment.id}/return`, {
      undoable: true,
    });
    expect(res.statusCode, res.body).toBe(202);
    const scheduled = res.json<ScheduledReturn>();
    expect(scheduled).toMatchObject({ assignmentId: assignment.id, submissionIds: [own.id] });
    expect(new Date(scheduled.runAt).getTime() - before).toBeGreaterThanOrEqual(WINDOW_MS);

    // Ben's answer is graded during the window: "Return all" meant the grades held when it was pressed.
    const bens = await submit(t, main.ben, assignment);
    await inject(t, main.teacher, 'PATCH', `/api/submissions/${bens.id}`, { grade: 11, baseVersion: 0 });
    t.clock.advance(WINDOW_MS - 1000);
    await t.app.core.jobs.runDue();
    await barrier(adaLive);
    expect(adaLive.events.filter(gradedFor(own.id))).toEqual([]);
    expect((await adasView(assignment.id)).submission?.grade).toBeNull();

    t.clock.advance(1000);
    await t.app.core.jobs.runDue();
    expect((await adaLive.waitFor(gradedFor(own.id))).data).toMatchObject({ grade: 17 });
    expect(await adasView(assignment.id)).toMatchObject({ status: 'returned', submission: { grade: 17 } });
    const book = (
      await inject(t, main.teacher, 'GET', `/api/courses/${course.id}/gradebook`)
    ).json<Gradebook>();
    expect(book.cells.find((c) => c.submissionId === bens.id)).toMatchObject({ grade: 11, status: 'graded' });

    const late = await inject(t, main.teacher, 'DELETE', `/api/returns/${scheduled.id}`);
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ code: ErrorCode.returnAlreadySent });
  });

  it('is cancelled by Undo: nothing is ever sent, and a second Undo is no error', async () => {
    const { assignment, own } = await heldGrade();
    const adaLive = await t.tab(main.ada);
    const scheduled = (
      await inject(t, main.teacher, 'POST', `/api/assignments/${assignment.id}/return`, { undoable: true })
    ).json<ScheduledReturn>();
    expect((await inject(t, main.teacher, 'DELETE', `/api/returns/${scheduled.id}`)).statusCode).toBe(204);
    expect((await inject(t, main.teacher, 'DELETE', `/api/returns/${scheduled.id}`)).statusCode).toBe(204);
    t.clock.advance(WINDOW_MS * 2);
    await t.app.core.jobs.runDue();
    await barrier(adaLive);
    expect(adaLive.events.filter(gradedFor(own.id))).toEqual([]);
    expect(await adasView(assignment.id)).toMatchObject({ status: 'submitted', submission: { grade: null } });
    expect(await gradedEventsFor(own.id)).toBe(0);
  });

  it('schedules nothing when no grade is held, and refuses bad input with a 4xx naming it', async () => {
    const { assignment } = await heldGrade();
    await inject(t, main.teacher, 'POST', `/api/assignments/${assignment.id}/return`, {});
    const none = await inject(t, main.teacher, 'POST', `/api/assignments/${assignment.id}/return`, {
      undoable: true,
    });
    expect(none.statusCode).toBe(200);
    expect(none.json()).toEqual({ returned: 0 });
    const bad = await inject(t, main.teacher, 'POST', `/api/assignments/${assignment.id}/return`, {
      undoable: 'yes',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('undoable');
    expect((await inject(t, main.teacher, 'DELETE', '/api/returns/not-a-return')).statusCode).toBe(400);
    const unknown = await inject(
      t,
      main.teacher,
      'DELETE',
      '/api/returns/00000000-0000-4000-8000-000000000000',
    );
    expect(unknown.statusCode).toBe(404);
  });
});

describe('a scheduled Return across processes', () => {
  it('survives the process that scheduled it and goes out once when two others run their jobs', async () => {
    const database = await openTestDatabase();
    const [first, second, third] = [
      await createTestApp({ database }),
      await createTestApp({ database }),
      await createTestApp({ database }),
    ];
    try {
      const people = await peopleOf(first);
      const { assignment, own } = await heldGrade(first, people);
      const res = await inject(first, people.teacher, 'POST', `/api/assignments/${assignment.id}/return`, {
        undoable: true,
      });
      expect(res.statusCode).toBe(202);
      // The process that scheduled it stops (a deploy, a crash) before the window ends.
      await first.close();
      for (const app of [second, third]) app.clock.advance(WINDOW_MS);
      await Promise.all([second.app.core.jobs.runDue(), third.app.core.jobs.runDue()]);
      expect(await adasView(assignment.id, second, people.ada)).toMatchObject({
        status: 'returned',
        submission: { grade: 17 },
      });
      expect(await gradedEventsFor(own.id, third, people.ada)).toBe(1);
      const inbox = (await inject(third, people.ada, 'GET', '/api/notifications')).json<{
        items: Array<{ kind: string; assignmentId: string }>;
      }>();
      const returned = inbox.items.filter(
        (n) => n.assignmentId === assignment.id && n.kind === 'grade_returned',
      );
      expect(returned).toHaveLength(1);
    } finally {
      await Promise.all([second.close(), third.close()]);
      await database.dispose();
    }
  });

  it('waits RETURN_UNDO_SECONDS when a test sets it (the end-to-end suite does), then goes out', async () => {
    const short = await createTestApp({ env: { RETURN_UNDO_SECONDS: '3' } });
    try {
      const people = await peopleOf(short);
      const { assignment, own } = await heldGrade(short, people);
      short.clock.freezeAt(new Date());
      const before = short.clock.now().getTime();
      const res = await inject(short, people.teacher, 'POST', `/api/assignments/${assignment.id}/return`, {
        undoable: true,
      });
      expect(res.statusCode, res.body).toBe(202);
      expect(new Date(res.json<ScheduledReturn>().runAt).getTime() - before).toBe(3000);
      short.clock.advance(2999);
      await short.app.core.jobs.runDue();
      expect((await adasView(assignment.id, short, people.ada)).submission?.grade).toBeNull();
      short.clock.advance(1);
      await short.app.core.jobs.runDue();
      expect(await adasView(assignment.id, short, people.ada)).toMatchObject({
        status: 'returned',
        submission: { id: own.id, grade: 17 },
      });
    } finally {
      await short.close();
    }
  });

  it('goes out at the end of the window without waiting for a poll of the jobs table', async () => {
    // Polling every 10 minutes: only the process's own wake-up can send it within the test.
    const quick = await createTestApp({ returnUndoMs: 300, env: { JOB_POLL_MS: '600000' } });
    const quickUrl = await listen(quick.app);
    const students: Recorder[] = [];
    try {
      const people = await peopleOf(quick);
      const { assignment, own } = await heldGrade(quick, people);
      const adaLive = await connect(quickUrl, people.ada.token);
      students.push(adaLive);
      const started = Date.now();
      const res = await inject(quick, people.teacher, 'POST', `/api/assignments/${assignment.id}/return`, {
        undoable: true,
      });
      expect(res.statusCode).toBe(202);
      await adaLive.waitFor(gradedFor(own.id), 5000);
      expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    } finally {
      students.forEach((r) => r.close());
      await quick.close();
    }
  });
});
