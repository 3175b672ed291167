import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import { statementsOf as statementsSent } from '../../test/support/statements.js';
import {
  addCoTeacher,
  createAssignment,
  createClass,
  createTeacher,
  type Actor,
} from '../../test/support/factories.js';

/**
 * A submit and a grade in few round trips (issue 30, DESIGN §22; bench S2 sends a class's worth at
 * the deadline): three statements each inside their transaction — the standing (who may, the
 * archived course, the rows the write starts from, locks), the write (with the draft, the history,
 * the teacher's batch job; or the student's grade-returned entry), and the outbox's events —
 * counted at the driver as PostgreSQL receives them (BEGIN and COMMIT aside). No archive guard's
 * read before them: their standing reads `archived_at` itself. What follows the commit (the
 * teacher's "new submissions" batch, run after the answer) is not the request's and is left out.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const EVENTS = /^(with co as .*)?insert into "events"/s;

/** The statements the request sends, up to its events' insert (after-commit work left out). */
async function statementsOf(
  work: () => Promise<{ statusCode: number; body: string }>,
  status: number,
  guarded = false,
): Promise<string[]> {
  const statements = await statementsSent(
    t,
    status,
    async () => {
      const res = await work();
      await t.app.core.afterCommit.settled();
      return res;
    },
    { guarded },
  );
  // A write with no event (a keyed repeat) has no after-commit work either.
  const events = statements.findIndex((s) => EVENTS.test(s));
  return events < 0 ? statements : statements.slice(0, events + 1);
}

async function setup() {
  const { teacher, course, students } = await createClass(t, 3);
  await addCoTeacher(t, teacher, course, await createTeacher(t, 'Cora CoTeacher'));
  const auto = await createAssignment(t, teacher, course, { title: 'Auto' });
  const manual = await createAssignment(t, teacher, course, { title: 'Manual', gradeRelease: 'manual' });
  // Every writer's request once first: their sessions are then in the session cache.
  for (const who of [teacher, ...students])
    await t.app.inject({ method: 'GET', url: '/api/me', headers: who.headers });
  return { teacher, students: students as [Actor, Actor, Actor], auto, manual };
}

const submitTo = (who: Actor, assignmentId: string, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: `/api/assignments/${assignmentId}/submissions`,
    headers: { ...who.headers, ...headers },
    payload: { content: 'My answer.' },
  });

describe('POST /api/assignments/:id/submissions', () => {
  it('sends three statements: a first submit, a keyed one, and one over a grade for missing work', async () => {
    const { teacher, students, auto } = await setup();
    const [ada, bo, cy] = students;
    // Ada has a draft, which the submit deletes in its write.
    await t.app.inject({
      method: 'PUT',
      url: `/api/assignments/${auto.id}/draft`,
      headers: ada.headers,
      payload: { content: 'Half', baseVersion: 0 },
    });
    // Cy was graded for missing work: the submit fills that row in (and the teachers hear its grade).
    const missing = await t.app.inject({
      method: 'PUT',
      url: `/api/assignments/${auto.id}/grades/${cy.id}`,
      headers: teacher.headers,
      payload: { grade: 0, baseVersion: 0 },
    });
    expect(missing.statusCode, missing.body).toBe(200);
    const key = { 'idempotency-key': '7d3f1a52-3c5e-4a47-9d55-0d8f1f1c2b01' };
    const submits: Array<[string, Actor, Record<string, string>]> = [
      ['a first submit', ada, {}],
      ['a keyed submit', bo, key],
      ['a submit over a grade for missing work', cy, {}],
    ];
    for (const [what, who, headers] of submits) {
      const sent = await statementsOf(() => submitTo(who, auto.id, headers), 201);
      expect({ what, statements: sent.length }).toEqual({ what, statements: 3 });
    }
    // The keyed repeat answers the same submission with 200: fewer still.
    const repeat = await statementsOf(() => submitTo(bo, auto.id, key), 200);
    expect(repeat.length).toBeLessThanOrEqual(2);
    const draft = await t.app.inject({ url: `/api/assignments/${auto.id}/draft`, headers: ada.headers });
    expect(draft.statusCode).toBe(404);
  });
});

describe('PATCH /api/submissions/:id', () => {
  it("sends three statements, with the student's grade-returned entry on 'auto', held on 'manual'", async () => {
    const { teacher, students, auto, manual } = await setup();
    const [ada] = students;
    // Ada keeps quiet hours: her settings decide the entry's alert, read in the standing.
    await t.app.inject({
      method: 'PUT',
      url: '/api/me/notification-settings',
      headers: ada.headers,
      payload: { quietHours: { enabled: true, start: '00:00', end: '23:59', timeZone: 'UTC' }, email: false },
    });
    const onAuto = (await submitTo(ada, auto.id)).json<{ id: string }>();
    const onManual = (await submitTo(ada, manual.id)).json<{ id: string }>();
    await t.app.core.afterCommit.settled();
    const grade = (id: string, grade: number, baseVersion: number) => () =>
      t.app.inject({
        method: 'PATCH',
        url: `/api/submissions/${id}`,
        headers: teacher.headers,
        payload: { grade, baseVersion, feedback: 'Good' },
      });
    const grades: Array<[string, () => Promise<{ statusCode: number; body: string }>]> = [
      ["a grade on 'auto' (a new entry)", grade(onAuto.id, 7, 0)],
      ["a regrade on 'auto' (the entry of the burst)", grade(onAuto.id, 8, 1)],
      ["a grade on 'manual' (held)", grade(onManual.id, 5, 0)],
    ];
    for (const [what, write] of grades) {
      const sent = await statementsOf(write, 200);
      expect({ what, statements: sent.length }).toEqual({ what, statements: 3 });
    }
    const inbox = await t.app.inject({ url: '/api/notifications', headers: ada.headers });
    const entries = (
      inbox.json<{ items: Array<{ kind: string; body: string; alert: boolean }> }>().items ?? []
    ).filter((n) => n.kind === 'grade_returned');
    expect(entries).toEqual([
      expect.objectContaining({ body: expect.stringMatching(/8 points/), alert: false }),
    ]);
  });
});

describe('POST /api/assignments/:id/return', () => {
  it('sends four statements however many grades it returns, each student told in them', async () => {
    const { teacher, students, manual } = await setup();
    const ids: string[] = [];
    for (const who of students) ids.push((await submitTo(who, manual.id)).json<{ id: string }>().id);
    await t.app.core.afterCommit.settled();
    for (const id of ids) {
      const res = await t.app.inject({
        method: 'PATCH',
        url: `/api/submissions/${id}`,
        headers: teacher.headers,
        payload: { grade: 6, baseVersion: 0 },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    // The assignment's standing (the archive guard's read is the route's, before it), the held
    // grades with what each release tells, the release with the entries, the events.
    const sent = await statementsOf(
      () =>
        t.app.inject({
          method: 'POST',
          url: `/api/assignments/${manual.id}/return`,
          headers: teacher.headers,
          payload: {},
        }),
      200,
      true,
    );
    expect(sent).toHaveLength(4);
    for (const who of students) {
      const inbox = await t.app.inject({ url: '/api/notifications', headers: who.headers });
      const kinds = inbox.json<{ items: Array<{ kind: string; body: string }> }>().items.map((n) => n.kind);
      expect(kinds).toContain('grade_returned');
    }
  });
});

describe('PUT /api/assignments/:id/draft', () => {
  it('sends three statements for a first save, a save over it and a stale one', async () => {
    const { students, auto } = await setup();
    const [ada] = students;
    const save = (content: string, baseVersion: number) => () =>
      t.app.inject({
        method: 'PUT',
        url: `/api/assignments/${auto.id}/draft`,
        headers: ada.headers,
        payload: { content, baseVersion },
      });
    expect(await statementsOf(save('First', 0), 200)).toHaveLength(3);
    expect(await statementsOf(save('Second', 1), 200)).toHaveLength(3);
    // Another tab's newer save wins: the standing and the write, no event.
    const stale = await statementsOf(save('Stale', 1), 409);
    expect(stale).toHaveLength(2);
  });
});

describe('a write whose standing reads the archived course itself', () => {
  it('answers 409 course_archived to those who see the course, and their 404 to anyone else', async () => {
    const { teacher, students, auto } = await setup();
    const [ada, bo] = students;
    const sub = (await submitTo(bo, auto.id)).json<{ id: string }>();
    await t.app.core.afterCommit.settled();
    const archived = await t.app.inject({
      method: 'POST',
      url: `/api/courses/${auto.courseId}/archive`,
      headers: teacher.headers,
    });
    expect(archived.statusCode, archived.body).toBeLessThan(300);
    const outsider = (await createClass(t, 1)).students[0] as Actor;
    const writes: Array<[string, Actor, 'POST' | 'PATCH' | 'PUT', string, object, number]> = [
      ['a submit', ada, 'POST', `/api/assignments/${auto.id}/submissions`, { content: 'x' }, 409],
      [
        "the teacher's submit",
        teacher,
        'POST',
        `/api/assignments/${auto.id}/submissions`,
        { content: 'x' },
        409,
      ],
      ['a grade', teacher, 'PATCH', `/api/submissions/${sub.id}`, { grade: 1, baseVersion: 0 }, 409],
      ['a draft', ada, 'PUT', `/api/assignments/${auto.id}/draft`, { content: 'x', baseVersion: 0 }, 409],
      [
        "an outsider's submit",
        outsider,
        'POST',
        `/api/assignments/${auto.id}/submissions`,
        { content: 'x' },
        404,
      ],
      [
        "an outsider's draft",
        outsider,
        'PUT',
        `/api/assignments/${auto.id}/draft`,
        { content: 'x', baseVersion: 0 },
        404,
      ],
    ];
    for (const [what, who, method, url, payload, status] of writes) {
      const res = await t.app.inject({ method, url, headers: who.headers, payload });
      expect({ what, status: res.statusCode }).toEqual({ what, status });
      if (status === 409) expect(res.json().code).toBe('course_archived');
    }
  });
});

describe('PUT /api/assignments/:id/grades/:studentId', () => {
  it('sends three statements over a row, four when the grade for missing work makes it', async () => {
    const { teacher, students, auto } = await setup();
    const [ada, bo] = students;
    await submitTo(ada, auto.id);
    await t.app.core.afterCommit.settled();
    const cell = (who: Actor, grade: number, baseVersion: number) => () =>
      t.app.inject({
        method: 'PUT',
        url: `/api/assignments/${auto.id}/grades/${who.id}`,
        headers: teacher.headers,
        payload: { grade, baseVersion },
      });
    expect(await statementsOf(cell(ada, 9, 0), 200)).toHaveLength(3);
    expect(await statementsOf(cell(ada, 10, 1), 200)).toHaveLength(3);
    // No row yet: the row born graded is one insert more.
    expect(await statementsOf(cell(bo, 0, 0), 200)).toHaveLength(4);
    expect(await statementsOf(cell(bo, 1, 1), 200)).toHaveLength(3);
  });
});
