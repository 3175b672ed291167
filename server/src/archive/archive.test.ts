import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, type Course } from '@classwave/shared';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import {
  addCoTeacher,
  createAssignment,
  createCourse,
  createStudent,
  createTeacher,
  inDays,
  joinCourse,
  submit,
  type Actor,
} from '../../test/support/factories.js';
import { createUpload, uploadFile } from '../../test/support/uploads.js';
import { jobs } from '../db/schema.js';
import { jobKeys } from '../notifications/reminders.js';

let t: TestApp;
let owner: Actor;
let coTeacher: Actor;
let student: Actor;
beforeAll(async () => {
  t = await createTestApp();
  [owner, coTeacher, student] = await Promise.all([
    createTeacher(t, 'Ada Owner'),
    createTeacher(t, 'Cody Coteacher'),
    createStudent(t, 'Sam Student'),
  ]);
});
afterAll(() => t.close());

const post = (who: Actor, url: string, payload?: object) =>
  t.app.inject({ method: 'POST', url, headers: who.headers, ...(payload ? { payload } : {}) });
const get = (who: Actor, url: string) => t.app.inject({ method: 'GET', url, headers: who.headers });
const ids = (list: Array<{ id: string }>) => list.map((c) => c.id);

/** A course of the owner's, co-taught, with the student in it and an assignment due in a week. */
async function classroom() {
  const course = await createCourse(t, owner);
  await addCoTeacher(t, owner, course, coTeacher);
  await joinCourse(t, student, course);
  const assignment = await createAssignment(t, owner, course, { dueDate: inDays(7) });
  return { course, assignment };
}

describe('POST /api/courses/:id/archive and /unarchive', () => {
  it('moves the course out of both lists into Past classes, and back', async () => {
    const { course } = await classroom();
    const archived = await post(owner, `/api/courses/${course.id}/archive`);
    expect(archived.statusCode, archived.body).toBe(200);
    expect(archived.json<Course>().archivedAt).toEqual(expect.any(String));
    for (const who of [owner, coTeacher, student]) {
      expect(ids((await get(who, '/api/courses')).json())).not.toContain(course.id);
      const past = (await get(who, '/api/courses?archived=true')).json<Course[]>();
      expect(ids(past)).toContain(course.id);
    }
    const back = await post(owner, `/api/courses/${course.id}/unarchive`);
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json<Course>().archivedAt).toBeNull();
    for (const who of [owner, student]) {
      expect(ids((await get(who, '/api/courses')).json())).toContain(course.id);
      expect(ids((await get(who, '/api/courses?archived=true')).json())).not.toContain(course.id);
    }
  });

  it('is the owner’s alone: a co-teacher is refused with 403', async () => {
    const { course } = await classroom();
    const res = await post(coTeacher, `/api/courses/${course.id}/archive`);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toMatch(/owner/);
    expect((await get(owner, `/api/courses/${course.id}`)).json().course.archivedAt).toBeNull();
  });

  it('archiving twice changes nothing the second time', async () => {
    const { course } = await classroom();
    const first = (await post(owner, `/api/courses/${course.id}/archive`)).json<Course>();
    const second = await post(owner, `/api/courses/${course.id}/archive`);
    expect(second.statusCode).toBe(200);
    expect(second.json<Course>().archivedAt).toBe(first.archivedAt);
  });

  it('leaves everything readable: the course, its assignments, the student’s work, the gradebook', async () => {
    const { course, assignment } = await classroom();
    await submit(t, student, assignment);
    await post(owner, `/api/courses/${course.id}/archive`);
    expect((await get(student, `/api/courses/${course.id}`)).statusCode).toBe(200);
    expect((await get(student, `/api/assignments/${assignment.id}/submission`)).statusCode).toBe(200);
    expect((await get(coTeacher, `/api/courses/${course.id}/gradebook`)).statusCode).toBe(200);
    expect((await get(owner, `/api/assignments/${assignment.id}/submissions`)).statusCode).toBe(200);
  });

  it('drops it from the assignment list, the to-do and the calendar', async () => {
    const { course, assignment } = await classroom();
    const calendarUrl = `/api/calendar?from=${inDays(-1)}&to=${inDays(30)}`;
    // Before: there in all three.
    expect(ids((await get(student, '/api/assignments')).json())).toContain(assignment.id);
    expect(JSON.stringify((await get(student, '/api/todo')).json().work)).toContain(assignment.id);
    expect(JSON.stringify((await get(student, calendarUrl)).json())).toContain(assignment.id);
    await post(owner, `/api/courses/${course.id}/archive`);
    const inList = (await get(student, '/api/assignments')).json<Array<{ id: string }>>();
    expect(ids(inList)).not.toContain(assignment.id);
    const todo = (await get(student, '/api/todo')).json<{ work: unknown[] }>();
    expect(JSON.stringify(todo.work)).not.toContain(assignment.id);
    const calendar = await get(student, calendarUrl);
    expect(calendar.statusCode, calendar.body).toBe(200);
    expect(JSON.stringify(calendar.json())).not.toContain(assignment.id);
  });

  it('stops its reminders, and schedules those still ahead again when unarchived', async () => {
    const { course, assignment } = await classroom();
    const keys = [jobKeys.dueSoon(assignment.id), jobKeys.closed(assignment.id)];
    const pending = () => t.app.core.db.select().from(jobs).where(inArray(jobs.key, keys));
    expect(await pending()).toHaveLength(2);
    await post(owner, `/api/courses/${course.id}/archive`);
    expect(await pending()).toHaveLength(0);
    await post(owner, `/api/courses/${course.id}/unarchive`);
    expect(await pending()).toHaveLength(2);
  });
});

describe('an archived course is read-only', () => {
  it('refuses its teachers’ and members’ writes with 409 course_archived, naming the way out', async () => {
    const { course, assignment } = await classroom();
    await post(owner, `/api/courses/${course.id}/archive`);
    const writes: Array<[Actor, 'POST' | 'PATCH' | 'PUT' | 'DELETE', string, object?]> = [
      [owner, 'PATCH', `/api/courses/${course.id}`, { title: 'Renamed' }],
      [coTeacher, 'POST', '/api/assignments', { title: 'More', dueDate: inDays(3), courseId: course.id }],
      [coTeacher, 'PATCH', `/api/assignments/${assignment.id}`, { title: 'Edited' }],
      [owner, 'POST', `/api/courses/${course.id}/posts`, { text: 'Hello' }],
      [student, 'PUT', `/api/assignments/${assignment.id}/draft`, { content: 'x', baseVersion: 0 }],
      [student, 'POST', `/api/assignments/${assignment.id}/submissions`, { content: 'Done' }],
      [student, 'POST', `/api/courses/${course.id}/leave`],
      [owner, 'POST', `/api/courses/${course.id}/lessons`],
    ];
    for (const [who, method, url, payload] of writes) {
      const res = await t.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(409);
      expect(res.json()).toMatchObject({
        code: ErrorCode.courseArchived,
        message: expect.stringMatching(/unarchive/),
      });
    }
    expect((await get(owner, `/api/courses/${course.id}`)).json().course.title).toBe(course.title);
  });

  it('refuses a new upload to it, and a new member joining by its code', async () => {
    const { course, assignment } = await classroom();
    await post(owner, `/api/courses/${course.id}/archive`);
    const upload = await createUpload(
      t,
      owner,
      { purpose: 'assignment', targetId: assignment.id, name: 'a.txt' },
      3,
    );
    expect(upload.statusCode).toBe(409);
    const newcomer = await createStudent(t, 'Late Joiner');
    const joined = await post(newcomer, '/api/courses/join', { code: course.joinCode });
    expect(joined.statusCode, joined.body).toBe(409);
    expect(joined.json().code).toBe(ErrorCode.courseArchived);
  });

  it('tells nobody outside it that it is archived: they get the 404 they always got', async () => {
    const { course, assignment } = await classroom();
    await post(owner, `/api/courses/${course.id}/archive`);
    const [stranger, outsider] = await Promise.all([
      createTeacher(t, 'Stranger'),
      createStudent(t, 'Outsider'),
    ]);
    expect((await post(stranger, `/api/courses/${course.id}/posts`, { text: 'Hi' })).statusCode).toBe(404);
    const draft = await t.app.inject({
      method: 'PUT',
      url: `/api/assignments/${assignment.id}/draft`,
      headers: outsider.headers,
      payload: { content: 'x', baseVersion: 0 },
    });
    expect(draft.statusCode).toBe(404);
  });

  it('takes writes again once unarchived', async () => {
    const { course } = await classroom();
    await post(owner, `/api/courses/${course.id}/archive`);
    await post(owner, `/api/courses/${course.id}/unarchive`);
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/courses/${course.id}`,
      headers: coTeacher.headers,
      payload: { title: 'Back in use' },
    });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('refuses every write route of the API on it, but for the few it allows', async () => {
    // The guard goes by path: walk every write route the OpenAPI document lists and fill its
    // parameters with the archived course's rows, so a route added later is checked too.
    const { course, assignment } = await classroom();
    const sub = await submit(t, student, assignment);
    const fileId = await uploadFile(
      t,
      owner,
      { purpose: 'assignment', targetId: assignment.id, name: 'm.txt' },
      Buffer.from('m'),
    );
    await post(owner, `/api/courses/${course.id}/archive`);
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
      paths: Record<string, Record<string, unknown>>;
    }>();
    const allowed = new Set([
      'POST /api/courses/{id}/archive',
      'POST /api/courses/{id}/unarchive',
      'POST /api/courses/{id}/copy',
      'POST /api/assignments/{id}/copy',
    ]);
    const values: Record<string, string> = {
      '/api/courses/{id}': course.id,
      '/api/assignments/{id}': assignment.id,
      '/api/submissions/{id}': sub.id,
      '/api/files/{id}': fileId,
    };
    const checked: string[] = [];
    for (const [path, methods] of Object.entries(doc.paths)) {
      const prefix = Object.keys(values).find((p) => path === p || path.startsWith(`${p}/`));
      if (!prefix) continue;
      for (const method of Object.keys(methods).map((m) => m.toUpperCase())) {
        if (!['POST', 'PUT', 'PATCH', 'DELETE'].includes(method) || allowed.has(`${method} ${path}`))
          continue;
        const url = path
          .replace(prefix, prefix.replace('{id}', values[prefix]!))
          .replace(/\{\w+\}/g, student.id);
        const res = await t.app.inject({
          method: method as 'POST',
          url,
          headers: owner.headers,
          payload: {},
        });
        // A body the route's schema refuses is a 400 before the rule; any other answer is the rule's 409.
        if (res.statusCode === 400) continue;
        expect(res.statusCode, `${method} ${path}: ${res.body}`).toBe(409);
        checked.push(`${method} ${path}`);
      }
    }
    expect(checked.length).toBeGreaterThan(8);
  });
});
