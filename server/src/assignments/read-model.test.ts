import type { Assignment, Course } from '@classwave/shared';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.js';
import { DomainEventBus } from '../events.js';
import { createTestApp, openTestDatabase, type TestApp } from '../../test/support/app.js';
import { createAssignmentReadModel } from './read-model.js';
import { createPost } from '../../test/support/conversations.js';
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

/**
 * A test app over the real database whose reads of the statements named with `prefix` are counted;
 * `holdNext` holds the next such read once its rows are fetched, until the test lets it go.
 */
async function appWatching(prefix: string) {
  const database = await openTestDatabase();
  let reads = 0;
  let gate: { reached: () => void; open: Promise<void> } | undefined;
  const watched = Object.assign(Object.create(database) as Database, {
    async rows<R>(statement: { name: string; text: string }, params: readonly string[]): Promise<R[]> {
      const result = await database.rows<R>(statement, params);
      if (statement.name.startsWith(prefix)) {
        reads += 1;
        const held = gate;
        gate = undefined;
        if (held) {
          held.reached();
          await held.open;
        }
      }
      return result;
    },
  });
  const t = await createTestApp({ database: watched });
  apps.push({ ...t, close: async () => (await t.close(), await database.dispose()) });
  return {
    t,
    reads: () => reads,
    /** Resolves once the next read is held, with the function that lets it go on. */
    holdNext: () =>
      new Promise<() => void>((reached) => {
        let open!: () => void;
        const opened = new Promise<void>((resolve) => (open = resolve));
        gate = { reached: () => reached(open), open: opened };
      }),
  };
}

/** A teacher's course with one member and one assignment. */
async function classWithAssignment(t: TestApp, title: string) {
  const teacher = await createTeacher(t);
  const student = await createStudent(t);
  const course = await createCourse(t, teacher);
  await joinCourse(t, student, course);
  const assignment = await createAssignment(t, teacher, course, { title });
  return { teacher, student, course, assignment };
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
    // The real database, with the shared rows' read held at a gate the test opens.
    const { t, holdNext } = await appWatching('assignments_shared');
    const { teacher, student, assignment } = await classWithAssignment(t, 'Before');

    const held = holdNext();
    const early = listOf(t, student);
    const open = await held; // the rows of 'Before' are read, not yet stored
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

describe("a student's assignment lists' shared part, kept in one process", () => {
  it("is read again after a change to the class's assignments or course, not after a post or a submission", async () => {
    const { t, reads } = await appWatching('assignments_shared_of_courses');
    const { teacher, student, course, assignment } = await classWithAssignment(t, 'Essay');
    await listOf(t, student);
    const afterFirst = reads();
    const post = await createPost(t, teacher, course.id, { text: 'Bring an atlas.' });
    const comment = await t.app.inject({
      method: 'POST',
      url: `/api/posts/${post.id}/comments`,
      headers: student.headers,
      payload: { text: 'Which one?' },
    });
    expect(comment.statusCode, comment.body).toBe(201);
    await submit(t, student, assignment);
    expect((await listOf(t, student)).map((a) => [a.title, a.status])).toEqual([['Essay', 'submitted']]);
    expect(reads()).toBe(afterFirst); // the class talked and the student submitted: from memory
    await patch(t, teacher, `/api/assignments/${assignment.id}`, { title: 'Long essay' });
    expect((await listOf(t, student)).map((a) => a.title)).toEqual(['Long essay']);
    expect(reads()).toBe(afterFirst + 1);
  });
});

describe("a student's own part of the lists, kept in one process", () => {
  it('is read once, and again only after something happens to that student', async () => {
    const { t, reads } = await appWatching('assignments_own_part');
    const teacher = await createTeacher(t);
    const [student, classmate] = [await createStudent(t), await createStudent(t)];
    const course = await createCourse(t, teacher);
    await joinCourse(t, student, course);
    await joinCourse(t, classmate, course);
    const assignment = await createAssignment(t, teacher, course, { title: 'Essay' });

    await listOf(t, student);
    const afterFirst = reads();
    await listOf(t, student);
    expect(reads()).toBe(afterFirst); // from memory
    await submit(t, classmate, assignment); // someone else's work: not this student's part
    expect((await listOf(t, student))[0]!.status).toBe('not_submitted');
    expect(reads()).toBe(afterFirst);
    await submit(t, student, assignment);
    expect((await listOf(t, student))[0]!.status).toBe('submitted');
    expect(reads()).toBe(afterFirst + 1);
  });

  it('follows a removal, a restore and a submission taken back, each read from memory before', async () => {
    const { t } = await appWatching('assignments_own_part');
    const { teacher, student, course, assignment } = await classWithAssignment(t, 'Essay');
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
    const { t, holdNext } = await appWatching('assignments_own_part');
    const { student, assignment } = await classWithAssignment(t, 'Essay');

    const held = holdNext();
    const early = listOf(t, student);
    const open = await held; // the own part is read (nothing submitted), not yet stored
    await submit(t, student, assignment);
    open();
    expect((await early)[0]!.status).toBe('not_submitted');
    expect((await listOf(t, student))[0]!.status).toBe('submitted');
  });

  it('is not kept when other processes serve the same students', async () => {
    const { t, reads } = await appWatching('assignments_own_part');
    const { student } = await classWithAssignment(t, 'Essay');
    // Read models of their own over the same (counted) database, one per mode.
    const model = (cacheOwn: boolean) =>
      createAssignmentReadModel({
        database: t.app.core.database,
        clock: t.clock,
        bus: new DomainEventBus(),
        cacheOwn,
      });
    const before = reads();
    const linked = model(false);
    expect((await linked.forStudent(student.id)).map((a) => a.title)).toEqual(['Essay']);
    await linked.forStudent(student.id);
    expect(reads() - before).toBe(2);
    const alone = model(true);
    await alone.forStudent(student.id);
    await alone.forStudent(student.id);
    expect(reads() - before).toBe(3);
  });
});
