import type { CreateQuestionBody, Lesson, LessonQuestion } from '@classwave/shared';
import type { TestApp } from './app.js';
import type { Actor } from './factories.js';

/** Test helpers of the live lessons (DESIGN §21): each asserts it was made. */

export async function startLesson(t: TestApp, teacher: Actor, courseId: string): Promise<Lesson> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/courses/${courseId}/lessons`,
    headers: teacher.headers,
  });
  if (res.statusCode !== 201) throw new Error(`startLesson: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** A multiple-choice question whose right answer is the second choice, unless `body` says otherwise. */
export async function pushQuestion(
  t: TestApp,
  teacher: Actor,
  lessonId: string,
  body: Partial<CreateQuestionBody> = {},
): Promise<LessonQuestion> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/lessons/${lessonId}/questions`,
    headers: teacher.headers,
    payload: { kind: 'multiple_choice', prompt: '2 + 2?', options: ['3', '4', '5'], correct: 1, ...body },
  });
  if (res.statusCode !== 201) throw new Error(`pushQuestion: ${res.statusCode} ${res.body}`);
  return res.json();
}

export const answerQuestion = (
  t: TestApp,
  student: Actor,
  q: { id: string; lessonId: string },
  answer: unknown,
) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/lessons/${q.lessonId}/questions/${q.id}/answer`,
    headers: student.headers,
    payload: { answer },
  });

export const closeQuestion = (t: TestApp, teacher: Actor, q: { id: string; lessonId: string }) =>
  t.app.inject({
    method: 'POST',
    url: `/api/lessons/${q.lessonId}/questions/${q.id}/close`,
    headers: teacher.headers,
  });

export const endLesson = (t: TestApp, teacher: Actor, lessonId: string, payload: object = {}) =>
  t.app.inject({ method: 'POST', url: `/api/lessons/${lessonId}/end`, headers: teacher.headers, payload });

export async function viewLesson(t: TestApp, who: Actor, lessonId: string): Promise<Lesson> {
  const res = await t.app.inject({ method: 'GET', url: `/api/lessons/${lessonId}`, headers: who.headers });
  if (res.statusCode !== 200) throw new Error(`viewLesson: ${res.statusCode} ${res.body}`);
  return res.json();
}
