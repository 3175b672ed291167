import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Assignment, Course, OwnSubmission } from '@classwave/shared';
import { bearer, createTestApp, type TestApp } from './test/app.js';
import {
  createAssignment,
  createCourse,
  createStudent,
  createTeacher,
  inDays,
  submit,
  type Actor,
} from './test/factories.js';

/**
 * Who may do what (spec §6, DESIGN §6): every teaching endpoint × every kind of caller → the
 * status the server answers, whatever the client sends. Each row acts on fresh data of its own.
 */
let t: TestApp;
let owner: Actor;
let otherTeacher: Actor;
let studentA: Actor;
let studentB: Actor;
let signedOut: { headers: { authorization: string } };

beforeAll(async () => {
  t = await createTestApp();
  [owner, otherTeacher, studentA, studentB] = await Promise.all([
    createTeacher(t, 'Owner Teacher'),
    createTeacher(t, 'Other Teacher'),
    createStudent(t, 'Student A'),
    createStudent(t, 'Student B'),
  ]);
  const gone = await createStudent(t, 'Gone Student');
  await t.app.inject({ method: 'POST', url: '/api/auth/signout', headers: gone.headers });
  signedOut = { headers: bearer(gone.token) };
});
afterAll(() => t.close());

type Who = 'anonymous' | 'signedOut' | 'studentA' | 'studentB' | 'owner' | 'otherTeacher';
const headersOf = (who: Who) =>
  ({
    anonymous: {},
    signedOut: signedOut.headers,
    studentA: studentA.headers,
    studentB: studentB.headers,
    owner: owner.headers,
    otherTeacher: otherTeacher.headers,
  })[who];

interface Fixture {
  course: Course;
  assignment: Assignment;
  /** Student A's submission to `assignment`. */
  submission: OwnSubmission;
  /** A course of the owner's with no assignments, which may be deleted. */
  emptyCourse: Course;
}
async function fixture(): Promise<Fixture> {
  const own = await createCourse(t, owner);
  const assignment = await createAssignment(t, owner, own, { maxPoints: 10 });
  const submission = await submit(t, studentA, assignment);
  return { course: own, assignment, submission, emptyCourse: await createCourse(t, owner) };
}

interface Row {
  endpoint: string;
  request: (f: Fixture) => { method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; url: string; payload?: object };
  expected: Record<Who, number>;
}

const everyoneSignedIn = (status: number) => ({
  anonymous: 401,
  signedOut: 401,
  studentA: status,
  studentB: status,
  owner: status,
  otherTeacher: status,
});

const table: Row[] = [
  {
    endpoint: 'GET /api/me',
    request: () => ({ method: 'GET', url: '/api/me' }),
    expected: everyoneSignedIn(200),
  },
  {
    endpoint: 'GET /api/courses',
    request: () => ({ method: 'GET', url: '/api/courses' }),
    expected: everyoneSignedIn(200),
  },
  {
    endpoint: 'GET /api/courses/:id',
    request: (f) => ({ method: 'GET', url: `/api/courses/${f.course.id}` }),
    expected: everyoneSignedIn(200),
  },
  {
    endpoint: 'GET /api/assignments',
    request: () => ({ method: 'GET', url: '/api/assignments' }),
    expected: everyoneSignedIn(200),
  },
  {
    endpoint: 'GET /api/dashboard',
    request: () => ({ method: 'GET', url: '/api/dashboard' }),
    expected: everyoneSignedIn(200),
  },
  {
    endpoint: 'GET /api/events',
    request: () => ({ method: 'GET', url: '/api/events?after=0' }),
    expected: everyoneSignedIn(200),
  },
  {
    endpoint: 'POST /api/courses',
    request: () => ({
      method: 'POST',
      url: '/api/courses',
      payload: { title: 'T', code: 'C1', description: 'D' },
    }),
    expected: { anonymous: 401, signedOut: 401, studentA: 403, studentB: 403, owner: 201, otherTeacher: 201 },
  },
  {
    endpoint: 'POST /api/courses/samples',
    request: () => ({ method: 'POST', url: '/api/courses/samples' }),
    expected: { anonymous: 401, signedOut: 401, studentA: 403, studentB: 403, owner: 201, otherTeacher: 201 },
  },
  {
    endpoint: 'DELETE /api/courses/:id (no assignments)',
    request: (f) => ({ method: 'DELETE', url: `/api/courses/${f.emptyCourse.id}` }),
    expected: { anonymous: 401, signedOut: 401, studentA: 403, studentB: 403, owner: 204, otherTeacher: 403 },
  },
  {
    endpoint: 'POST /api/assignments',
    request: (f) => ({
      method: 'POST',
      url: '/api/assignments',
      payload: { title: 'A', dueDate: inDays(3), courseId: f.course.id },
    }),
    expected: { anonymous: 401, signedOut: 401, studentA: 403, studentB: 403, owner: 201, otherTeacher: 403 },
  },
  {
    endpoint: 'POST /api/assignments/samples',
    request: () => ({ method: 'POST', url: '/api/assignments/samples' }),
    expected: { anonymous: 401, signedOut: 401, studentA: 403, studentB: 403, owner: 201, otherTeacher: 201 },
  },
  {
    endpoint: 'DELETE /api/assignments/:id',
    request: (f) => ({ method: 'DELETE', url: `/api/assignments/${f.assignment.id}` }),
    expected: { anonymous: 401, signedOut: 401, studentA: 403, studentB: 403, owner: 204, otherTeacher: 403 },
  },
  {
    endpoint: 'GET /api/assignments/:id/submissions',
    request: (f) => ({ method: 'GET', url: `/api/assignments/${f.assignment.id}/submissions` }),
    expected: { anonymous: 401, signedOut: 401, studentA: 403, studentB: 403, owner: 200, otherTeacher: 403 },
  },
  {
    endpoint: 'POST /api/assignments/:id/submissions',
    request: (f) => ({
      method: 'POST',
      url: `/api/assignments/${f.assignment.id}/submissions`,
      payload: { content: 'Hi' },
    }),
    // Student A has submitted already: 409. Student B may submit.
    expected: { anonymous: 401, signedOut: 401, studentA: 409, studentB: 201, owner: 403, otherTeacher: 403 },
  },
  {
    endpoint: 'PATCH /api/submissions/:id',
    request: (f) => ({ method: 'PATCH', url: `/api/submissions/${f.submission.id}`, payload: { grade: 7 } }),
    expected: { anonymous: 401, signedOut: 401, studentA: 403, studentB: 403, owner: 200, otherTeacher: 403 },
  },
];

describe.each(table)('$endpoint', ({ request, expected }) => {
  it.each(Object.entries(expected) as Array<[Who, number]>)('answers %s with %i', async (who, status) => {
    const f = await fixture();
    const res = await t.app.inject({ ...request(f), headers: headersOf(who) });
    expect(res.statusCode, res.body).toBe(status);
    if (status >= 400)
      expect(res.json()).toMatchObject({
        statusCode: status,
        code: expect.any(String),
        message: expect.any(String),
      });
  });
});

describe('what a refused request leaves behind', () => {
  it('a student cannot grade their own submission, nor set a grade while submitting', async () => {
    const f = await fixture();
    const grade = await t.app.inject({
      method: 'PATCH',
      url: `/api/submissions/${f.submission.id}`,
      headers: studentA.headers,
      payload: { grade: 10 },
    });
    expect(grade.statusCode).toBe(403);
    const sneaky = await t.app.inject({
      method: 'POST',
      url: `/api/assignments/${f.assignment.id}/submissions`,
      headers: studentB.headers,
      payload: { content: 'x', grade: 10 },
    });
    expect(sneaky.statusCode).toBe(400);
    expect(sneaky.json().message).toContain('grade');
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/assignments/${f.assignment.id}/submissions`,
      headers: owner.headers,
    });
    expect(list.json().map((s: { grade: number | null }) => s.grade)).toEqual([null]);
  });

  it('a course cannot be given to another teacher, nor a submission to another student', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/courses',
      headers: owner.headers,
      payload: { title: 'Mine', code: 'MI1', description: 'D', teacherId: otherTeacher.id },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('teacherId');
    const f = await fixture();
    const forged = await t.app.inject({
      method: 'POST',
      url: `/api/assignments/${f.assignment.id}/submissions`,
      headers: studentB.headers,
      payload: { content: 'x', studentId: studentA.id },
    });
    expect(forged.statusCode).toBe(400);
  });

  it("a student's assignment list shows only their own submission", async () => {
    const f = await fixture();
    const res = await t.app.inject({ method: 'GET', url: '/api/assignments', headers: studentB.headers });
    const mine = res.json().find((a: Assignment) => a.id === f.assignment.id);
    expect(mine.submission).toBeNull();
    const theirs = (await t.app.inject({ method: 'GET', url: '/api/assignments', headers: studentA.headers }))
      .json()
      .find((a: Assignment) => a.id === f.assignment.id);
    expect(theirs.submission.id).toBe(f.submission.id);
    expect(JSON.stringify(res.json())).not.toContain(f.submission.id);
  });
});

/** Routes anyone may call: they are tested in auth/*.test.ts and app.test.ts. */
const PUBLIC_ROUTES = [
  'GET /api/health',
  'POST /api/auth/signup',
  'GET /api/auth/verify',
  'POST /api/auth/resend',
  'POST /api/auth/signin',
  'POST /api/auth/refresh',
  'POST /api/auth/signout',
];

describe('the permission table', () => {
  it('has a row for every signed-in route the API serves', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, object>;
    };
    const served = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
    );
    const covered = new Set([...PUBLIC_ROUTES, ...table.map((row) => row.endpoint.replace(/ \(.*\)$/, ''))]);
    expect(served.filter((route) => !covered.has(route))).toEqual([]);
    expect(served.length).toBeGreaterThan(15);
  });
});
