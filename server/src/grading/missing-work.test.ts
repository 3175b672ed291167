import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ErrorCode,
  type Assignment,
  type Course,
  type Gradebook,
  type GradeConflictBody,
  type StudentCourseGrades,
  type Submission,
} from '@classwave/shared';
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
 * Missing work can be graded (DESIGN §17): `PUT /api/assignments/:id/grades/:studentId` grades a
 * student with or without a submission, under the same version, release and event rules as a
 * submission's grade; a course counts missing work as 0 in its totals and CSV unless told not to.
 */
let t: LiveTestApp;
let teacher: Actor;
let other: Actor;
let ada: Actor;
let ben: Actor;
let stranger: Actor;

beforeAll(async () => {
  t = await liveTestApp();
  [teacher, other, ada, ben, stranger] = await Promise.all([
    createTeacher(t, 'Mona Marker'),
    createTeacher(t, 'Otto Other'),
    createStudent(t, 'Ada Absent'),
    createStudent(t, 'Ben Present'),
    createStudent(t, 'Sid Stranger'),
  ]);
});
afterAll(() => t.close());

const as = (actor: Actor) => ({ headers: actor.headers });
const get = (actor: Actor, path: string) => t.app.inject({ method: 'GET', url: path, ...as(actor) });
const send = (actor: Actor, method: 'POST' | 'PATCH' | 'PUT' | 'DELETE', path: string, payload?: object) =>
  t.app.inject({ method, url: path, ...(payload ? { payload } : {}), ...as(actor) });
const gradeStudent = (assignment: { id: string }, student: Actor, body: object, who = teacher) =>
  send(who, 'PUT', `/api/assignments/${assignment.id}/grades/${student.id}`, body);
const ownAssignment = async (student: Actor, assignment: Assignment) => {
  const res = await get(student, '/api/assignments');
  return res.json<Assignment[]>().find((a) => a.id === assignment.id)!;
};

/** A course of the teacher's with Ada and Ben as members, and one assignment. */
async function setUp(body: Parameters<typeof createAssignment>[3] = {}) {
  const course = await createCourse(t, teacher);
  await Promise.all([joinCourse(t, ada, course), joinCourse(t, ben, course)]);
  const assignment = await createAssignment(t, teacher, course, { maxPoints: 20, ...body });
  return { course, assignment };
}

describe('PUT /api/assignments/:id/grades/:studentId', () => {
  it('grades a student who did not submit: a graded row with no submission, live to both', async () => {
    const { course, assignment } = await setUp({ dueDate: inDays(-1) });
    const [adaLive, teacherLive] = [await t.tab(ada), await t.tab(teacher)];

    const res = await gradeStudent(assignment, ada, {
      grade: 0,
      feedback: 'Nothing handed in',
      baseVersion: 0,
    });
    expect(res.statusCode, res.body).toBe(200);
    const graded = res.json<Submission>();
    expect(graded).toMatchObject({
      assignmentId: assignment.id,
      studentId: ada.id,
      content: null,
      submittedAt: null,
      grade: 0,
      feedback: 'Nothing handed in',
      version: 1,
      late: null,
      held: false,
      gradedBy: { id: teacher.id, fullName: 'Mona Marker' },
    });
    await adaLive.waitFor((e) => e.type === 'submission:graded' && (e.data as Submission).grade === 0);
    await teacherLive.waitFor(
      (e) => e.type === 'submission:graded' && (e.data as Submission).id === graded.id,
    );

    // The student: graded, returned, and still not a submission.
    const mine = await ownAssignment(ada, assignment);
    expect(mine.status).toBe('returned');
    expect(mine.submission).toMatchObject({ id: graded.id, submittedAt: null, grade: 0, late: null });
    expect((await get(ada, `/api/assignments/${assignment.id}/submission`)).statusCode).toBe(404);
    // The teacher: a returned cell, listed after the submissions, counted as no submission.
    const book = (await get(teacher, `/api/courses/${course.id}/gradebook`)).json<Gradebook>();
    expect(book.cells.find((c) => c.studentId === ada.id)).toMatchObject({
      submissionId: graded.id,
      grade: 0,
      version: 1,
      status: 'returned',
    });
    await submit(t, ben, assignment);
    const list = (await get(teacher, `/api/assignments/${assignment.id}/submissions`)).json<Submission[]>();
    expect(list.map((s) => [s.student.fullName, s.submittedAt === null])).toEqual([
      ['Ben Present', false],
      ['Ada Absent', true],
    ]);
    const teacherView = (await get(teacher, '/api/assignments')).json<Assignment[]>();
    expect(teacherView.find((a) => a.id === assignment.id)).toMatchObject({
      submissionCount: 1,
      needsGrading: 1,
    });
    const members = (await get(teacher, `/api/courses/${course.id}/members`)).json<
      { student: { id: string }; submissionCount: number }[]
    >();
    expect(members.find((m) => m.student.id === ada.id)?.submissionCount).toBe(0);
  });

  it('updates over the version it started from; a stale one is 409 grade_conflict with the grade as it stands', async () => {
    const { assignment } = await setUp();
    expect((await gradeStudent(assignment, ada, { grade: 3, baseVersion: 0 })).statusCode).toBe(200);
    const updated = await gradeStudent(assignment, ada, { grade: 5, baseVersion: 1 });
    expect(updated.statusCode).toBe(200);
    expect(updated.json<Submission>()).toMatchObject({ grade: 5, version: 2, submittedAt: null });

    const stale = await gradeStudent(assignment, ada, { grade: 9, baseVersion: 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json<GradeConflictBody>()).toMatchObject({
      code: ErrorCode.gradeConflict,
      current: { grade: 5, version: 2, gradedBy: { id: teacher.id, fullName: 'Mona Marker' } },
    });
    // Nothing there yet, a version from elsewhere: the conflict says there is nothing (version 0).
    const fresh = await gradeStudent(assignment, ben, { grade: 1, baseVersion: 4 });
    expect(fresh.statusCode).toBe(409);
    expect(fresh.json<GradeConflictBody>().current).toEqual({
      grade: null,
      feedback: null,
      version: 0,
      gradedBy: null,
      gradedAt: null,
      rubricScores: null,
    });
    // A submission is graded by the same route (it is the same row PATCH grades).
    const own = await submit(t, ben, assignment);
    const onSubmission = await gradeStudent(assignment, ben, { grade: 7, baseVersion: 0 });
    expect(onSubmission.json<Submission>()).toMatchObject({
      id: own.id,
      grade: 7,
      version: 1,
      content: 'My answer.',
    });
    expect((await gradeStudent(assignment, ben, { grade: 21, baseVersion: 1 })).statusCode).toBe(400);
  });

  it('on manual release, holds the grade for missing work until returned', async () => {
    const { assignment } = await setUp({ dueDate: inDays(-1), gradeRelease: 'manual' });
    const adaLive = await t.tab(ada);
    const teacherLive = await t.tab(teacher);
    const res = await gradeStudent(assignment, ada, { grade: 2, feedback: 'Hold me', baseVersion: 0 });
    expect(res.json<Submission>()).toMatchObject({ held: true, returnedAt: null });
    await teacherLive.waitFor((e) => e.type === 'submission:graded');

    await barrier(adaLive, teacherLive);
    expect(adaLive.heard.filter((h) => h.name === 'submission:graded')).toEqual([]);
    const held = await ownAssignment(ada, assignment);
    expect(held).toMatchObject({ status: 'missing', submission: null });
    const grades = (await get(ada, '/api/grades')).json<StudentCourseGrades[]>();
    const item = grades.flatMap((g) => g.items).find((i) => i.assignmentId === assignment.id);
    expect(item).toMatchObject({ status: 'missing', grade: null, feedback: null });

    expect((await send(teacher, 'POST', `/api/assignments/${assignment.id}/return`, {})).json()).toEqual({
      returned: 1,
    });
    await adaLive.waitFor((e) => e.type === 'submission:graded' && (e.data as Submission).grade === 2);
    expect(await ownAssignment(ada, assignment)).toMatchObject({
      status: 'returned',
      submission: { submittedAt: null, grade: 2, feedback: 'Hold me' },
    });
  });

  it('lets the student still submit an open assignment: the submit fills the row in and keeps the grade', async () => {
    const { assignment } = await setUp({ gradeRelease: 'manual' });
    const graded = (await gradeStudent(assignment, ada, { grade: 4, baseVersion: 0 })).json<Submission>();
    // Drafts and the answer box still work: nothing was handed in.
    const draft = await send(ada, 'PUT', `/api/assignments/${assignment.id}/draft`, {
      content: 'Late but here',
      baseVersion: 0,
    });
    expect(draft.statusCode).toBe(200);
    expect((await send(ada, 'DELETE', `/api/assignments/${assignment.id}/submission`)).statusCode).toBe(404);

    const adaLive = await t.tab(ada);
    const own = await submit(t, ada, assignment, 'Late but here');
    expect(own).toMatchObject({ id: graded.id, grade: null, returnedAt: null });
    // Her tabs hear the submission without the held grade (the teacher's hear it graded after).
    const heard = await adaLive.waitFor((e) => e.type === 'submission:created');
    expect(heard.data).toMatchObject({
      id: graded.id,
      grade: null,
      feedback: null,
      gradedBy: null,
      held: false,
      // Nor its version: a grade never returned to her is not there to count.
      version: 0,
    });
    await barrier(adaLive);
    expect(adaLive.events.filter((e) => e.type === 'submission:graded')).toEqual([]);
    expect(own.submittedAt).not.toBeNull();
    const list = (await get(teacher, `/api/assignments/${assignment.id}/submissions`)).json<Submission[]>();
    expect(list.find((s) => s.id === graded.id)).toMatchObject({
      content: 'Late but here',
      grade: 4,
      // The submit is a new version: a form opened on the missing work is out of date.
      version: 2,
      held: true,
    });
    const stale = await gradeStudent(assignment, ada, { grade: 0, baseVersion: graded.version });
    expect(stale.statusCode).toBe(409);
    expect(stale.json<GradeConflictBody>().current).toMatchObject({ grade: 4, version: 2 });
    // Submitted, so no second submit, and graded, so no take-back.
    expect(
      (await send(ada, 'POST', `/api/assignments/${assignment.id}/submissions`, { content: 'x' })).statusCode,
    ).toBe(409);
    expect((await send(ada, 'DELETE', `/api/assignments/${assignment.id}/submission`)).statusCode).toBe(409);
  });

  it('is the course teacher’s alone; a student who is not an active member is a 404 naming it', async () => {
    const { course, assignment } = await setUp();
    const body = { grade: 1, baseVersion: 0 };
    expect((await gradeStudent(assignment, ada, body, ben)).statusCode).toBe(403);
    expect((await gradeStudent(assignment, ada, body, other)).statusCode).toBe(404);
    expect((await gradeStudent(assignment, ada, body, stranger)).statusCode).toBe(404);
    const nonMember = await gradeStudent(assignment, stranger, body);
    expect(nonMember.statusCode).toBe(404);
    expect(nonMember.json<{ message: string }>().message).toMatch(/not an active member/);
    expect((await gradeStudent(assignment, other, body)).statusCode).toBe(404);
    // Removed: their gradebook row is gone, so is grading them here.
    expect((await send(teacher, 'DELETE', `/api/courses/${course.id}/members/${ben.id}`)).statusCode).toBe(
      200,
    );
    expect((await gradeStudent(assignment, ben, body)).statusCode).toBe(404);
    // Excused work counts nowhere, so it takes no grade until the excuse is taken back.
    const excuse = (excused: boolean) =>
      send(teacher, 'POST', `/api/assignments/${assignment.id}/excuse`, { studentId: ada.id, excused });
    expect((await excuse(true)).statusCode).toBe(200);
    const excused = await gradeStudent(assignment, ada, body);
    expect(excused.statusCode).toBe(409);
    expect(excused.json<{ message: string }>().message).toMatch(/excused/);
    expect((await excuse(false)).statusCode).toBe(200);
    expect((await gradeStudent(assignment, ada, body)).statusCode).toBe(200);
    // A binned assignment is not there.
    expect((await send(teacher, 'DELETE', `/api/assignments/${assignment.id}`)).statusCode).toBe(204);
    expect((await gradeStudent(assignment, ada, body)).statusCode).toBe(404);
  });
});

describe('DELETE /api/assignments/:id/grades/:studentId', () => {
  const clear = (assignment: { id: string }, student: Actor, baseVersion: number | string, who = teacher) =>
    t.app.inject({
      method: 'DELETE',
      url: `/api/assignments/${assignment.id}/grades/${student.id}?baseVersion=${baseVersion}`,
      ...as(who),
    });

  // Issue 25: a 0 typed into the wrong student's Missing cell could never be taken back.
  it('takes back a grade for missing work over its version: the student is missing again, live to both', async () => {
    const { course, assignment } = await setUp({ dueDate: inDays(-1) });
    expect((await gradeStudent(assignment, ada, { grade: 0, baseVersion: 0 })).statusCode).toBe(200);
    expect((await gradeStudent(assignment, ada, { grade: 3, baseVersion: 1 })).statusCode).toBe(200);
    const [adaLive, teacherLive] = [await t.tab(ada), await t.tab(teacher)];

    const stale = await clear(assignment, ada, 1);
    expect(stale.statusCode).toBe(409);
    expect(stale.json<GradeConflictBody>().current).toMatchObject({ grade: 3, version: 2 });
    const res = await clear(assignment, ada, 2);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      studentId: ada.id,
      submissionId: null,
      grade: null,
      status: 'missing',
    });
    await teacherLive.waitFor(
      (e) => e.type === 'gradebook:cell' && (e.data as { grade: unknown }).grade === null,
    );
    await adaLive.waitFor(
      (e) => e.type === 'assignment:updated' && (e.data as Assignment).id === assignment.id,
    );

    const mine = await ownAssignment(ada, assignment);
    expect(mine).toMatchObject({ status: 'missing', submission: null });
    const book = (await get(teacher, `/api/courses/${course.id}/gradebook`)).json<Gradebook>();
    expect(book.cells.find((c) => c.studentId === ada.id)).toMatchObject({ grade: null, status: 'missing' });
    // Nothing left to take back; a new grade starts over from version 0.
    expect((await clear(assignment, ada, 2)).statusCode).toBe(404);
    expect((await gradeStudent(assignment, ada, { grade: 1, baseVersion: 0 })).statusCode).toBe(200);
  });

  it('keeps handed-in work and its grade, and is the course teacher’s alone', async () => {
    const { assignment } = await setUp();
    const own = await submit(t, ben, assignment);
    const graded = await send(teacher, 'PATCH', `/api/submissions/${own.id}`, { grade: 7, baseVersion: 0 });
    expect(graded.statusCode).toBe(200);
    const handedIn = await clear(assignment, ben, 1);
    expect(handedIn.statusCode).toBe(409);
    expect(handedIn.json<{ message: string }>().message).toMatch(/handed work in/);
    expect((await gradeStudent(assignment, ada, { grade: 0, baseVersion: 0 })).statusCode).toBe(200);
    expect((await clear(assignment, ada, 1, ben)).statusCode).toBe(403);
    expect((await clear(assignment, ada, 1, other)).statusCode).toBe(404);
    expect((await clear(assignment, ada, 'x')).statusCode).toBe(400);
    expect((await clear(assignment, ada, 0)).statusCode).toBe(400);
    // Still there after every refusal.
    const list = (await get(teacher, `/api/assignments/${assignment.id}/submissions`)).json<Submission[]>();
    expect(list.map((s) => [s.student.fullName, s.grade])).toEqual(
      expect.arrayContaining([
        ['Ben Present', 7],
        ['Ada Absent', 0],
      ]),
    );
  });
});

describe('missing work in the totals (missingCountsAsZero)', () => {
  /**
   * Quiz /60 graded 45 for both; Essay /20 past due: Ada missing, Ben excused; Draft /40 not yet due.
   * With missing as zero Ada has 45/80, Ben 45/60; without, both 45/60.
   */
  async function book() {
    const course = await createCourse(t, teacher);
    expect(course.missingCountsAsZero).toBe(true);
    await Promise.all([joinCourse(t, ada, course), joinCourse(t, ben, course)]);
    const quiz = await createAssignment(t, teacher, course, {
      title: 'Quiz',
      maxPoints: 60,
      dueDate: inDays(-2),
    });
    const essay = await createAssignment(t, teacher, course, {
      title: 'Essay',
      maxPoints: 20,
      dueDate: inDays(-1),
    });
    await createAssignment(t, teacher, course, { title: 'Draft', maxPoints: 40, dueDate: inDays(3) });
    for (const student of [ada, ben])
      expect((await gradeStudent(quiz, student, { grade: 45, baseVersion: 0 })).statusCode).toBe(200);
    const excused = await send(teacher, 'POST', `/api/assignments/${essay.id}/excuse`, {
      studentId: ben.id,
      excused: true,
    });
    expect(excused.statusCode).toBe(200);
    return { course, essay };
  }
  const csvRows = async (course: Course) => {
    const res = await get(teacher, `/api/courses/${course.id}/gradebook.csv`);
    const rows = parse(res.body, { bom: true }) as string[][];
    const header = rows[0]!;
    const at = (name: string) => header.indexOf(name);
    return rows.slice(1).map((r) => [r[0], r[at('Total Points')], r[at('Total Possible')], r[at('Percent')]]);
  };
  const studentTotal = async () =>
    (await get(ada, '/api/grades'))
      .json<StudentCourseGrades[]>()
      .map((g) => [g.points, g.possible, g.percent]);

  it('counts missing work past due as 0 by default, and excused work nowhere', async () => {
    const { course } = await book();
    expect(
      (await get(teacher, `/api/courses/${course.id}/gradebook`)).json<Gradebook>().course
        .missingCountsAsZero,
    ).toBe(true);
    expect(await csvRows(course)).toEqual([
      ['Ada Absent', '45', '80', '56.3'],
      ['Ben Present', '45', '60', '75'],
    ]);
    expect(await studentTotal()).toContainEqual([45, 80, 56.3]);
  });

  it('counts only graded work when the teacher turns it off, and a 0 given counts as any grade', async () => {
    const { course, essay } = await book();
    const edited = await send(teacher, 'PATCH', `/api/courses/${course.id}`, { missingCountsAsZero: false });
    expect(edited.statusCode).toBe(200);
    expect(edited.json<Course>().missingCountsAsZero).toBe(false);
    expect(
      (await get(teacher, '/api/courses')).json<Course[]>().find((c) => c.id === course.id),
    ).toMatchObject({
      missingCountsAsZero: false,
    });
    expect(await csvRows(course)).toEqual([
      ['Ada Absent', '45', '60', '75'],
      ['Ben Present', '45', '60', '75'],
    ]);
    expect(await studentTotal()).toContainEqual([45, 60, 75]);

    // The zero given by hand counts whatever the setting.
    expect((await gradeStudent(essay, ada, { grade: 0, baseVersion: 0 })).statusCode).toBe(200);
    expect(await csvRows(course)).toEqual([
      ['Ada Absent', '45', '80', '56.3'],
      ['Ben Present', '45', '60', '75'],
    ]);
    // Only the course's teacher changes it.
    expect(
      (await send(ada, 'PATCH', `/api/courses/${course.id}`, { missingCountsAsZero: true })).statusCode,
    ).toBe(403);
  });
});
