import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ErrorCode,
  shiftDueDates,
  type Assignment,
  type AssignmentFiles,
  type Course,
} from '@classwave/shared';
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
import { uploadFile } from '../../test/support/uploads.js';
import { assignments, courseMembers, files, posts, submissionDrafts, submissions } from '../db/schema.js';

let t: TestApp;
let owner: Actor;
let coTeacher: Actor;
let otherTeacher: Actor;
let student: Actor;
beforeAll(async () => {
  t = await createTestApp();
  [owner, coTeacher, otherTeacher, student] = await Promise.all([
    createTeacher(t, 'Ada Owner'),
    createTeacher(t, 'Cody Coteacher'),
    createTeacher(t, 'Olga Other'),
    createStudent(t, 'Sam Student'),
  ]);
});
afterAll(() => t.close());

const inject = (who: Actor, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });
const MATERIAL = Buffer.from('%PDF-1.4 the worksheet');

/** A lived-in course: categories, a rubric, materials, a student with work, a grade, a post. */
let lives = 0;
async function livedIn() {
  const code = `BIO${++lives}`;
  const course = await createCourse(t, owner, { title: 'Biology', code });
  await addCoTeacher(t, owner, course, coTeacher);
  await joinCourse(t, student, course);
  const cats = await inject(owner, 'PUT', `/api/courses/${course.id}/categories`, {
    categories: [
      { name: 'Homework', weight: 40 },
      { name: 'Tests', weight: 60 },
    ],
  });
  const tests = cats.json<{ categories: Array<{ id: string; name: string }> }>().categories[1]!;
  const assignment = await createAssignment(t, owner, course, {
    title: 'Cells',
    dueDate: inDays(5),
    maxPoints: 10,
    categoryId: tests.id,
  });
  await inject(owner, 'PUT', `/api/assignments/${assignment.id}/rubric`, {
    criteria: [{ title: 'Accuracy', levels: [{ title: 'All right', points: 10 }] }],
  });
  const materialId = await uploadFile(
    t,
    owner,
    { purpose: 'assignment', targetId: assignment.id, name: 'sheet.pdf' },
    MATERIAL,
  );
  const work = await submit(t, student, assignment);
  await t.app.inject({
    method: 'PATCH',
    url: `/api/submissions/${work.id}`,
    headers: owner.headers,
    payload: { grade: 9, baseVersion: 0 },
  });
  await inject(owner, 'POST', `/api/courses/${course.id}/posts`, { text: 'Welcome' });
  return { course, code, assignment, materialId };
}

describe('POST /api/courses/:id/copy', () => {
  it('makes a new course of the caller’s with assignments, rubric, categories and materials, and no people or work', async () => {
    const source = await livedIn();
    const res = await inject(coTeacher, 'POST', `/api/courses/${source.course.id}/copy`, {
      title: 'Biology 2027',
    });
    expect(res.statusCode, res.body).toBe(201);
    const copy = res.json<Course>();
    expect(copy).toMatchObject({
      title: 'Biology 2027',
      teacherId: coTeacher.id,
      code: source.code,
      archivedAt: null,
    });
    expect(copy.id).not.toBe(source.course.id);
    expect(copy.joinCode).not.toBe(source.course.joinCode);
    // No students, submissions, drafts, grades or posts came along.
    const db = t.app.core.db;
    expect(await db.select().from(courseMembers).where(eq(courseMembers.courseId, copy.id))).toEqual([]);
    const copied = await db.select().from(assignments).where(eq(assignments.courseId, copy.id));
    expect(copied).toHaveLength(1);
    const ids = copied.map((a) => a.id);
    expect(await db.select().from(submissions).where(inArray(submissions.assignmentId, ids))).toEqual([]);
    expect(
      await db.select().from(submissionDrafts).where(inArray(submissionDrafts.assignmentId, ids)),
    ).toEqual([]);
    expect(await db.select().from(posts).where(eq(posts.courseId, copy.id))).toEqual([]);
    const gradebook = (await inject(coTeacher, 'GET', `/api/courses/${copy.id}/gradebook`)).json();
    expect(gradebook.students).toEqual([]);
    // The assignment with its settings, its rubric and its category (the copy's own of that name).
    const [a] = copied;
    expect(a).toMatchObject({ title: 'Cells', maxPoints: 10 });
    expect(a!.rubric?.criteria[0]?.title).toBe('Accuracy');
    const cats = (await inject(coTeacher, 'GET', `/api/courses/${copy.id}/categories`)).json<{
      categories: Array<{ id: string; name: string; weight: number }>;
    }>().categories;
    expect(cats.map((c) => [c.name, c.weight])).toEqual([
      ['Homework', 40],
      ['Tests', 60],
    ]);
    expect(a!.categoryId).toBe(cats[1]!.id);
    // The materials download, byte for byte, from bytes of their own.
    const listed = (
      await inject(coTeacher, 'GET', `/api/assignments/${a!.id}/files`)
    ).json<AssignmentFiles>();
    expect(listed.materials.map((m) => m.name)).toEqual(['sheet.pdf']);
    const download = await inject(coTeacher, 'GET', `/api/files/${listed.materials[0]!.id}`);
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(MATERIAL)).toBe(true);
    // Removing the source's file leaves the copy's.
    expect((await inject(owner, 'DELETE', `/api/files/${source.materialId}`)).statusCode).toBe(204);
    expect((await inject(coTeacher, 'GET', `/api/files/${listed.materials[0]!.id}`)).statusCode).toBe(200);
    const [row] = await db.select().from(files).where(eq(files.id, listed.materials[0]!.id));
    expect(row).toMatchObject({ uploaderId: coTeacher.id, courseId: copy.id, status: 'ready' });
  });

  it('gives a free code and a default title when none is asked for', async () => {
    const course = await createCourse(t, owner, { title: 'Chemistry', code: 'CHEM' });
    const first = (await inject(owner, 'POST', `/api/courses/${course.id}/copy`, {})).json<Course>();
    const second = (await inject(owner, 'POST', `/api/courses/${course.id}/copy`, {})).json<Course>();
    expect([first.title, first.code, second.code]).toEqual(['Chemistry (copy)', 'CHEM-2', 'CHEM-3']);
  });

  it('refuses a code the caller already has with 409 naming it', async () => {
    const course = await createCourse(t, owner, { code: 'PHYS' });
    const res = await inject(owner, 'POST', `/api/courses/${course.id}/copy`, { code: 'phys' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toContain('PHYS');
  });

  it('copies an archived course, and the copy is current', async () => {
    const course = await createCourse(t, owner);
    await inject(owner, 'POST', `/api/courses/${course.id}/archive`);
    const res = await inject(owner, 'POST', `/api/courses/${course.id}/copy`, {});
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<Course>().archivedAt).toBeNull();
  });

  it('answers 404 to a teacher of another course and 403 to a member student', async () => {
    const course = await createCourse(t, owner);
    await joinCourse(t, student, course);
    expect((await inject(otherTeacher, 'POST', `/api/courses/${course.id}/copy`, {})).statusCode).toBe(404);
    expect((await inject(student, 'POST', `/api/courses/${course.id}/copy`, {})).statusCode).toBe(403);
  });
});

describe('POST /api/assignments/:id/copy', () => {
  it('reuses an assignment in another course the caller teaches, with its rubric, materials and category by name', async () => {
    const source = await livedIn();
    const target = await createCourse(t, coTeacher, { title: 'Biology B' });
    await joinCourse(t, student, target);
    await inject(coTeacher, 'PUT', `/api/courses/${target.id}/categories`, {
      categories: [{ name: 'tests', weight: 100 }],
    });
    const res = await inject(coTeacher, 'POST', `/api/assignments/${source.assignment.id}/copy`, {
      courseId: target.id,
    });
    expect(res.statusCode, res.body).toBe(201);
    const copy = res.json<Assignment>();
    expect(copy).toMatchObject({ title: 'Cells', courseId: target.id, maxPoints: 10, submissionCount: 0 });
    expect(copy.dueDate).toBe(source.assignment.dueDate);
    const targetCats = (await inject(coTeacher, 'GET', `/api/courses/${target.id}/categories`)).json();
    expect(copy.categoryId).toBe(targetCats.categories[0].id);
    const rubric = await inject(student, 'GET', `/api/assignments/${copy.id}/rubric`);
    expect(rubric.json().rubric.criteria[0].title).toBe('Accuracy');
    // The target's student sees it, with the materials, and no work of their own on it.
    const detail = (await inject(student, 'GET', `/api/courses/${target.id}`)).json<{
      assignments: Assignment[];
    }>();
    expect(detail.assignments.find((a) => a.id === copy.id)?.submission).toBeNull();
    const listed = (
      await inject(student, 'GET', `/api/assignments/${copy.id}/files`)
    ).json<AssignmentFiles>();
    const download = await inject(student, 'GET', `/api/files/${listed.materials[0]!.id}`);
    expect(download.rawPayload.equals(MATERIAL)).toBe(true);
  });

  it('drops a category the target has no namesake of, and moves a past due date a week ahead', async () => {
    const course = await createCourse(t, owner);
    const cats = await inject(owner, 'PUT', `/api/courses/${course.id}/categories`, {
      categories: [{ name: 'Labs', weight: 100 }],
    });
    const old = await createAssignment(t, owner, course, {
      dueDate: inDays(-30),
      categoryId: cats.json().categories[0].id,
    });
    const target = await createCourse(t, owner);
    const res = await inject(owner, 'POST', `/api/assignments/${old.id}/copy`, { courseId: target.id });
    expect(res.statusCode, res.body).toBe(201);
    const copy = res.json<Assignment>();
    expect(copy.categoryId).toBeNull();
    expect(copy.dueDate).toBe(shiftDueDates([new Date(old.dueDate)], new Date())[0]!.toISOString());
    expect(new Date(copy.dueDate).getTime()).toBeGreaterThan(Date.now() + 6 * 24 * 3600_000);
  });

  it('refuses a target the caller does not teach (404), an archived target (409), a member student (403)', async () => {
    const course = await createCourse(t, owner);
    await joinCourse(t, student, course);
    const assignment = await createAssignment(t, owner, course);
    const foreign = await createCourse(t, otherTeacher);
    const archived = await createCourse(t, owner);
    await inject(owner, 'POST', `/api/courses/${archived.id}/archive`);
    const to = (courseId: string, who = owner) =>
      inject(who, 'POST', `/api/assignments/${assignment.id}/copy`, { courseId });
    expect((await to(foreign.id)).statusCode).toBe(404);
    const refused = await to(archived.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe(ErrorCode.courseArchived);
    expect((await to(course.id, student)).statusCode).toBe(403);
    // The other teacher cannot reach the source, whatever the target.
    expect((await to(foreign.id, otherTeacher)).statusCode).toBe(404);
  });

  it('answers 400 naming a bad body', async () => {
    const course = await createCourse(t, owner);
    const assignment = await createAssignment(t, owner, course);
    const res = await inject(owner, 'POST', `/api/assignments/${assignment.id}/copy`, { courseId: 'nope' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/courseId/);
  });
});
