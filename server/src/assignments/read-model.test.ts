import type { Assignment, Course } from '@classwave/shared';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.js';
import { DomainEventBus } from '../events.js';
import { createTestApp, openTestDatabase, type TestApp } from '../test/app.js';
import { createAssignmentReadModel } from './read-model.js';
import {
  createAssignment,
  createCourse,
  createStudent,
  createTeacher,
  inDays,
  joinCourse,
  submit,
  type Actor,
} from '../test/factories.js';

const apps: TestApp[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((t) => t.close()));
});

async function listOf(t: TestApp, student: Actor): Promise<Assignment[]> {
  const res = await t.app.inject({ url: '/api/assignments', headers: student.headers });
  expect(res.statusCode).toBe(200);
  return res.json();
}

async function courseListOf(t: TestApp, student: Actor, course: Course): Promise<Assignment[]> {
  const res = await t.app.inject({ url: `/api/courses/${course.id}`, headers: student.headers });
  expect(res.statusCode).toBe(200);
  return (res.json() as { assignments: Assignment[] }).assignments;
}

async function patch(t: TestApp, actor: Actor, url: string, payload: object) {
  const res = await t.app.inject({ method: 'PATCH', url, headers: actor.headers, payload });
  expect(res.statusCode, res.body).toBe(200);
}

describe("a student's assignment lists, from the read model", () => {
  it('follow every change a teacher or the student makes, though the shared part is kept in memory', async () => {
    const t = await createTestApp();
    apps.push(t);
    const teacher = await createTeacher(t);
    const student = await createStudent(t);
    const algebra = await createCourse(t, teacher, { title: 'Algebra' });
    const poetry = await createCourse(t, teacher, { title: 'Poetry' });
    await joinCourse(t, student, algebra);
    await joinCourse(t, student, poetry);
    const later = await createAssignment(t, teacher, algebra, { title: 'Later', dueDate: inDays(9) });
    const sooner = await createAssignment(t, teacher, poetry, { title: 'Sooner', dueDate: inDays(2) });
    expect((await listOf(t, student)).map((a) => a.title)).toEqual(['Sooner', 'Later']);
    expect((await courseListOf(t, student, algebra)).map((a) => a.title)).toEqual(['Later']);

    // Both courses' rows are cached now: each change below must show on the next read.
    const added = await createAssignment(t, teacher, algebra, { title: 'Added', dueDate: inDays(1) });
    expect((await listOf(t, student)).map((a) => a.title)).toEqual(['Added', 'Sooner', 'Later']);

    await patch(t, teacher, `/api/assignments/${later.id}`, { title: 'Renamed', dueDate: inDays(3) });
    await patch(t, teacher, `/api/courses/${poetry.id}`, { title: 'Poetry II' });
    let list = await listOf(t, student);
    expect(list.map((a) => [a.title, a.courseTitle])).toEqual([
      ['Added', 'Algebra'],
      ['Sooner', 'Poetry II'],
      ['Renamed', 'Algebra'],
    ]);
    expect(await courseListOf(t, student, algebra)).toEqual(list.filter((a) => a.courseId === algebra.id));

    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/assignments/${added.id}`,
      headers: teacher.headers,
    });
    expect(del.statusCode).toBe(204);
    await submit(t, student, sooner, 'Mine.');
    list = await listOf(t, student);
    expect(list.map((a) => [a.title, a.status])).toEqual([
      ['Sooner', 'submitted'],
      ['Renamed', 'not_submitted'],
    ]);

    const excuse = await t.app.inject({
      method: 'POST',
      url: `/api/assignments/${later.id}/excuse`,
      headers: teacher.headers,
      payload: { studentId: student.id, excused: true },
    });
    expect(excuse.statusCode, excuse.body).toBe(200);
    expect((await listOf(t, student)).find((a) => a.id === later.id)?.status).toBe('excused');

    const leave = await t.app.inject({
      method: 'POST',
      url: `/api/courses/${poetry.id}/leave`,
      headers: student.headers,
    });
    expect(leave.statusCode).toBe(204);
    expect((await listOf(t, student)).map((a) => a.title)).toEqual(['Renamed']);
  });

  it('never keeps rows fetched before a change that committed while they were read', async () => {
    const database = await openTestDatabase();
    // The real database, with the shared rows' read held at a gate the test opens.
    let gate: { reached: () => void; open: Promise<void> } | undefined;
    const gated = Object.assign(Object.create(database) as Database, {
      async rows<R>(statement: { name: string; text: string }, params: readonly string[]): Promise<R[]> {
        const result = await database.rows<R>(statement, params);
        if (statement.name.startsWith('assignments_shared') && gate) {
          const held = gate;
          gate = undefined;
          held.reached();
          await held.open;
        }
        return result;
      },
    });
    const t = await createTestApp({ database: gated });
    apps.push({ ...t, close: async () => (await t.close(), await database.dispose()) });
    const teacher = await createTeacher(t);
    const student = await createStudent(t);
    const course = await createCourse(t, teacher);
    await joinCourse(t, student, course);
    const assignment = await createAssignment(t, teacher, course, { title: 'Before' });

    let open!: () => void;
    const reached = new Promise<void>((resolve) => {
      gate = { reached: resolve, open: new Promise<void>((r) => (open = r)) };
    });
    const early = listOf(t, student);
    await reached; // the rows of 'Before' are read, not yet stored
    await patch(t, teacher, `/api/assignments/${assignment.id}`, { title: 'After' });
    open();
    expect((await early).map((a) => a.title)).toEqual(['Before']);
    expect((await listOf(t, student)).map((a) => a.title)).toEqual(['After']);
  });

  it('shows a held grade to nobody but the teacher, and the returned one at once', async () => {
    const t = await createTestApp();
    apps.push(t);
    const teacher = await createTeacher(t);
    const student = await createStudent(t);
    const course = await createCourse(t, teacher);
    await joinCourse(t, student, course);
    const assignment = await createAssignment(t, teacher, course, { maxPoints: 23 });
    await patch(t, teacher, `/api/assignments/${assignment.id}`, { gradeRelease: 'manual' });
    const own = await submit(t, student, assignment);
    await listOf(t, student); // cached
    await patch(t, teacher, `/api/submissions/${own.id}`, {
      grade: 17,
      feedback: 'Held feedback',
      baseVersion: 0,
    });
    const held = (await listOf(t, student))[0]!;
    expect(held.submission).toMatchObject({ grade: null, feedback: null, returnedAt: null });
    expect(JSON.stringify(held)).not.toContain('Held feedback');
    const ret = await t.app.inject({
      method: 'POST',
      url: `/api/assignments/${assignment.id}/return`,
      headers: teacher.headers,
      payload: {},
    });
    expect(ret.statusCode, ret.body).toBe(200);
    const returned = (await listOf(t, student))[0]!;
    expect(returned.submission).toMatchObject({ grade: 17, feedback: 'Held feedback' });
    expect(returned.status).toBe('returned');
  });
});

/** A test app over the real database whose own-part reads are counted and may be held at a gate. */
async function countedApp() {
  const database = await openTestDatabase();
  const counted = { own: 0, gate: undefined as { reached: () => void; open: Promise<void> } | undefined };
  const wrapped = Object.assign(Object.create(database) as Database, {
    async rows<R>(statement: { name: string; text: string }, params: readonly string[]): Promise<R[]> {
      const result = await database.rows<R>(statement, params);
      if (statement.name.startsWith('assignments_own_part')) {
        counted.own += 1;
        const held = counted.gate;
        counted.gate = undefined;
        if (held) {
          held.reached();
          await held.open;
        }
      }
      return result;
    },
  });
  const t = await createTestApp({ database: wrapped });
  apps.push({ ...t, close: async () => (await t.close(), await database.dispose()) });
  return { t, counted };
}

describe("a student's own part of the lists, kept in one process", () => {
  it('is read once, and again only after something happens to that student', async () => {
    const { t, counted } = await countedApp();
    const teacher = await createTeacher(t);
    const [student, classmate] = [await createStudent(t), await createStudent(t)];
    const course = await createCourse(t, teacher);
    await joinCourse(t, student, course);
    await joinCourse(t, classmate, course);
    const assignment = await createAssignment(t, teacher, course, { title: 'Essay' });

    await listOf(t, student);
    const afterFirst = counted.own;
    await listOf(t, student);
    expect(counted.own).toBe(afterFirst); // from memory
    await submit(t, classmate, assignment); // someone else's work: not this student's part
    expect((await listOf(t, student))[0]!.status).toBe('not_submitted');
    expect(counted.own).toBe(afterFirst);
    await submit(t, student, assignment);
    expect((await listOf(t, student))[0]!.status).toBe('submitted');
    expect(counted.own).toBe(afterFirst + 1);
  });

  it('follows a removal, a restore and a submission taken back, each read from memory before', async () => {
    const { t } = await countedApp();
    const teacher = await createTeacher(t);
    const student = await createStudent(t);
    const course = await createCourse(t, teacher);
    await joinCourse(t, student, course);
    const assignment = await createAssignment(t, teacher, course, { title: 'Essay' });
    await submit(t, student, assignment);
    expect((await listOf(t, student)).map((a) => a.status)).toEqual(['submitted']);

    const taken = await t.app.inject({
      method: 'DELETE',
      url: `/api/assignments/${assignment.id}/submission`,
      headers: student.headers,
    });
    expect(taken.statusCode, taken.body).toBe(200);
    expect((await listOf(t, student)).map((a) => a.status)).toEqual(['not_submitted']);

    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/courses/${course.id}/members/${student.id}`,
      headers: teacher.headers,
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await listOf(t, student)).toEqual([]);

    const restored = await t.app.inject({
      method: 'POST',
      url: `/api/courses/${course.id}/members/${student.id}/restore`,
      headers: teacher.headers,
    });
    expect(restored.statusCode, restored.body).toBe(200);
    expect((await listOf(t, student)).map((a) => a.title)).toEqual(['Essay']);
  });

  it('never keeps a part read before a change that committed while it was read', async () => {
    const { t, counted } = await countedApp();
    const teacher = await createTeacher(t);
    const student = await createStudent(t);
    const course = await createCourse(t, teacher);
    await joinCourse(t, student, course);
    const assignment = await createAssignment(t, teacher, course, { title: 'Essay' });

    let open!: () => void;
    const reached = new Promise<void>((resolve) => {
      counted.gate = { reached: resolve, open: new Promise<void>((r) => (open = r)) };
    });
    const early = listOf(t, student);
    await reached; // the own part is read (nothing submitted), not yet stored
    await submit(t, student, assignment);
    open();
    expect((await early)[0]!.status).toBe('not_submitted');
    expect((await listOf(t, student))[0]!.status).toBe('submitted');
  });

  it('is not kept when other processes serve the same students', async () => {
    const { t } = await countedApp();
    const teacher = await createTeacher(t);
    const student = await createStudent(t);
    const course = await createCourse(t, teacher);
    await joinCourse(t, student, course);
    await createAssignment(t, teacher, course, { title: 'Essay' });
    let own = 0;
    const database = t.app.database;
    const model = (cacheOwn: boolean) =>
      createAssignmentReadModel({
        database: {
          rows: async <R>(statement: { name: string; text: string }, params: readonly string[]) => {
            if (statement.name.startsWith('assignments_own_part')) own += 1;
            return database.rows<R>(statement, params);
          },
        },
        clock: t.clock,
        bus: new DomainEventBus(),
        cacheOwn,
      });
    const linked = model(false);
    expect((await linked.forStudent(student.id)).map((a) => a.title)).toEqual(['Essay']);
    await linked.forStudent(student.id);
    expect(own).toBe(2);
    const alone = model(true);
    await alone.forStudent(student.id);
    await alone.forStudent(student.id);
    expect(own).toBe(3);
  });
});
