import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ErrorCode,
  type Assignment,
  type AssignmentRubric,
  type Course,
  type GradeConflictBody,
  type Submission,
  type SubmissionView,
} from '@classwave/shared';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import { connect, listen } from '../../test/support/sockets.js';
import {
  createAssignment,
  createCourse,
  createStudent,
  createTeacher,
  joinCourse,
  submit,
  type Actor,
} from '../../test/support/factories.js';

/**
 * Rubrics (DESIGN §17): written or copied per assignment by its teacher, seen by its members before
 * they submit; grading by one sets the grade, and its scores follow the grade's version and release.
 */
let t: TestApp;
let teacher: Actor;
let otherTeacher: Actor;
let ada: Actor;
let outsider: Actor;
let course: Course;

beforeAll(async () => {
  t = await createTestApp();
  [teacher, otherTeacher, ada, outsider] = await Promise.all([
    createTeacher(t, 'Rubric Teacher'),
    createTeacher(t, 'Other Teacher'),
    createStudent(t, 'Ada Rubric'),
    createStudent(t, 'Olive Outsider'),
  ]);
  course = await createCourse(t, teacher);
  await joinCourse(t, ada, course);
});
afterAll(() => t.close());

const inject = (actor: Actor, method: 'GET' | 'PUT' | 'PATCH' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: actor.headers, ...(payload ? { payload } : {}) });

/** Two criteria, 6 + 4 = 10 points at best. */
const ESSAY = {
  criteria: [
    {
      title: '  Argument ',
      levels: [
        { title: 'Weak', points: 2 },
        { title: 'Strong', points: 6 },
      ],
    },
    {
      title: 'Style',
      levels: [
        { title: 'Rough', points: 0 },
        { title: 'Clear', points: 4 },
      ],
    },
  ],
};

async function withRubric(body: Partial<Parameters<typeof createAssignment>[3]> = {}) {
  const assignment = await createAssignment(t, teacher, course, { maxPoints: 10, ...body });
  const res = await inject(teacher, 'PUT', `/api/assignments/${assignment.id}/rubric`, ESSAY);
  expect(res.statusCode, res.body).toBe(200);
  const { rubric } = res.json<AssignmentRubric>();
  const [argument, style] = rubric!.criteria;
  /** Level ids by criterion, e.g. pick('Strong', 'Clear'). */
  const pick = (a: string, s: string) => ({
    [argument!.id]: argument!.levels.find((l) => l.title === a)!.id,
    [style!.id]: style!.levels.find((l) => l.title === s)!.id,
  });
  return { assignment, rubric: rubric!, pick };
}

describe('PUT /api/assignments/:id/rubric', () => {
  it('keeps a snapshot with trimmed titles and an id per criterion and level, seen by members before they submit', async () => {
    const { assignment, rubric } = await withRubric();
    expect(rubric.criteria.map((c) => c.title)).toEqual(['Argument', 'Style']);
    const ids = rubric.criteria.flatMap((c) => [c.id, ...c.levels.map((l) => l.id)]);
    expect(new Set(ids).size).toBe(6);
    const seen = await inject(ada, 'GET', `/api/assignments/${assignment.id}/rubric`);
    expect(seen.statusCode).toBe(200);
    expect(seen.json<AssignmentRubric>()).toEqual({ assignmentId: assignment.id, maxPoints: 10, rubric });
  });

  it('refuses a rubric whose total is not the max points, naming the field and both numbers', async () => {
    const assignment = await createAssignment(t, teacher, course, { maxPoints: 12 });
    const res = await inject(teacher, 'PUT', `/api/assignments/${assignment.id}/rubric`, ESSAY);
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toMatch(/body\.criteria.*10 points.*out of 12/);
  });

  it.each([
    ['a blank title', { criteria: [{ title: '   ', levels: [{ title: 'A', points: 10 }] }] }, 'title'],
    ['no levels', { criteria: [{ title: 'A', levels: [] }] }, 'levels'],
    ['fractional points', { criteria: [{ title: 'A', levels: [{ title: 'A', points: 9.5 }] }] }, 'points'],
    ['negative points', { criteria: [{ title: 'A', levels: [{ title: 'A', points: -1 }] }] }, 'points'],
    [
      'seven levels',
      {
        criteria: [
          { title: 'A', levels: Array.from({ length: 7 }, (_, i) => ({ title: `L${i}`, points: i })) },
        ],
      },
      'levels',
    ],
    [
      '21 criteria',
      { criteria: Array.from({ length: 21 }, () => ({ title: 'A', levels: [{ title: 'A', points: 0 }] })) },
      'criteria',
    ],
    [
      'a 201-character title',
      { criteria: [{ title: 'x'.repeat(201), levels: [{ title: 'A', points: 10 }] }] },
      'title',
    ],
  ])('refuses %s with a 400 naming it', async (_name, body, field) => {
    const assignment = await createAssignment(t, teacher, course, { maxPoints: 10 });
    const res = await inject(teacher, 'PUT', `/api/assignments/${assignment.id}/rubric`, body);
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toContain(field);
  });

  it("tells the class's open tabs live (assignment:updated), so an open dialog reads the rubric again", async () => {
    const assignment = await createAssignment(t, teacher, course, { maxPoints: 10 });
    const live = await connect(await listen(t.app), ada.token);
    try {
      await inject(teacher, 'PUT', `/api/assignments/${assignment.id}/rubric`, ESSAY);
      const heard = await live.waitFor(
        (e) => e.type === 'assignment:updated' && (e.data as Assignment).id === assignment.id,
      );
      // The members' view: nobody's counts.
      expect(heard.data).toMatchObject({ id: assignment.id, submissionCount: null });
    } finally {
      live.close();
    }
  });

  it('removes the rubric with no criteria', async () => {
    const { assignment } = await withRubric();
    const res = await inject(teacher, 'PUT', `/api/assignments/${assignment.id}/rubric`, { criteria: [] });
    expect(res.json<AssignmentRubric>().rubric).toBeNull();
    expect((await inject(ada, 'GET', `/api/assignments/${assignment.id}/rubric`)).json()).toMatchObject({
      rubric: null,
    });
  });

  it('lets only the course teacher write it: a member 403, another teacher and an outsider 404', async () => {
    const assignment = await createAssignment(t, teacher, course, { maxPoints: 10 });
    const url = `/api/assignments/${assignment.id}/rubric`;
    expect((await inject(ada, 'PUT', url, ESSAY)).statusCode).toBe(403);
    expect((await inject(otherTeacher, 'PUT', url, ESSAY)).statusCode).toBe(404);
    expect((await inject(outsider, 'PUT', url, ESSAY)).statusCode).toBe(404);
    expect((await inject(otherTeacher, 'GET', url)).statusCode).toBe(404);
    expect((await inject(outsider, 'GET', url)).statusCode).toBe(404);
  });

  it("is reused by copy: a teacher reads their own assignment's rubric, never another teacher's", async () => {
    const { assignment: from, rubric } = await withRubric();
    const copy = await inject(teacher, 'GET', `/api/assignments/${from.id}/rubric`);
    const to = await createAssignment(t, teacher, course, { maxPoints: 10 });
    // Titles and points only: the ids are the other assignment's.
    const criteria = copy.json<AssignmentRubric>().rubric!.criteria.map((c) => ({
      title: c.title,
      levels: c.levels.map(({ title, points }) => ({ title, points })),
    }));
    const put = await inject(teacher, 'PUT', `/api/assignments/${to.id}/rubric`, { criteria });
    expect(put.statusCode).toBe(200);
    const copied = put.json<AssignmentRubric>().rubric!;
    expect(copied.criteria.map((c) => c.title)).toEqual(rubric.criteria.map((c) => c.title));
    // The copy is the new assignment's own snapshot.
    expect(copied.criteria[0]!.id).not.toBe(rubric.criteria[0]!.id);
    expect((await inject(otherTeacher, 'GET', `/api/assignments/${from.id}/rubric`)).statusCode).toBe(404);
  });

  it('refuses a change once a grade was given by it (409 rubric_in_use), and a max points change while it stands', async () => {
    const { assignment, pick } = await withRubric();
    const work = await submit(t, ada, assignment);
    const graded = await inject(teacher, 'PATCH', `/api/submissions/${work.id}`, {
      grade: 6,
      rubric: pick('Strong', 'Rough'),
      baseVersion: 0,
    });
    expect(graded.statusCode, graded.body).toBe(200);
    const res = await inject(teacher, 'PUT', `/api/assignments/${assignment.id}/rubric`, ESSAY);
    expect(res.statusCode).toBe(409);
    expect(res.json<{ code: string }>().code).toBe(ErrorCode.rubricInUse);
    const points = await inject(teacher, 'PATCH', `/api/assignments/${assignment.id}`, { maxPoints: 20 });
    expect(points.statusCode).toBe(409);
    expect(points.json<{ code: string }>().code).toBe(ErrorCode.rubricInUse);
  });
});

describe('grading by rubric', () => {
  it('stores the chosen levels with the grade, their sum, in one version', async () => {
    const { assignment, pick } = await withRubric();
    const work = await submit(t, ada, assignment);
    const res = await inject(teacher, 'PATCH', `/api/submissions/${work.id}`, {
      grade: 10,
      rubric: pick('Strong', 'Clear'),
      baseVersion: 0,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Submission>()).toMatchObject({
      grade: 10,
      version: 1,
      rubricScores: pick('Strong', 'Clear'),
    });
    const listed = await inject(teacher, 'GET', `/api/assignments/${assignment.id}/submissions`);
    expect(listed.json<Submission[]>()[0]!.rubricScores).toEqual(pick('Strong', 'Clear'));
  });

  it('refuses a grade that is not the sum of the chosen levels, and writes nothing', async () => {
    const { assignment, pick } = await withRubric();
    const work = await submit(t, ada, assignment);
    const res = await inject(teacher, 'PATCH', `/api/submissions/${work.id}`, {
      grade: 9,
      rubric: pick('Strong', 'Clear'),
      baseVersion: 0,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toMatch(/body\.grade must be 10/);
    const listed = await inject(teacher, 'GET', `/api/assignments/${assignment.id}/submissions`);
    expect(listed.json<Submission[]>()[0]).toMatchObject({ grade: null, version: 0, rubricScores: null });
  });

  it('refuses an unknown criterion, a level of another criterion and an unchosen criterion, naming them', async () => {
    const { assignment, rubric, pick } = await withRubric();
    const [argument, style] = rubric.criteria;
    const url = `/api/assignments/${assignment.id}/grades/${ada.id}`;
    const stranger = '00000000-0000-4000-8000-000000000000';
    const cases: Array<[object, string]> = [
      [{ ...pick('Strong', 'Clear'), [stranger]: argument!.levels[0]!.id }, stranger],
      [{ [argument!.id]: style!.levels[1]!.id, [style!.id]: style!.levels[1]!.id }, argument!.id],
      [{ [argument!.id]: argument!.levels[1]!.id }, style!.id],
    ];
    for (const [rubricScores, named] of cases) {
      const res = await inject(teacher, 'PUT', url, { grade: 10, rubric: rubricScores, baseVersion: 0 });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json<{ message: string }>().message).toContain(named);
    }
    const none = await createAssignment(t, teacher, course, { maxPoints: 10 });
    const res = await inject(teacher, 'PUT', `/api/assignments/${none.id}/grades/${ada.id}`, {
      grade: 10,
      rubric: pick('Strong', 'Clear'),
      baseVersion: 0,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toContain('body.rubric');
  });

  it('grades missing work by rubric too, and a stale version is 409 grade_conflict with nothing written', async () => {
    const { assignment, pick } = await withRubric();
    const url = `/api/assignments/${assignment.id}/grades/${ada.id}`;
    const first = await inject(teacher, 'PUT', url, {
      grade: 2,
      rubric: pick('Weak', 'Rough'),
      baseVersion: 0,
    });
    expect(first.json<Submission>()).toMatchObject({
      grade: 2,
      version: 1,
      rubricScores: pick('Weak', 'Rough'),
    });
    const stale = await inject(teacher, 'PUT', url, {
      grade: 10,
      rubric: pick('Strong', 'Clear'),
      baseVersion: 0,
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json<{ code: string }>().code).toBe(ErrorCode.gradeConflict);
    // The grade as it stands comes with its levels, so "Use theirs" takes them with the points.
    expect(stale.json<GradeConflictBody>().current).toMatchObject({
      grade: 2,
      rubricScores: pick('Weak', 'Rough'),
    });
    const listed = await inject(teacher, 'GET', `/api/assignments/${assignment.id}/submissions`);
    expect(listed.json<Submission[]>()[0]!.rubricScores).toEqual(pick('Weak', 'Rough'));
  });

  it('keeps the scores for a grade alone that still adds up, drops them for one that does not', async () => {
    const { assignment, pick } = await withRubric();
    const work = await submit(t, ada, assignment);
    const url = `/api/submissions/${work.id}`;
    await inject(teacher, 'PATCH', url, { grade: 6, rubric: pick('Strong', 'Rough'), baseVersion: 0 });
    const same = await inject(teacher, 'PATCH', url, { grade: 6, feedback: 'Good', baseVersion: 1 });
    expect(same.json<Submission>().rubricScores).toEqual(pick('Strong', 'Rough'));
    const typed = await inject(teacher, 'PATCH', url, { grade: 7, baseVersion: 2 });
    expect(typed.json<Submission>().rubricScores).toBeNull();
  });
});

describe('rubric scores and release', () => {
  async function manualWork() {
    const made = await withRubric({ gradeRelease: 'manual' });
    const work = await submit(t, ada, made.assignment);
    const own = () => inject(ada, 'GET', `/api/assignments/${made.assignment.id}/submission`);
    return { ...made, work, own };
  }

  it('shows the student no scores while held, the returned ones once returned', async () => {
    const { assignment, work, own, pick } = await manualWork();
    await inject(teacher, 'PATCH', `/api/submissions/${work.id}`, {
      grade: 6,
      rubric: pick('Strong', 'Rough'),
      baseVersion: 0,
    });
    expect((await own()).json<SubmissionView>().submission).toMatchObject({
      grade: null,
      rubricScores: null,
    });
    await inject(teacher, 'POST', `/api/assignments/${assignment.id}/return`, {});
    expect((await own()).json<SubmissionView>().submission).toMatchObject({
      grade: 6,
      rubricScores: pick('Strong', 'Rough'),
    });
  });

  it('holds other levels for the same total, the student keeping the returned scores until returned again', async () => {
    const { assignment, work, own, pick } = await manualWork();
    const url = `/api/submissions/${work.id}`;
    // 6 + 0 and 2 + 4: the same 6 points by other levels.
    await inject(teacher, 'PATCH', url, { grade: 6, rubric: pick('Strong', 'Rough'), baseVersion: 0 });
    await inject(teacher, 'POST', `/api/assignments/${assignment.id}/return`, {});
    const changed = await inject(teacher, 'PATCH', url, {
      grade: 6,
      rubric: pick('Weak', 'Clear'),
      baseVersion: 1,
    });
    expect(changed.json<Submission>()).toMatchObject({ held: true, rubricScores: pick('Weak', 'Clear') });
    expect((await own()).json<SubmissionView>().submission!.rubricScores).toEqual(pick('Strong', 'Rough'));
    const returned = await inject(teacher, 'POST', `/api/assignments/${assignment.id}/return`, {});
    expect(returned.json()).toEqual({ returned: 1 });
    expect((await own()).json<SubmissionView>().submission!.rubricScores).toEqual(pick('Weak', 'Clear'));
  });

  it('spells out only returned scores in the data export', async () => {
    const { assignment, work, pick } = await manualWork();
    const exported = async () =>
      (await inject(ada, 'GET', '/api/me/export'))
        .json<{ submissions: Array<{ assignmentId: string; rubric: unknown }> }>()
        .submissions.find((s) => s.assignmentId === assignment.id)!.rubric;
    await inject(teacher, 'PATCH', `/api/submissions/${work.id}`, {
      grade: 10,
      rubric: pick('Strong', 'Clear'),
      baseVersion: 0,
    });
    expect(await exported()).toBeNull();
    await inject(teacher, 'POST', `/api/assignments/${assignment.id}/return`, {});
    expect(await exported()).toEqual([
      { criterion: 'Argument', level: 'Strong', points: 6 },
      { criterion: 'Style', level: 'Clear', points: 4 },
    ]);
  });
});
