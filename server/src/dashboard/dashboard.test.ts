import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Course } from '@classwave/shared';
import { liveClasses } from '../db/schema.js';
import { createTestApp, type TestApp } from '../../test/support/app.js';
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

/** A database of its own, so every figure is known. */
let t: TestApp;
let teacher: Actor;
let other: Actor;
let student: Actor;
let algebraCourse: Course;
let artCourse: Course;
beforeAll(async () => {
  t = await createTestApp();
  [teacher, other, student] = await Promise.all([
    createTeacher(t),
    createTeacher(t, 'Other Teacher'),
    createStudent(t),
  ]);
  const algebra = await createCourse(t, teacher, { title: 'Algebra' });
  await createCourse(t, teacher, { title: 'Geometry' });
  const art = await createCourse(t, other, { title: 'Art' });
  [algebraCourse, artCourse] = [algebra, art];
  await createAssignment(t, teacher, algebra, { title: 'Past', dueDate: inDays(-1) });
  await createAssignment(t, teacher, algebra, { title: 'In three days', dueDate: inDays(3) });
  await createAssignment(t, teacher, algebra, { title: 'In one day', dueDate: inDays(1) });
  await createAssignment(t, other, art, { title: 'Sketch', dueDate: inDays(2) });
  for (let i = 0; i < 4; i++)
    await createAssignment(t, other, art, { title: `Later ${i}`, dueDate: inDays(10 + i) });
  // The student is in Algebra and Art only: a course they never joined, and one they left, count for nothing.
  const secret = await createCourse(t, other, { title: 'Secret' });
  await createAssignment(t, other, secret, { title: 'Hidden', dueDate: inDays(0.2) });
  const left = await createCourse(t, other, { title: 'Left' });
  await createAssignment(t, other, left, { title: 'Gone', dueDate: inDays(0.3) });
  await Promise.all([
    joinCourse(t, student, algebra),
    joinCourse(t, student, art),
    joinCourse(t, student, left),
  ]);
  await t.app.inject({ method: 'POST', url: `/api/courses/${left.id}/leave`, headers: student.headers });
  await t.app.core.database.db.insert(liveClasses).values([
    { title: 'Algebra review', scheduledAt: new Date(inDays(2.5)), courseId: algebra.id },
    { title: 'Orphan session', scheduledAt: new Date(inDays(0.5)), courseId: null },
    { title: 'Yesterday', scheduledAt: new Date(inDays(-1)), courseId: algebra.id },
  ]);
});
afterAll(() => t.close());

const dashboardOf = async (actor: Actor) =>
  (await t.app.inject({ method: 'GET', url: '/api/dashboard', headers: actor.headers })).json();

describe('GET /api/dashboard', () => {
  it("counts a teacher's own courses and future assignments, with their classes", async () => {
    const d = await dashboardOf(teacher);
    expect(d.stats).toEqual({ totalCourses: 2, activeAssignments: 2, upcomingClasses: 1, teamMembers: 0 });
    expect(
      d.upcomingEvents.map((e: { title: string; type: string; courseTitle: string }) => [
        e.title,
        e.type,
        e.courseTitle,
      ]),
    ).toEqual([
      ['In one day', 'assignment', 'Algebra'],
      ['Algebra review', 'class', 'Algebra'],
      ['In three days', 'assignment', 'Algebra'],
    ]);
  });

  it('counts what a student sees (their courses only) and caps the merged events at five, soonest first', async () => {
    const d = await dashboardOf(student);
    expect(d.stats).toEqual({ totalCourses: 2, activeAssignments: 7, upcomingClasses: 2, teamMembers: 0 });
    expect(d.upcomingEvents.map((e: { title: string }) => e.title)).toEqual([
      'Orphan session',
      'In one day',
      'Sketch',
      'Algebra review',
      'In three days',
    ]);
    // A class without a course falls back to 'Unknown Course'.
    expect(d.upcomingEvents[0]).toMatchObject({ type: 'class', courseTitle: 'Unknown Course' });
  });

  it("leaves a student's submitted work out of their active figure and their upcoming events", async () => {
    const diligent = await createStudent(t, 'Diligent Student');
    await Promise.all([joinCourse(t, diligent, algebraCourse), joinCourse(t, diligent, artCourse)]);
    const before = await dashboardOf(diligent);
    const inOneDay = (
      await t.app.inject({ method: 'GET', url: '/api/assignments', headers: diligent.headers })
    )
      .json()
      .find((a: { title: string }) => a.title === 'In one day');
    await submit(t, diligent, inOneDay);
    const after = await dashboardOf(diligent);
    expect(after.stats.activeAssignments).toBe(before.stats.activeAssignments - 1);
    expect(after.upcomingEvents.map((e: { title: string }) => e.title)).not.toContain('In one day');
    // The teacher's figure counts the assignment whoever has submitted.
    expect((await dashboardOf(teacher)).stats.activeAssignments).toBe(2);
  });
});
