import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  Assignment,
  CategoriesResponse,
  Course,
  Gradebook,
  StudentCourseGrades,
} from '@classwave/shared';
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
import { liveTestApp, type LiveTestApp } from '../../test/support/live-app.js';

/**
 * Grade categories with weights (DESIGN §17): written whole by the course's teacher, weights adding
 * up to 100; the gradebook, its CSV and the student's own totals follow them.
 */
let t: LiveTestApp;
let teacher: Actor;
let other: Actor;
let ada: Actor;
let stranger: Actor;

beforeAll(async () => {
  t = await liveTestApp();
  [teacher, other, ada, stranger] = await Promise.all([
    createTeacher(t, 'Wendy Weights'),
    createTeacher(t, 'Otto Other'),
    createStudent(t, 'Ada Average'),
    createStudent(t, 'Sid Stranger'),
  ]);
});
afterAll(() => t.close());

const as = (actor: Actor) => ({ headers: actor.headers });
const get = (actor: Actor, path: string) => t.app.inject({ method: 'GET', url: path, ...as(actor) });
const send = (actor: Actor, method: 'PATCH' | 'PUT', path: string, payload: object) =>
  t.app.inject({ method, url: path, payload, ...as(actor) });
const putCategories = (course: Course, categories: object[], who = teacher) =>
  send(who, 'PUT', `/api/courses/${course.id}/categories`, { categories });
const grade = async (assignment: Assignment, student: Actor, points: number) => {
  const res = await send(teacher, 'PUT', `/api/assignments/${assignment.id}/grades/${student.id}`, {
    grade: points,
    baseVersion: 0,
  });
  expect(res.statusCode, res.body).toBe(200);
};
const ownTotals = async (course: Course) =>
  (await get(ada, '/api/grades')).json<StudentCourseGrades[]>().find((g) => g.course.id === course.id)!;

async function weightedCourse() {
  const course = await createCourse(t, teacher);
  await joinCourse(t, ada, course);
  const res = await putCategories(course, [
    { name: 'Homework', weight: 40 },
    { name: 'Tests', weight: 60 },
  ]);
  expect(res.statusCode, res.body).toBe(200);
  const [homework, tests] = res.json<CategoriesResponse>().categories;
  return { course, homework: homework!, tests: tests! };
}

describe('grade categories', () => {
  it('are written whole and read back in order, live to the course', async () => {
    const course = await createCourse(t, teacher);
    await joinCourse(t, ada, course);
    const [adaLive, teacherLive] = [await t.tab(ada), await t.tab(teacher)];

    const first = await putCategories(course, [
      { name: ' Homework ', weight: 30 },
      { name: 'Tests', weight: 70 },
    ]);
    expect(first.statusCode, first.body).toBe(200);
    const [homework, tests] = first.json<CategoriesResponse>().categories;
    expect([homework!.name, tests!.name]).toEqual(['Homework', 'Tests']);
    await adaLive.waitFor((e) => e.type === 'course:categories');
    await teacherLive.waitFor((e) => e.type === 'course:categories');

    // Renamed, reweighted, reordered, one new, Homework left out (deleted).
    const second = await putCategories(course, [
      { name: 'Projects', weight: 50 },
      { id: tests!.id, name: 'Exams', weight: 50 },
    ]);
    expect(second.statusCode, second.body).toBe(200);
    const read = (await get(teacher, `/api/courses/${course.id}/categories`)).json<CategoriesResponse>();
    expect(read.categories.map((c) => [c.name, c.weight])).toEqual([
      ['Projects', 50],
      ['Exams', 50],
    ]);
    expect(read.categories[1]!.id).toBe(tests!.id);

    // An empty list: the course is unweighted again.
    expect((await putCategories(course, [])).json<CategoriesResponse>().categories).toEqual([]);
  });

  it('refuse weights that do not add up to 100, a name twice, or an id of another course, naming it', async () => {
    const { course } = await weightedCourse();
    const elsewhere = await weightedCourse();
    const cases: [object[], RegExp][] = [
      [
        [
          { name: 'A', weight: 50 },
          { name: 'B', weight: 40 },
        ],
        /add up to 100 \(they add up to 90\)/,
      ],
      [
        [
          { name: 'Tests', weight: 50 },
          { name: ' tests', weight: 50 },
        ],
        /"tests" twice/,
      ],
      [[{ id: elsewhere.homework.id, name: 'X', weight: 100 }], /not one of this course's categories/],
      [[{ name: 'A', weight: 101 }], /weight/],
      [[{ name: '   ', weight: 100 }], /name/],
      [Array.from({ length: 13 }, (_, i) => ({ name: `C${i}`, weight: i === 0 ? 88 : 1 })), /categories/],
    ];
    for (const [categories, message] of cases) {
      const res = await putCategories(course, categories);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json<{ message: string }>().message).toMatch(message);
    }
    // Nothing changed.
    const read = (await get(teacher, `/api/courses/${course.id}/categories`)).json<CategoriesResponse>();
    expect(read.categories.map((c) => c.name)).toEqual(['Homework', 'Tests']);
  });

  it("are the course teacher's alone: a member student gets 403, anyone else 404", async () => {
    const { course } = await weightedCourse();
    await joinCourse(t, stranger, await createCourse(t, other));
    for (const [who, status] of [
      [ada, 403],
      [other, 404],
      [stranger, 404],
    ] as const) {
      expect((await get(who, `/api/courses/${course.id}/categories`)).statusCode).toBe(status);
      expect((await putCategories(course, [], who)).statusCode).toBe(status);
    }
    const anonymous = await t.app.inject({ method: 'GET', url: `/api/courses/${course.id}/categories` });
    expect(anonymous.statusCode).toBe(401);
  });

  it("put an assignment in one of its course's categories only", async () => {
    const { course, homework } = await weightedCourse();
    const elsewhere = await weightedCourse();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/assignments',
      payload: { title: 'Stray', dueDate: inDays(3), courseId: course.id, categoryId: elsewhere.tests.id },
      ...as(teacher),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toMatch(/categoryId/);

    const assignment = await createAssignment(t, teacher, course, { categoryId: homework.id });
    expect(assignment.categoryId).toBe(homework.id);
    const moved = await send(teacher, 'PATCH', `/api/assignments/${assignment.id}`, {
      categoryId: elsewhere.homework.id,
    });
    expect(moved.statusCode).toBe(400);
    const cleared = await send(teacher, 'PATCH', `/api/assignments/${assignment.id}`, { categoryId: null });
    expect(cleared.json<Assignment>().categoryId).toBeNull();
    // The student sees which category it is in as well.
    await send(teacher, 'PATCH', `/api/assignments/${assignment.id}`, { categoryId: homework.id });
    const mine = (await get(ada, '/api/assignments'))
      .json<Assignment[]>()
      .find((a) => a.id === assignment.id);
    expect(mine?.categoryId).toBe(homework.id);

    // Deleting the category leaves the assignment in none.
    await putCategories(course, [{ name: 'Everything', weight: 100 }]);
    const after = (await get(teacher, '/api/assignments'))
      .json<Assignment[]>()
      .find((a) => a.id === assignment.id);
    expect(after?.categoryId).toBeNull();
  });

  it('weight the totals of the gradebook, its CSV and the student’s own grades alike', async () => {
    const { course, homework, tests } = await weightedCourse();
    const hw1 = await createAssignment(t, teacher, course, { maxPoints: 10, categoryId: homework.id });
    const hw2 = await createAssignment(t, teacher, course, { maxPoints: 10, categoryId: homework.id });
    const test = await createAssignment(t, teacher, course, { maxPoints: 100, categoryId: tests.id });
    await submit(t, ada, hw1);
    await grade(hw1, ada, 10);

    // Only homework counted so far: the percent is the homework percent, not 40 % of it.
    let own = await ownTotals(course);
    expect(own.percent).toBe(100);
    await grade(hw2, ada, 5);
    await grade(test, ada, 50);
    // Homework 15/20 = 75 %, tests 50/100 = 50 %: 0.4·75 + 0.6·50 = 60 %, where points alone say 65/120.
    own = await ownTotals(course);
    expect(own).toMatchObject({ points: 65, possible: 120, percent: 60 });
    expect(own.categories.map((c) => [c.name, c.weight, c.percent])).toEqual([
      ['Homework', 40, 75],
      ['Tests', 60, 50],
    ]);
    expect(own.items.find((i) => i.assignmentId === test.id)?.categoryId).toBe(tests.id);

    const book = (await get(teacher, `/api/courses/${course.id}/gradebook`)).json<Gradebook>();
    expect(book.categories.map((c) => c.name)).toEqual(['Homework', 'Tests']);
    expect(book.assignments.find((a) => a.id === test.id)?.categoryId).toBe(tests.id);

    const csv = await get(teacher, `/api/courses/${course.id}/gradebook.csv`);
    const [header, row] = parse(csv.body.replace(/^\uFEFF/, '')) as string[][];
    expect(header!.slice(-5)).toEqual([
      'Homework (40%)',
      'Tests (60%)',
      'Total Points',
      'Total Possible',
      'Percent',
    ]);
    expect(row!.slice(-5)).toEqual(['75', '50', '65', '120', '60']);

    // Back to unweighted: points over possible again.
    await putCategories(course, []);
    own = await ownTotals(course);
    expect(own.percent).toBe(54.2);
    expect(own.categories).toEqual([]);
  });
});
