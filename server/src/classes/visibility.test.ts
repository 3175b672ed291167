import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Assignment, Course } from '@classwave/shared';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import {
  createAssignment,
  createCourse,
  createStudent,
  createTeacher,
  joinCourse,
  type Actor,
} from '../../test/support/factories.js';

/**
 * Nobody sees a class they are not in (DESIGN §11): a student who never joined, one who left, one
 * who was removed, and a member of another course get nothing of it from any read, and 404 (never
 * 403) where they name it.
 */
let t: TestApp;
let teacher: Actor;
let course: Course;
let assignment: Assignment;
let member: Actor;
const outsiders: Record<string, Actor> = {};
beforeAll(async () => {
  t = await createTestApp();
  teacher = await createTeacher(t);
  course = await createCourse(t, teacher, { title: 'Private class' });
  assignment = await createAssignment(t, teacher, course, {
    title: 'Private work',
    dueDate: new Date(Date.now() + 86400000).toISOString(),
  });
  const other = await createCourse(t, teacher, { title: 'Other class' });
  const [m, never, left, removed, elsewhere] = await Promise.all([
    createStudent(t, 'Member'),
    createStudent(t, 'Never'),
    createStudent(t, 'Left'),
    createStudent(t, 'Removed'),
    createStudent(t, 'Elsewhere'),
  ]);
  member = m!;
  await Promise.all([
    joinCourse(t, member, course),
    joinCourse(t, left!, course),
    joinCourse(t, removed!, course),
    joinCourse(t, elsewhere!, other),
  ]);
  await t.app.inject({ method: 'POST', url: `/api/courses/${course.id}/leave`, headers: left!.headers });
  await t.app.inject({
    method: 'DELETE',
    url: `/api/courses/${course.id}/members/${removed!.id}`,
    headers: teacher.headers,
  });
  Object.assign(outsiders, {
    never,
    left,
    removed,
    elsewhere,
    otherTeacher: await createTeacher(t, 'Other'),
  });
});
afterAll(() => t.close());

const get = (actor: Actor, url: string) => t.app.inject({ method: 'GET', url, headers: actor.headers });

describe.each(['never', 'left', 'removed', 'elsewhere', 'otherTeacher'])('a caller who is %s', (who) => {
  const actor = () => outsiders[who]!;

  it('does not find the course in GET /api/courses, and gets 404 for it by id', async () => {
    const list: Course[] = (await get(actor(), '/api/courses')).json();
    expect(list.map((c) => c.id)).not.toContain(course.id);
    const res = await get(actor(), `/api/courses/${course.id}`);
    expect(res.statusCode).toBe(404);
  });

  it('does not see its assignments, nor count them on the dashboard', async () => {
    const list: Assignment[] = (await get(actor(), '/api/assignments')).json();
    expect(list.map((a) => a.id)).not.toContain(assignment.id);
    const dashboard = (await get(actor(), '/api/dashboard')).json();
    expect(dashboard.upcomingEvents.map((e: { id: string }) => e.id)).not.toContain(assignment.id);
  });

  it('gets 404 for its submissions and its roster', async () => {
    expect((await get(actor(), `/api/assignments/${assignment.id}/submissions`)).statusCode).toBe(404);
    expect((await get(actor(), `/api/courses/${course.id}/members`)).statusCode).toBe(404);
  });
});

describe('submitting', () => {
  const post = (actor: Actor) =>
    t.app.inject({
      method: 'POST',
      url: `/api/assignments/${assignment.id}/submissions`,
      headers: actor.headers,
      payload: { content: 'Let me in' },
    });

  it('answers 404 to a student who was never a member, and to a member of another course', async () => {
    for (const who of ['never', 'elsewhere']) expect((await post(outsiders[who]!)).statusCode).toBe(404);
  });

  it('answers 403 not_a_member to a former member (left or removed)', async () => {
    for (const who of ['left', 'removed']) {
      const res = await post(outsiders[who]!);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'not_a_member' });
    }
  });

  it('lets the active member see and submit', async () => {
    expect((await get(member, '/api/assignments')).json().map((a: Assignment) => a.id)).toContain(
      assignment.id,
    );
    const detail = await get(member, `/api/courses/${course.id}`);
    expect(detail.json().assignments.map((a: Assignment) => a.id)).toEqual([assignment.id]);
    expect((await post(member)).statusCode).toBe(201);
    const dashboard = (await get(member, '/api/dashboard')).json();
    expect(dashboard.stats.totalCourses).toBe(1);
  });
});
