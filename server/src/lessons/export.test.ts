import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountExport } from '@classwave/shared';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import { createClass, type Actor } from '../../test/support/factories.js';
import { answerQuestion, closeQuestion, pushQuestion, startLesson } from '../../test/support/lessons.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('GET /api/me/export', () => {
  it("holds a student's own lesson answers, with whether each was right only once revealed", async () => {
    const { teacher, course, students } = await createClass(t, 2);
    const [ada, bo] = students as [Actor, Actor];
    const lesson = await startLesson(t, teacher, course.id);
    const q = await pushQuestion(t, teacher, lesson.id);
    expect((await answerQuestion(t, ada, q, 1)).statusCode).toBe(200);
    expect((await answerQuestion(t, bo, q, 0)).statusCode).toBe(200);
    const exported = async () =>
      (
        await t.app.inject({ method: 'GET', url: '/api/me/export', headers: ada.headers })
      ).json<AccountExport>().lessonAnswers;
    const before = await exported();
    expect(before).toEqual([
      expect.objectContaining({
        questionId: q.id,
        prompt: '2 + 2?',
        answer: 1,
        correct: null,
        rightAnswer: null,
      }),
    ]);
    expect((await closeQuestion(t, teacher, q)).statusCode).toBe(200);
    expect(await exported()).toEqual([
      expect.objectContaining({
        questionId: q.id,
        courseId: course.id,
        answer: 1,
        correct: true,
        rightAnswer: 1,
      }),
    ]);
  });
});
