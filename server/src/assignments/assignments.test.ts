import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Assignment } from '@classwave/shared';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import {
  createAssignment,
  createCourse,
  createStudent,
  joinCourse,
  createTeacher,
  inDays,
  submit,
  type Actor,
} from '../../test/support/factories.js';

let t: TestApp;
let teacher: Actor;
let otherTeacher: Actor;
let student: Actor;
beforeAll(async () => {
  t = await createTestApp();
  [teacher, otherTeacher, student] = await Promise.all([
    createTeacher(t),
    createTeacher(t, 'Other Teacher'),
    createStudent(t),
  ]);
});
afterAll(() => t.close());

const list = async (actor: Actor): Promise<Assignment[]> =>
  (await t.app.inject({ method: 'GET', url: '/api/assignments', headers: actor.headers })).json();

describe('POST /api/assignments', () => {
  it('creates an assignment with the default 100 points and the course title', async () => {
    const course = await createCourse(t, teacher, { title: 'Physics' });
    const dueDate = inDays(5);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/assignments',
      headers: teacher.headers,
      payload: { title: 'Lab 1', dueDate, courseId: course.id },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      title: 'Lab 1',
      description: '',
      maxPoints: 100,
      courseTitle: 'Physics',
      dueDate,
      submission: null,
      submissionCount: 0,
    });
  });

  it.each([
    [{ maxPoints: 0 }, 'maxPoints'],
    [{ maxPoints: -5 }, 'maxPoints'],
    [{ maxPoints: 12.5 }, 'maxPoints'],
    [{ maxPoints: '100' }, 'maxPoints'],
    [{ maxPoints: 1e9 }, 'maxPoints'],
    [{ dueDate: 'tomorrow' }, 'dueDate'],
    [{ dueDate: '' }, 'dueDate'],
    [{ title: '' }, 'title'],
    [{ courseId: 'not-a-uuid' }, 'courseId'],
    [{ description: 'x'.repeat(10_001) }, 'description'],
  ])('refuses %o naming %s', async (change, field) => {
    const course = await createCourse(t, teacher);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/assignments',
      headers: teacher.headers,
      payload: { title: 'A', dueDate: inDays(1), courseId: course.id, ...change },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(field);
  });

  it('answers 404 for a course that does not exist', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/assignments',
      headers: teacher.headers,
      payload: { title: 'A', dueDate: inDays(1), courseId: '00000000-0000-4000-8000-000000000000' },
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('GET /api/assignments', () => {
  it("gives a teacher only their own courses' assignments, by due date, with submission counts", async () => {
    const mine = await createCourse(t, teacher);
    const theirs = await createCourse(t, otherTeacher);
    const late = await createAssignment(t, teacher, mine, { dueDate: inDays(20) });
    const soon = await createAssignment(t, teacher, mine, { dueDate: inDays(1) });
    const foreign = await createAssignment(t, otherTeacher, theirs);
    await joinCourse(t, student, mine);
    await submit(t, student, soon);
    const ids = (await list(teacher)).map((a) => a.id);
    expect(ids).toContain(late.id);
    expect(ids.indexOf(soon.id)).toBeLessThan(ids.indexOf(late.id));
    expect(ids).not.toContain(foreign.id);
    expect((await list(teacher)).find((a) => a.id === soon.id)).toMatchObject({
      submissionCount: 1,
      submission: null,
    });
  });

  it("gives a student their courses' assignments with their own submission and grade", async () => {
    const course = await createCourse(t, otherTeacher);
    await joinCourse(t, student, course);
    const graded = await createAssignment(t, otherTeacher, course, { maxPoints: 20 });
    const open = await createAssignment(t, otherTeacher, course);
    const own = await submit(t, student, graded, 'Answer');
    await t.app.inject({
      method: 'PATCH',
      url: `/api/submissions/${own.id}`,
      headers: otherTeacher.headers,
      payload: { grade: 17, feedback: 'Good', baseVersion: 0 },
    });
    const seen = await list(student);
    expect(seen.find((a) => a.id === graded.id)).toMatchObject({
      submission: { id: own.id, grade: 17, feedback: 'Good' },
      submissionCount: null,
    });
    expect(seen.find((a) => a.id === open.id)?.submission).toBeNull();
  });
});

describe('POST /api/assignments/samples', () => {
  it('puts 50, 100 and 150 point assignments due in the future in a new sandbox course, never a class', async () => {
    const course = await createCourse(t, teacher);
    await joinCourse(t, student, course);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/assignments/samples',
      headers: teacher.headers,
    });
    expect(res.statusCode).toBe(201);
    const samples: Assignment[] = res.json();
    expect(samples.map((a) => a.maxPoints)).toEqual([50, 100, 150]);
    const [sandboxId, ...others] = new Set(samples.map((a) => a.courseId));
    expect(others).toEqual([]);
    expect(sandboxId).not.toBe(course.id);
    for (const a of samples) expect(new Date(a.dueDate).getTime()).toBeGreaterThan(Date.now());
    const theirs = await t.app.inject({ method: 'GET', url: '/api/assignments', headers: student.headers });
    expect(theirs.json<Assignment[]>().map((a) => a.id)).not.toContain(samples[0]!.id);
  });

  it('needs no course of the teacher first', async () => {
    const newcomer = await createTeacher(t, 'New Teacher');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/assignments/samples',
      headers: newcomer.headers,
    });
    expect(res.statusCode).toBe(201);
  });

  it("makes them due at 23:59 in the teacher's time zone", async () => {
    const abroad = await createTeacher(t, 'Far Away Teacher');
    await createCourse(t, abroad);
    for (const zone of ['Asia/Tokyo', 'America/Los_Angeles']) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/assignments/samples?timeZone=${encodeURIComponent(zone)}`,
        headers: abroad.headers,
      });
      expect(res.statusCode).toBe(201);
      for (const a of res.json() as Assignment[]) {
        const wall = new Intl.DateTimeFormat('en-GB', {
          timeZone: zone,
          hour: '2-digit',
          minute: '2-digit',
          hourCycle: 'h23',
        }).format(new Date(a.dueDate));
        expect(wall).toBe('23:59');
      }
    }
  });

  it('refuses a time zone that does not exist, naming it', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/assignments/samples?timeZone=Mars%2FOlympus_Mons',
      headers: teacher.headers,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('timeZone');
  });
});

describe('DELETE /api/assignments/:id', () => {
  it('deletes the assignment together with its submissions', async () => {
    const course = await createCourse(t, teacher);
    const assignment = await createAssignment(t, teacher, course);
    await joinCourse(t, student, course);
    await submit(t, student, assignment);
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/assignments/${assignment.id}`,
      headers: teacher.headers,
    });
    expect(res.statusCode).toBe(204);
    expect((await list(student)).map((a) => a.id)).not.toContain(assignment.id);
    const subs = await t.app.inject({
      method: 'GET',
      url: `/api/assignments/${assignment.id}/submissions`,
      headers: teacher.headers,
    });
    expect(subs.statusCode).toBe(404);
    // With its assignment gone, the course can be deleted: no submission was left behind.
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/courses/${course.id}`, headers: teacher.headers }))
        .statusCode,
    ).toBe(204);
  });
});
