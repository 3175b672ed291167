import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ErrorCode,
  type Assignment,
  type Course,
  type Gradebook,
  type GradeConflictBody,
  type LiveEvent,
  type OwnSubmission,
  type StudentCourseGrades,
  type Submission,
} from '@classwave/shared';
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
import { barrier } from '../../test/support/sockets.js';

/**
 * Grading teachers can trust (DESIGN §13), through the real app on a real database: versioned
 * grades, held grades that reach a student by no route, event, replay or export until returned,
 * edits, excusals, the gradebook and its CSV, a student's own grades.
 */
let t: LiveTestApp;
let teacher: Actor;
let ada: Actor;
let ben: Actor;

beforeAll(async () => {
  t = await liveTestApp();
  [teacher, ada, ben] = await Promise.all([
    createTeacher(t, 'Grace Grader'),
    createStudent(t, 'Ada Student'),
    createStudent(t, 'Ben Student'),
  ]);
});
afterAll(() => t.close());

const as = (actor: Actor) => ({ headers: actor.headers });
const get = (actor: Actor, path: string) => t.app.inject({ method: 'GET', url: path, ...as(actor) });
const send = (actor: Actor, method: 'POST' | 'PATCH', path: string, payload: object) =>
  t.app.inject({ method, url: path, payload, ...as(actor) });
const grade = (submissionId: string, body: object, who = teacher) =>
  send(who, 'PATCH', `/api/submissions/${submissionId}`, body);

/** A course of the teacher's with Ada and Ben as members, and one assignment. */
async function setUp(assignment: Partial<{ maxPoints: number; title: string }> = {}, release = 'auto') {
  const course = await createCourse(t, teacher);
  await Promise.all([joinCourse(t, ada, course), joinCourse(t, ben, course)]);
  const created = await createAssignment(t, teacher, course, { maxPoints: 20, ...assignment });
  if (release === 'manual') {
    const res = await send(teacher, 'PATCH', `/api/assignments/${created.id}`, { gradeRelease: 'manual' });
    expect(res.statusCode).toBe(200);
    return { course, assignment: res.json<Assignment>() };
  }
  return { course, assignment: created };
}

describe('a held grade (release: manual)', () => {
  const SECRET_FEEDBACK = 'Held feedback 7f3a: not for the student yet';

  it('reaches the student by no route, event, replay or export until returned, then live', async () => {
    const { course, assignment } = await setUp({}, 'manual');
    expect(assignment.gradeRelease).toBe('manual');
    const adaLive = await t.tab(ada);
    const teacherLive = await t.tab(teacher);
    const own = await submit(t, ada, assignment);
    const before = (await get(ada, '/api/events')).json<{ lastId: number }>().lastId;

    const graded = await grade(own.id, { grade: 17, feedback: SECRET_FEEDBACK, baseVersion: 0 });
    expect(graded.statusCode).toBe(200);
    expect(graded.json<Submission>()).toMatchObject({ grade: 17, version: 1, returnedAt: null });
    await teacherLive.waitFor((e) => e.type === 'submission:graded' && (e.data as Submission).id === own.id);
    await barrier(adaLive, teacherLive);

    const leaks = (body: string) => body.includes(SECRET_FEEDBACK) || /"grade":17/.test(body);
    const studentReads = [
      '/api/assignments',
      `/api/courses/${course.id}`,
      '/api/dashboard',
      '/api/grades',
      '/api/me/export',
      `/api/events?after=${before}`,
    ];
    for (const path of studentReads) {
      const res = await get(ada, path);
      expect(res.statusCode, path).toBe(200);
      expect(leaks(res.body), path).toBe(false);
    }
    expect(adaLive.events.filter((e) => e.type === 'submission:graded')).toEqual([]);
    expect(adaLive.heard.some((h) => leaks(JSON.stringify(h.args)))).toBe(false);
    const mine = (await get(ada, '/api/assignments'))
      .json<Assignment[]>()
      .find((a) => a.id === assignment.id)!;
    expect(mine.status).toBe('submitted');
    expect(mine.submission).toMatchObject({ grade: null, feedback: null, gradedAt: null, returnedAt: null });
    // The teacher sees it held.
    const cell = (await get(teacher, `/api/courses/${course.id}/gradebook`))
      .json<Gradebook>()
      .cells.find((c) => c.submissionId === own.id);
    expect(cell).toMatchObject({ grade: 17, status: 'graded', returnedAt: null, version: 1 });

    const returned = await send(teacher, 'POST', `/api/assignments/${assignment.id}/return`, {});
    expect(returned.json()).toEqual({ returned: 1 });
    const event = await adaLive.waitFor(
      (e) => e.type === 'submission:graded' && (e.data as Submission).id === own.id,
    );
    expect(event.data).toMatchObject({ grade: 17, feedback: SECRET_FEEDBACK });
    expect((event.data as Submission).returnedAt).not.toBeNull();
    const after = (await get(ada, '/api/assignments'))
      .json<Assignment[]>()
      .find((a) => a.id === assignment.id)!;
    expect(after.status).toBe('returned');
    expect(after.submission).toMatchObject({ grade: 17, feedback: SECRET_FEEDBACK });
    const exported = (await get(ada, '/api/me/export')).json<{
      submissions: Array<{ id: string; grade: number }>;
    }>();
    expect(exported.submissions.find((s) => s.id === own.id)?.grade).toBe(17);
    // Nothing is left to return.
    expect((await send(teacher, 'POST', `/api/assignments/${assignment.id}/return`, {})).json()).toEqual({
      returned: 0,
    });
  });

  // Issue 25 (item 6): a regrade of a returned grade used to reach the student at once on 'manual'.
  it('a regrade after return is held again: the student keeps the returned grade until the next Return', async () => {
    const { assignment } = await setUp({}, 'manual');
    const own = await submit(t, ada, assignment);
    await grade(own.id, { grade: 10, baseVersion: 0 });
    await send(teacher, 'POST', `/api/assignments/${assignment.id}/return`, {});
    const adaLive = await t.tab(ada);
    const regraded = await grade(own.id, { grade: 12, baseVersion: 1 });
    expect(regraded.json<Submission>()).toMatchObject({ grade: 12, version: 2, held: true });
    expect(regraded.json<Submission>().returnedAt).not.toBeNull();
    const item = async () =>
      (await get(ada, '/api/grades'))
        .json<StudentCourseGrades[]>()
        .flatMap((g) => g.items)
        .find((i) => i.assignmentId === assignment.id);
    expect(await item()).toMatchObject({ grade: 10, status: 'returned' });
    await send(teacher, 'POST', `/api/assignments/${assignment.id}/return`, {});
    await adaLive.waitFor(
      (e) =>
        e.type === 'submission:graded' &&
        (e.data as Submission).id === own.id &&
        (e.data as Submission).grade === 12,
    );
    expect(adaLive.events.filter((e) => e.type === 'submission:graded')).toHaveLength(1);
    expect(await item()).toMatchObject({ grade: 12, status: 'returned' });
  });

  it('takes a Return without a body as "return all"', async () => {
    const { assignment } = await setUp({}, 'manual');
    await grade((await submit(t, ada, assignment)).id, { grade: 4, baseVersion: 0 });
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/assignments/${assignment.id}/return`,
      headers: teacher.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ returned: 1 });
  });

  it('returns only the submissions named', async () => {
    const { assignment } = await setUp({}, 'manual');
    const [a, b] = [await submit(t, ada, assignment), await submit(t, ben, assignment)];
    await grade(a.id, { grade: 5, baseVersion: 0 });
    await grade(b.id, { grade: 6, baseVersion: 0 });
    const res = await send(teacher, 'POST', `/api/assignments/${assignment.id}/return`, {
      submissionIds: [a.id],
    });
    expect(res.json()).toEqual({ returned: 1 });
    const grades = (await get(ben, '/api/grades')).json<StudentCourseGrades[]>();
    const item = grades.flatMap((g) => g.items).find((i) => i.assignmentId === assignment.id);
    expect(item).toMatchObject({ grade: null, feedback: null, status: 'submitted' });
    const adaItem = (await get(ada, '/api/grades'))
      .json<StudentCourseGrades[]>()
      .flatMap((g) => g.items)
      .find((i) => i.assignmentId === assignment.id);
    expect(adaItem).toMatchObject({ grade: 5, status: 'returned' });
  });

  it('with release auto, a grade is returned when given and the student hears it', async () => {
    const { assignment } = await setUp();
    const adaLive = await t.tab(ada);
    const own = await submit(t, ada, assignment);
    const res = await grade(own.id, { grade: 9, baseVersion: 0 });
    expect(res.json<Submission>().returnedAt).not.toBeNull();
    expect(res.json<Submission>().gradedBy).toEqual({ id: teacher.id, fullName: 'Grace Grader' });
    await adaLive.waitFor((e) => e.type === 'submission:graded' && (e.data as Submission).id === own.id);
  });
});

describe('two graders on one submission', () => {
  it('with the same base version: one 200, one 409 grade_conflict with the current grade, nothing overwritten', async () => {
    const { assignment } = await setUp();
    const own = await submit(t, ada, assignment);
    const [first, second] = await Promise.all([
      grade(own.id, { grade: 11, feedback: 'From tab one', baseVersion: 0 }),
      grade(own.id, { grade: 14, feedback: 'From tab two', baseVersion: 0 }),
    ]);
    const statuses = [first.statusCode, second.statusCode].sort();
    expect(statuses).toEqual([200, 409]);
    const [won, lost] = first.statusCode === 200 ? [first, second] : [second, first];
    const conflict = lost.json<GradeConflictBody>();
    expect(conflict.code).toBe(ErrorCode.gradeConflict);
    expect(conflict.current).toMatchObject({
      grade: won.json<Submission>().grade,
      feedback: won.json<Submission>().feedback,
      version: 1,
      gradedBy: { id: teacher.id, fullName: 'Grace Grader' },
    });
    const stored = (await get(teacher, `/api/assignments/${assignment.id}/submissions`)).json<
      Submission[]
    >()[0]!;
    expect(stored).toMatchObject({ grade: won.json<Submission>().grade, version: 1 });
    // Overwriting on purpose: from the version the conflict named.
    const overwrite = await grade(own.id, {
      grade: lost === first ? 11 : 14,
      baseVersion: conflict.current.version,
    });
    expect(overwrite.statusCode).toBe(200);
    expect(overwrite.json<Submission>().version).toBe(2);
  });

  it('refuses a version from the future and a grade over max points as before', async () => {
    const { assignment } = await setUp();
    const own = await submit(t, ada, assignment);
    expect((await grade(own.id, { grade: 3, baseVersion: 5 })).statusCode).toBe(409);
    const over = await grade(own.id, { grade: 21, baseVersion: 0 });
    expect(over.statusCode).toBe(400);
    expect(over.json().message).toContain('at most 20');
  });

  it('keeps the feedback when a write leaves it out (a gradebook cell), clears it on null or blank', async () => {
    const { assignment } = await setUp();
    const own = await submit(t, ada, assignment);
    const first = await grade(own.id, { grade: 12, feedback: 'Show your working', baseVersion: 0 });
    expect(first.json()).toMatchObject({ grade: 12, feedback: 'Show your working', version: 1 });
    const cell = await grade(own.id, { grade: 14, baseVersion: 1 });
    expect(cell.json()).toMatchObject({ grade: 14, feedback: 'Show your working', version: 2 });
    const blank = await grade(own.id, { grade: 14, feedback: '  ', baseVersion: 2 });
    expect(blank.json()).toMatchObject({ feedback: null, version: 3 });
    const back = await grade(own.id, { grade: 15, feedback: 'Better', baseVersion: 3 });
    expect((await grade(own.id, { grade: 15, feedback: null, baseVersion: 4 })).json()).toMatchObject({
      feedback: null,
    });
    expect(back.json()).toMatchObject({ feedback: 'Better' });
  });
});

describe('editing courses and assignments', () => {
  it('edits a course, normalizing the code, 409 when it is another of the teacher’s', async () => {
    const [one, two] = [await createCourse(t, teacher), await createCourse(t, teacher)];
    const res = await send(teacher, 'PATCH', `/api/courses/${one.id}`, {
      code: ' bio-101 ',
      title: ' Biology ',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<Course>()).toMatchObject({ code: 'BIO-101', title: 'Biology' });
    // Its own code again is fine.
    expect((await send(teacher, 'PATCH', `/api/courses/${one.id}`, { code: 'Bio-101' })).statusCode).toBe(
      200,
    );
    const clash = await send(teacher, 'PATCH', `/api/courses/${two.id}`, { code: 'bio-101' });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().message).toContain('BIO-101');
    for (const [body, field] of [
      [{}, 'body'],
      [{ title: '   ' }, 'title'],
      [{ code: 'x'.repeat(21) }, 'code'],
      [{ teacherId: ada.id }, 'teacherId'],
    ] as const) {
      const bad = await send(teacher, 'PATCH', `/api/courses/${one.id}`, body);
      expect(bad.statusCode, JSON.stringify(body)).toBe(400);
      expect(bad.json().message).toContain(field);
    }
  });

  it('sends course:updated to members without the join code and to the teacher with it', async () => {
    const { course } = await setUp();
    const [adaLive, teacherLive] = [await t.tab(ada), await t.tab(teacher)];
    await send(teacher, 'PATCH', `/api/courses/${course.id}`, { title: 'Renamed live' });
    const isIt = (e: LiveEvent) => e.type === 'course:updated' && (e.data as Course).title === 'Renamed live';
    expect(((await adaLive.waitFor(isIt)).data as Course).joinCode).toBeNull();
    expect(((await teacherLive.waitFor(isIt)).data as Course).joinCode).toBe(course.joinCode);
  });

  it('edits an assignment; members hear it without the teacher’s counts', async () => {
    const { assignment } = await setUp();
    await submit(t, ada, assignment);
    const [adaLive, teacherLive] = [await t.tab(ada), await t.tab(teacher)];
    const dueDate = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const res = await send(teacher, 'PATCH', `/api/assignments/${assignment.id}`, {
      title: 'Moved essay',
      dueDate,
      closesAtDue: true,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<Assignment>()).toMatchObject({
      title: 'Moved essay',
      dueDate,
      closesAtDue: true,
      submissionCount: 1,
      needsGrading: 1,
    });
    const isIt = (e: LiveEvent) =>
      e.type === 'assignment:updated' && (e.data as Assignment).id === assignment.id;
    const seen = (await adaLive.waitFor(isIt)).data as Assignment;
    expect(seen).toMatchObject({ title: 'Moved essay', dueDate, submissionCount: null, needsGrading: null });
    expect(((await teacherLive.waitFor(isIt)).data as Assignment).submissionCount).toBe(1);
  });

  it('refuses max points below a grade given, naming the highest grade (409 points_below_grade)', async () => {
    const { assignment } = await setUp();
    const [a, b] = [await submit(t, ada, assignment), await submit(t, ben, assignment)];
    await grade(a.id, { grade: 15, baseVersion: 0 });
    await grade(b.id, { grade: 18, baseVersion: 0 });
    const res = await send(teacher, 'PATCH', `/api/assignments/${assignment.id}`, { maxPoints: 16 });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: ErrorCode.pointsBelowGrade });
    expect(res.json().message).toContain('18');
    expect(
      (await send(teacher, 'PATCH', `/api/assignments/${assignment.id}`, { maxPoints: 18 })).statusCode,
    ).toBe(200);
    for (const [body, field] of [
      [{ maxPoints: 0 }, 'maxPoints'],
      [{ dueDate: 'tomorrow' }, 'dueDate'],
      [{ gradeRelease: 'later' }, 'gradeRelease'],
      [{ courseId: assignment.courseId }, 'courseId'],
      [{}, 'body'],
    ] as const) {
      const bad = await send(teacher, 'PATCH', `/api/assignments/${assignment.id}`, body);
      expect(bad.statusCode, JSON.stringify(body)).toBe(400);
      expect(bad.json().message).toContain(field);
    }
  });
});

describe('excusing', () => {
  it('marks the cell excused for the teacher and the student, and takes it back', async () => {
    const { course, assignment } = await setUp();
    const adaLive = await t.tab(ada);
    const teacherLive = await t.tab(teacher);
    const res = await send(teacher, 'POST', `/api/assignments/${assignment.id}/excuse`, {
      studentId: ada.id,
      excused: true,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ assignmentId: assignment.id, studentId: ada.id, status: 'excused' });
    await teacherLive.waitFor(
      (e) => e.type === 'gradebook:cell' && (e.data as { studentId: string }).studentId === ada.id,
    );
    const heard = await adaLive.waitFor(
      (e) => e.type === 'assignment:updated' && (e.data as Assignment).id === assignment.id,
    );
    expect((heard.data as Assignment).status).toBe('excused');
    const mine = (await get(ada, `/api/courses/${course.id}`)).json<{ assignments: Assignment[] }>();
    expect(mine.assignments.find((a) => a.id === assignment.id)?.status).toBe('excused');
    const book = (await get(teacher, `/api/courses/${course.id}/gradebook`)).json<Gradebook>();
    expect(book.cells.find((c) => c.studentId === ada.id && c.assignmentId === assignment.id)?.status).toBe(
      'excused',
    );
    const undo = await send(teacher, 'POST', `/api/assignments/${assignment.id}/excuse`, {
      studentId: ada.id,
      excused: false,
    });
    expect(undo.json().status).toBe('not_submitted');
  });

  it('answers 404 for a student who is not a member', async () => {
    const { assignment } = await setUp();
    const stranger = await createStudent(t, 'Stranger');
    const res = await send(teacher, 'POST', `/api/assignments/${assignment.id}/excuse`, {
      studentId: stranger.id,
      excused: true,
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toContain('not a member');
  });
});

describe('the gradebook', () => {
  it('has a cell for every active member × assignment, with statuses and versions', async () => {
    const { course, assignment } = await setUp({ title: 'First' });
    const second = await createAssignment(t, teacher, course, { title: 'Second', maxPoints: 10 });
    const own = await submit(t, ada, assignment);
    await grade(own.id, { grade: 19, baseVersion: 0 });
    const book = (await get(teacher, `/api/courses/${course.id}/gradebook`)).json<Gradebook>();
    expect(book.students.map((s) => s.fullName)).toEqual(['Ada Student', 'Ben Student']);
    expect(book.assignments.map((a) => a.title)).toEqual(['First', 'Second']);
    expect(book.cells).toHaveLength(4);
    expect(book.cells.find((c) => c.submissionId === own.id)).toMatchObject({
      grade: 19,
      version: 1,
      status: 'returned',
      late: null,
    });
    expect(book.cells.find((c) => c.studentId === ben.id && c.assignmentId === second.id)).toMatchObject({
      submissionId: null,
      grade: null,
      version: null,
      status: 'not_submitted',
    });
  });

  it('exports CSV with a BOM, the documented columns and totals, and harmless formula-like text', async () => {
    const course = await createCourse(t, teacher, { code: 'CSV-1' });
    const evil = await createStudent(t, "=cmd|' /C calc'!A0");
    const plus = await createStudent(t, '+Plus Student');
    await Promise.all([joinCourse(t, evil, course), joinCourse(t, plus, course)]);
    const quiz = await createAssignment(t, teacher, course, { title: '@Quiz, "one"', maxPoints: 10 });
    const essay = await createAssignment(t, teacher, course, { title: 'Essay', maxPoints: 30 });
    await grade((await submit(t, evil, quiz)).id, { grade: 8, baseVersion: 0 });
    await grade((await submit(t, evil, essay)).id, { grade: 21, baseVersion: 0 });
    await send(teacher, 'POST', `/api/assignments/${essay.id}/excuse`, { studentId: plus.id, excused: true });

    const res = await get(teacher, `/api/courses/${course.id}/gradebook.csv`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="CSV-1-gradebook.csv"');
    const bytes = res.rawPayload;
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = parse(bytes, { bom: true }) as string[][];
    expect(rows[0]).toEqual([
      'Student Name',
      'Student Email',
      `'@Quiz, "one" (/10)`,
      'Essay (/30)',
      'Total Points',
      'Total Possible',
      'Percent',
    ]);
    const byName = new Map(rows.slice(1).map((r) => [r[0], r]));
    expect(byName.get("'=cmd|' /C calc'!A0")).toEqual([
      "'=cmd|' /C calc'!A0",
      evil.email,
      '8',
      '21',
      '29',
      '40',
      '72.5',
    ]);
    expect(byName.get("'+Plus Student")).toEqual(["'+Plus Student", plus.email, '', 'Excused', '0', '0', '']);
    // No cell starts with a formula character.
    for (const cell of rows.flat()) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
  });

  it('gives a file name that is safe whatever the course code', async () => {
    const course = await createCourse(t, teacher, { code: '../"x"\r\n;y' });
    const res = await get(teacher, `/api/courses/${course.id}/gradebook.csv`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="[A-Za-z0-9._-]+\.csv"$/);
  });
});

describe("a student's grades", () => {
  it('lists every assignment of their courses, grades once returned, totals over returned ones', async () => {
    const { course, assignment } = await setUp({ maxPoints: 20 });
    const held = await createAssignment(t, teacher, course, { maxPoints: 50 });
    await send(teacher, 'PATCH', `/api/assignments/${held.id}`, { gradeRelease: 'manual' });
    await grade((await submit(t, ada, assignment)).id, { grade: 15, baseVersion: 0 });
    await grade((await submit(t, ada, held)).id, { grade: 50, baseVersion: 0 });
    const mine = (await get(ada, '/api/grades'))
      .json<StudentCourseGrades[]>()
      .find((g) => g.course.id === course.id)!;
    expect(mine.items.map((i) => [i.assignmentId, i.grade, i.status])).toEqual([
      [assignment.id, 15, 'returned'],
      [held.id, null, 'submitted'],
    ]);
    expect(mine).toMatchObject({ points: 15, possible: 20, percent: 75 });
    const bens = (await get(ben, '/api/grades'))
      .json<StudentCourseGrades[]>()
      .find((g) => g.course.id === course.id)!;
    expect(bens).toMatchObject({ points: 0, possible: 0, percent: null });
  });
});

/** The submit response carries the new fields, never a grade. */
describe('submitting', () => {
  it('answers the own submission with late and returnedAt', async () => {
    const { assignment } = await setUp();
    const own: OwnSubmission = await submit(t, ada, assignment);
    expect(own).toMatchObject({ grade: null, feedback: null, returnedAt: null, late: null });
  });
});
