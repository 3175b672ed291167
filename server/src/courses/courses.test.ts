import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Course } from '@classwave/shared';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import { SAMPLE_COURSES } from './samples.js';
import {
  createAssignment,
  createCourse,
  createStudent,
  joinCourse,
  createTeacher,
  inDays,
  type Actor,
} from '../../test/support/factories.js';

let t: TestApp;
let teacher: Actor;
let student: Actor;
beforeAll(async () => {
  t = await createTestApp();
  [teacher, student] = await Promise.all([createTeacher(t, 'Grace Hopper'), createStudent(t)]);
});
afterAll(() => t.close());

describe('POST /api/courses', () => {
  it('creates a course owned by the teacher, trimmed, with the teacher joined', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/courses',
      headers: teacher.headers,
      payload: { title: '  Compilers ', code: 'CS401', description: 'Parsing and code generation.' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      title: 'Compilers',
      code: 'CS401',
      teacherId: teacher.id,
      teacher: { id: teacher.id, fullName: 'Grace Hopper' },
    });
  });

  it.each([
    [{ title: '', code: 'X1', description: 'D' }, 'title'],
    [{ title: '   ', code: 'X1', description: 'D' }, 'title'],
    [{ title: 'T', code: 'X'.repeat(21), description: 'D' }, 'code'],
    [{ title: 'T', code: 'X1' }, 'description'],
    [{ title: 'T'.repeat(201), code: 'X1', description: 'D' }, 'title'],
    [{ title: 42, code: 'X1', description: 'D' }, 'title'],
  ])('refuses %o naming %s, writing nothing', async (payload, field) => {
    const before = (
      await t.app.inject({ method: 'GET', url: '/api/courses', headers: teacher.headers })
    ).json().length;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/courses',
      headers: teacher.headers,
      payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(field);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/courses', headers: teacher.headers })).json(),
    ).toHaveLength(before);
  });
});

describe('GET /api/courses', () => {
  it("lists a student's joined courses, newest first, without their codes", async () => {
    const first = await createCourse(t, teacher, { title: 'First' });
    const second = await createCourse(t, teacher, { title: 'Second' });
    const notJoined = await createCourse(t, teacher, { title: 'Not joined' });
    await joinCourse(t, student, first);
    await joinCourse(t, student, second);
    const res = await t.app.inject({ method: 'GET', url: '/api/courses', headers: student.headers });
    const courses: Course[] = res.json();
    const ids = courses.map((c) => c.id);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
    expect(ids.indexOf(first.id)).toBeGreaterThanOrEqual(0);
    expect(ids).not.toContain(notJoined.id);
    expect(courses.every((c) => c.joinCode === null)).toBe(true);
  });

  it('gives a teacher only their own courses, each with its join code', async () => {
    const mine = await createCourse(t, teacher);
    const other = await createTeacher(t, 'Other Teacher');
    const theirs = await createCourse(t, other);
    const courses: Course[] = (
      await t.app.inject({ method: 'GET', url: '/api/courses', headers: teacher.headers })
    ).json();
    expect(courses.map((c) => c.id)).toContain(mine.id);
    expect(courses.map((c) => c.id)).not.toContain(theirs.id);
    expect(courses.find((c) => c.id === mine.id)?.joinCode).toMatch(
      /^[A-HJKMNP-Z2-9]{4}-[A-HJKMNP-Z2-9]{4}$/,
    );
  });
});

describe('course codes', () => {
  it('are trimmed and upper-cased, and one teacher cannot use a code twice (in any case)', async () => {
    const teacher = await createTeacher(t, 'Careful Teacher');
    const first = await createCourse(t, teacher, { code: '  bio101 ' });
    expect(first.code).toBe('BIO101');
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/courses',
      headers: teacher.headers,
      payload: { title: 'Biology again', code: 'Bio101', description: 'A second try.' },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: 'conflict',
      message: 'You already have a course with the code BIO101.',
    });
    const mine = (
      await t.app.inject({ method: 'GET', url: '/api/courses', headers: teacher.headers })
    ).json();
    expect(mine.map((c: Course) => c.title)).not.toContain('Biology again');
    // Another teacher's BIO101 is their own business.
    const colleague = await createTeacher(t, 'Colleague');
    expect((await createCourse(t, colleague, { code: 'BIO101' })).code).toBe('BIO101');
  });

  it('two tabs creating the same code at once make one course', async () => {
    const teacher = await createTeacher(t, 'Quick Teacher');
    const send = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/courses',
        headers: teacher.headers,
        payload: { title: 'Twice', code: 'TW100', description: 'Double click.' },
      });
    const statuses = (await Promise.all([send(), send(), send()])).map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, 409, 409]);
  });
});

describe('POST /api/courses/samples', () => {
  it('never repeats a title or a code the teacher already has, however often it is pressed', async () => {
    const keen = await createTeacher(t, 'Keen Teacher');
    await createCourse(t, keen, { title: 'Introduction to Biology (sample)', code: 'BI100' });
    for (let i = 0; i < 12; i++) {
      const res = await t.app.inject({ method: 'POST', url: '/api/courses/samples', headers: keen.headers });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toHaveLength(1);
    }
    const mine: Course[] = (
      await t.app.inject({ method: 'GET', url: '/api/courses', headers: keen.headers })
    ).json();
    expect(mine).toHaveLength(13);
    expect(new Set(mine.map((c) => c.title)).size).toBe(13);
    expect(new Set(mine.map((c) => c.code)).size).toBe(13);
  });

  it('makes one new sandbox course, with no students, holding the three sample assignments', async () => {
    await joinCourse(t, student, await createCourse(t, teacher));
    const res = await t.app.inject({ method: 'POST', url: '/api/courses/samples', headers: teacher.headers });
    expect(res.statusCode).toBe(201);
    const [sandbox, ...more] = res.json<Course[]>();
    expect(more).toEqual([]);
    expect(sandbox!.code).toMatch(/^[A-Z]{2}([1-3]\d\d|4\d\d)$/);
    expect(sandbox!.title).toMatch(/ \(sample\)$/);
    expect(sandbox!.description).toMatch(/^Sample course: no students until you share its code\./);
    const detail = (
      await t.app.inject({ method: 'GET', url: `/api/courses/${sandbox!.id}`, headers: teacher.headers })
    ).json<{ assignments: Array<{ maxPoints: number }> }>();
    expect(detail.assignments.map((a) => a.maxPoints)).toEqual([50, 100, 150]);
    const members = await t.app.inject({
      method: 'GET',
      url: `/api/courses/${sandbox!.id}/members`,
      headers: teacher.headers,
    });
    expect(members.json()).toEqual([]);
    // The teacher's real class hears nothing of it: no course, no assignment, no notification.
    const seen = await Promise.all(
      ['/api/courses', '/api/assignments', '/api/notifications'].map(
        async (url) => (await t.app.inject({ method: 'GET', url, headers: student.headers })).body,
      ),
    );
    for (const body of seen) expect(body).not.toContain(sandbox!.id);
    expect(SAMPLE_COURSES.map((c) => c.title)).toContain(sandbox!.title.replace(/ \(sample\)$/, ''));
  });
});

describe('GET /api/courses/:id', () => {
  it('returns the course with its assignments by due date', async () => {
    const course = await createCourse(t, teacher);
    const later = await createAssignment(t, teacher, course, { title: 'Later', dueDate: inDays(9) });
    const sooner = await createAssignment(t, teacher, course, { title: 'Sooner', dueDate: inDays(2) });
    await joinCourse(t, student, course);
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/courses/${course.id}`,
      headers: student.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().course).toMatchObject({ id: course.id, teacher: { fullName: 'Grace Hopper' } });
    expect(res.json().assignments.map((a: { id: string }) => a.id)).toEqual([sooner.id, later.id]);
  });

  it('answers 404 for an unknown course and 400 for a malformed id', async () => {
    const missing = await t.app.inject({
      method: 'GET',
      url: '/api/courses/00000000-0000-4000-8000-000000000000',
      headers: student.headers,
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('Course not found.');
    const bad = await t.app.inject({
      method: 'GET',
      url: "/api/courses/1' or '1'='1",
      headers: student.headers,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('id');
  });
});

describe('DELETE /api/courses/:id', () => {
  it('deletes an own course without assignments', async () => {
    const course = await createCourse(t, teacher);
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/courses/${course.id}`,
      headers: teacher.headers,
    });
    expect(res.statusCode).toBe(204);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/courses/${course.id}`, headers: teacher.headers }))
        .statusCode,
    ).toBe(404);
  });

  it('refuses with 409 while the course has assignments, says how many, and keeps everything', async () => {
    const course = await createCourse(t, teacher);
    const assignment = await createAssignment(t, teacher, course);
    const other = await createAssignment(t, teacher, course);
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/courses/${course.id}`,
      headers: teacher.headers,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'conflict',
      message: 'It has 2 assignments. Delete them first.',
    });
    const detail = await t.app.inject({
      method: 'GET',
      url: `/api/courses/${course.id}`,
      headers: teacher.headers,
    });
    expect(
      detail
        .json()
        .assignments.map((a: { id: string }) => a.id)
        .sort(),
    ).toEqual([assignment.id, other.id].sort());
  });
});
