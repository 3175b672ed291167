import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BankQuestion } from '@classwave/shared';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import { addCoTeacher, createClass, createTeacher } from '../../test/support/factories.js';
import { endLesson, pushQuestion, startLesson } from '../../test/support/lessons.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('/api/courses/:id/question-bank', () => {
  it('keeps what a teacher saves for a later lesson, where a co-teacher pushes it as it was', async () => {
    const { teacher, course } = await createClass(t, 1);
    const co = await createTeacher(t, 'Cora CoTeacher');
    await addCoTeacher(t, teacher, course, co);
    const url = `/api/courses/${course.id}/question-bank`;
    const saved = await t.app.inject({
      method: 'POST',
      url,
      headers: teacher.headers,
      payload: { kind: 'multiple_choice', prompt: ' 2 + 2? ', options: ['3 ', '4'], correct: 1 },
    });
    expect(saved.statusCode, saved.body).toBe(201);
    expect(saved.json()).toMatchObject({
      prompt: '2 + 2?',
      options: ['3', '4'],
      correct: 1,
      anonymous: false,
    });
    const first = await startLesson(t, teacher, course.id);
    await pushQuestion(t, teacher, first.id);
    expect((await endLesson(t, teacher, first.id)).statusCode).toBe(200);

    const list = await t.app.inject({ method: 'GET', url, headers: co.headers });
    expect(list.statusCode).toBe(200);
    const [kept] = list.json<BankQuestion[]>();
    const later = await startLesson(t, co, course.id);
    const { kind, prompt, options, correct } = kept!;
    const pushed = await pushQuestion(t, co, later.id, { kind, prompt, options, correct: correct! });
    expect(pushed).toMatchObject({ prompt: '2 + 2?', options: ['3', '4'], correct: 1 });

    const gone = await t.app.inject({ method: 'DELETE', url: `${url}/${kept!.id}`, headers: co.headers });
    expect(gone.statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url, headers: teacher.headers })).json()).toEqual([]);
    const again = await t.app.inject({ method: 'DELETE', url: `${url}/${kept!.id}`, headers: co.headers });
    expect(again.statusCode).toBe(404);
  });

  it('refuses a question that does not fit its kind with 400 naming the field', async () => {
    const { teacher, course } = await createClass(t, 0);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/courses/${course.id}/question-bank`,
      headers: teacher.headers,
      payload: { kind: 'poll', prompt: 'Q', options: ['a', 'b'], correct: 0 },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/body\.correct/);
  });

  it("does not remove another course's question", async () => {
    const a = await createClass(t, 0);
    const b = await createClass(t, 0);
    const saved = await t.app.inject({
      method: 'POST',
      url: `/api/courses/${a.course.id}/question-bank`,
      headers: a.teacher.headers,
      payload: { kind: 'true_false', prompt: 'Water is wet', correct: true },
    });
    const id = saved.json<BankQuestion>().id;
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/courses/${b.course.id}/question-bank/${id}`,
      headers: b.teacher.headers,
    });
    expect(res.statusCode).toBe(404);
  });
});
