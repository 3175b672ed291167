import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Course, CourseMember, JoinPreview } from '@classwave/shared';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import {
  createAssignment,
  createCourse,
  createStudent,
  createTeacher,
  joinCourse,
  submit,
  type Actor,
} from '../../test/support/factories.js';

let t: TestApp;
let teacher: Actor;
let otherTeacher: Actor;
beforeAll(async () => {
  t = await createTestApp();
  [teacher, otherTeacher] = await Promise.all([createTeacher(t, 'Grace Teacher'), createTeacher(t, 'Other')]);
});
afterAll(() => t.close());

const req = (actor: Actor, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: actor.headers, ...(payload ? { payload } : {}) });
const join = (student: Actor, code: string) => req(student, 'POST', '/api/courses/join', { code });
const roster = async (courseId: string): Promise<CourseMember[]> =>
  (await req(teacher, 'GET', `/api/courses/${courseId}/members`)).json();
const courseIdsOf = async (actor: Actor): Promise<string[]> =>
  ((await req(actor, 'GET', '/api/courses')).json() as Course[]).map((c) => c.id);
const joinCode = (course: Course, action: 'reset' | 'disable' | 'enable') =>
  req(teacher, 'POST', `/api/courses/${course.id}/join-code`, { action });

describe('POST /api/courses/join', () => {
  it('joins by code in any case, with or without the dash, and answers 200 again when already a member', async () => {
    const course = await createCourse(t, teacher, { title: 'Biology' });
    const student = await createStudent(t);
    const loose = course.joinCode!.replace('-', '').toLowerCase();
    const first = await join(student, ` ${loose} `);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().course).toMatchObject({ id: course.id, title: 'Biology', joinCode: null });
    const again = await join(student, course.joinCode!);
    expect(again.statusCode).toBe(200);
    expect(await courseIdsOf(student)).toContain(course.id);
    const rows = await roster(course.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      student: { id: student.id, fullName: student.fullName, email: student.email },
      status: 'active',
      endedAt: null,
      submissionCount: 0,
    });
  });

  it('answers 404 join_code_invalid for an unknown or malformed code', async () => {
    const student = await createStudent(t);
    for (const code of ['ZZZZ-ZZZZ', 'not a code']) {
      const res = await join(student, code);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'join_code_invalid' });
    }
  });

  it('refuses teachers: only students join', async () => {
    const course = await createCourse(t, teacher);
    const res = await join(otherTeacher, course.joinCode!);
    expect(res.statusCode).toBe(403);
    expect(await courseIdsOf(otherTeacher)).not.toContain(course.id);
  });
});

describe('GET /api/join/:code', () => {
  it('names the course, the teacher and the member count, and whether the caller is in', async () => {
    const course = await createCourse(t, teacher, { title: 'Chemistry' });
    const [a, b] = await Promise.all([createStudent(t), createStudent(t)]);
    await joinCourse(t, a, course);
    const res = await req(b, 'GET', `/api/join/${course.joinCode}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      course: { id: course.id, title: 'Chemistry', code: course.code },
      teacher: { fullName: 'Grace Teacher' },
      memberCount: 1,
      alreadyMember: false,
      removed: false,
    } satisfies JoinPreview);
    expect((await req(a, 'GET', `/api/join/${course.joinCode}`)).json().alreadyMember).toBe(true);
    // A preview joins nobody.
    expect(await courseIdsOf(b)).not.toContain(course.id);
    expect((await req(b, 'GET', '/api/join/ZZZZ-ZZZZ')).json()).toMatchObject({ code: 'join_code_invalid' });
  });
});

describe('removal, restore and leaving', () => {
  it('a removed student loses the course at once, cannot re-join by code, and is restored by the teacher', async () => {
    const course = await createCourse(t, teacher);
    const assignment = await createAssignment(t, teacher, course);
    const student = await createStudent(t);
    await joinCourse(t, student, course);
    await submit(t, student, assignment);

    const removed = await req(teacher, 'DELETE', `/api/courses/${course.id}/members/${student.id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toMatchObject({
      status: 'removed',
      submissionCount: 1,
      endedAt: expect.any(String),
    });
    expect(await courseIdsOf(student)).not.toContain(course.id);
    expect((await req(student, 'GET', `/api/courses/${course.id}`)).statusCode).toBe(404);

    const rejoin = await join(student, course.joinCode!);
    expect(rejoin.statusCode).toBe(403);
    expect(rejoin.json().message).toMatch(/removed you/);
    // The join page knows before offering Join (issue 25: it offered Join, then refused).
    expect((await req(student, 'GET', `/api/join/${course.joinCode}`)).json()).toMatchObject({
      alreadyMember: false,
      removed: true,
    });

    const restored = await req(teacher, 'POST', `/api/courses/${course.id}/members/${student.id}/restore`);
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json()).toMatchObject({ status: 'active', endedAt: null, submissionCount: 1 });
    const detail = await req(student, 'GET', `/api/courses/${course.id}`);
    expect(detail.statusCode).toBe(200);
    // The submission made before the removal is there again.
    expect(detail.json().assignments[0].submission).not.toBeNull();
  });

  it('a student who leaves loses the course and may join again with the code', async () => {
    const course = await createCourse(t, teacher);
    const student = await createStudent(t);
    await joinCourse(t, student, course);
    const left = await req(student, 'POST', `/api/courses/${course.id}/leave`);
    expect(left.statusCode).toBe(204);
    expect(await courseIdsOf(student)).not.toContain(course.id);
    expect((await roster(course.id))[0]).toMatchObject({ status: 'left' });
    // Leaving twice: the course is no longer theirs to see.
    expect((await req(student, 'POST', `/api/courses/${course.id}/leave`)).statusCode).toBe(404);
    // The teacher cannot pull back someone who left by themselves; the student can come back.
    expect(
      (await req(teacher, 'POST', `/api/courses/${course.id}/members/${student.id}/restore`)).statusCode,
    ).toBe(409);
    expect((await join(student, course.joinCode!)).statusCode).toBe(200);
    expect((await roster(course.id))[0]).toMatchObject({ status: 'active', endedAt: null });
  });

  it('answers 404 for a student who was never in the course, and hides the roster from others', async () => {
    const course = await createCourse(t, teacher);
    const [member, stranger] = await Promise.all([createStudent(t), createStudent(t)]);
    await joinCourse(t, member, course);
    expect(
      (await req(teacher, 'DELETE', `/api/courses/${course.id}/members/${stranger.id}`)).statusCode,
    ).toBe(404);
    expect((await req(otherTeacher, 'GET', `/api/courses/${course.id}/members`)).statusCode).toBe(404);
    expect((await req(stranger, 'GET', `/api/courses/${course.id}/members`)).statusCode).toBe(404);
    expect((await req(member, 'GET', `/api/courses/${course.id}/members`)).statusCode).toBe(403);
  });
});

describe('POST /api/courses/:id/join-code', () => {
  it('reset: the old code stops at once and the new one works', async () => {
    const course = await createCourse(t, teacher);
    const res = await joinCode(course, 'reset');
    expect(res.statusCode, res.body).toBe(200);
    const { joinCode: fresh, joinEnabled } = res.json();
    expect(fresh).not.toBe(course.joinCode);
    expect(joinEnabled).toBe(true);
    const student = await createStudent(t);
    expect((await join(student, course.joinCode!)).json()).toMatchObject({ code: 'join_code_invalid' });
    expect((await join(student, fresh)).statusCode).toBe(200);
    const seen = (await req(teacher, 'GET', `/api/courses/${course.id}`)).json().course;
    expect(seen.joinCode).toBe(fresh);
  });

  it('disable turns joining and the preview off with join_disabled; enable turns them on', async () => {
    const course = await createCourse(t, teacher);
    expect((await joinCode(course, 'disable')).json()).toEqual({
      joinCode: course.joinCode,
      joinEnabled: false,
    });
    const student = await createStudent(t);
    for (const res of [
      await join(student, course.joinCode!),
      await req(student, 'GET', `/api/join/${course.joinCode}`),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'join_disabled' });
    }
    expect((await joinCode(course, 'enable')).json()).toEqual({
      joinCode: course.joinCode,
      joinEnabled: true,
    });
    expect((await join(student, course.joinCode!)).statusCode).toBe(200);
  });

  it('refuses anyone but the owner', async () => {
    const course = await createCourse(t, teacher);
    const other = await t.app.inject({
      method: 'POST',
      url: `/api/courses/${course.id}/join-code`,
      headers: otherTeacher.headers,
      payload: { action: 'reset' },
    });
    expect(other.statusCode).toBe(404);
    const student = await createStudent(t);
    await joinCourse(t, student, course);
    expect(
      (await req(student, 'POST', `/api/courses/${course.id}/join-code`, { action: 'reset' })).statusCode,
    ).toBe(403);
    // Nothing changed: the code still works.
    expect((await join(await createStudent(t), course.joinCode!)).statusCode).toBe(200);
  });
});
