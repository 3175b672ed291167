import { asc, eq } from 'drizzle-orm';
import { isCorrectAnswer } from '@classwave/shared';
import type { Db } from '../db/client.js';
import { lessonAnswers, lessonQuestions, lessons } from '../db/schema.js';

/**
 * "Download my data" (DESIGN §15, §21): a student's own answers in live lessons, wherever they are
 * (a course left does not take them out). Whether an answer was right, and the right answer, only
 * once its question is closed: an export is one more road by which nothing may leak before the reveal.
 */
export async function ownLessonAnswers(db: Db, studentId: string) {
  const rows = await db
    .select({ answer: lessonAnswers, question: lessonQuestions, courseId: lessons.courseId })
    .from(lessonAnswers)
    .innerJoin(lessonQuestions, eq(lessonQuestions.id, lessonAnswers.questionId))
    .innerJoin(lessons, eq(lessons.id, lessonQuestions.lessonId))
    .where(eq(lessonAnswers.studentId, studentId))
    .orderBy(asc(lessonAnswers.answeredAt), asc(lessonAnswers.questionId));
  return rows.map(({ answer: a, question: q, courseId }) => {
    const revealed = q.closedAt !== null;
    return {
      lessonId: q.lessonId,
      courseId,
      questionId: q.id,
      kind: q.kind,
      prompt: q.prompt,
      options: q.options,
      answer: a.answer,
      answeredAt: a.answeredAt.toISOString(),
      correct: revealed ? isCorrectAnswer(q.kind, q.correct ?? null, a.answer) : null,
      rightAnswer: revealed ? (q.correct ?? null) : null,
    };
  });
}
