import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Todo } from '@classwave/shared';
import { TODO_OVERDUE_DAYS } from '@classwave/shared';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import {
  createCourse,
  createStudent,
  createTeacher,
  inDays,
  joinCourse,
} from '../../test/support/factories.js';

/** A student's to-do (DESIGN §14): what they can still do, not a list that only grows. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('GET /api/todo (students)', () => {
  it(`keeps overdue work for ${TODO_OVERDUE_DAYS} days, and never work that closed at its due time`, async () => {
    const teacher = await createTeacher(t);
    const course = await createCourse(t, teacher);
    const student = await createStudent(t);
    await joinCourse(t, student, course);
    const make = async (title: string, dueDate: string, closesAtDue = false) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/assignments',
        headers: teacher.headers,
        payload: { title, dueDate, courseId: course.id, closesAtDue },
      });
      expect(res.statusCode, res.body).toBe(201);
    };
    await make('Long gone', inDays(-(TODO_OVERDUE_DAYS + 1)));
    await make('Late but open', inDays(-(TODO_OVERDUE_DAYS - 1)));
    await make('Closed yesterday', inDays(-1), true);
    await make('Closes tomorrow', inDays(1), true);
    await make('Next week', inDays(7));
    const res = await t.app.inject({ method: 'GET', url: '/api/todo', headers: student.headers });
    expect(res.json<Todo>().work.map((i) => i.title)).toEqual([
      'Late but open',
      'Closes tomorrow',
      'Next week',
    ]);
  });
});
