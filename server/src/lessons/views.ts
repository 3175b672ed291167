import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import {
  answerKey,
  isCorrectAnswer,
  LESSON_FREE_COUNTS_MAX,
  type Lesson,
  type LessonAnswer,
  type LessonAnswerValue,
  type LessonQuestion,
  type LessonResults,
  type PersonRef,
} from '@classwave/shared';
import type { Db, Tx } from '../db/client.js';
import { courseMembers, lessonAnswers, lessonQuestions, profiles } from '../db/schema.js';
import type { LessonRow, Standing } from './access.js';

/**
 * Rows to what the API answers (DESIGN §21), in the viewer's view: the same shape in REST answers
 * and live events. A student's view carries no right answer, no results and nobody else's answer
 * until the question is closed; an anonymous poll never says who answered what, to anyone.
 */

export type QuestionRow = typeof lessonQuestions.$inferSelect;
/** An answer given, with how many gave it (grouped by the database). */
export type Tally = Array<{ answer: LessonAnswerValue; count: number }>;
interface AnswerRow {
  questionId: string;
  studentId: string;
  fullName: string;
  answer: LessonAnswerValue;
  answeredAt: Date;
}

/** Who is looking: the course's teachers, or a student (their own answers), or the class room (events). */
export type Viewer = { as: 'teachers' } | { as: 'student'; own: Map<string, AnswerRow> } | { as: 'members' };

/** Per question, how many gave each answer (as stored: short answers are merged by `results`). */
export async function talliesOf(db: Db | Tx, questionIds: string[]): Promise<Map<string, Tally>> {
  const byQuestion = new Map<string, Tally>();
  if (questionIds.length === 0) return byQuestion;
  const rows = await db
    .select({
      questionId: lessonAnswers.questionId,
      answer: lessonAnswers.answer,
      count: sql<number>`count(*)::int`,
    })
    .from(lessonAnswers)
    .where(inArray(lessonAnswers.questionId, questionIds))
    .groupBy(lessonAnswers.questionId, lessonAnswers.answer);
  for (const r of rows) {
    const tally = byQuestion.get(r.questionId) ?? [];
    tally.push({ answer: r.answer, count: Number(r.count) });
    byQuestion.set(r.questionId, tally);
  }
  return byQuestion;
}

/** Answers with their students' names, for the teachers (or one student's own, with `studentId`). */
export async function answersOf(
  db: Db | Tx,
  questionIds: string[],
  studentId?: string,
): Promise<AnswerRow[]> {
  if (questionIds.length === 0) return [];
  return db
    .select({
      questionId: lessonAnswers.questionId,
      studentId: lessonAnswers.studentId,
      fullName: profiles.fullName,
      answer: lessonAnswers.answer,
      answeredAt: lessonAnswers.answeredAt,
    })
    .from(lessonAnswers)
    .innerJoin(profiles, eq(profiles.id, lessonAnswers.studentId))
    .where(
      and(
        inArray(lessonAnswers.questionId, questionIds),
        studentId ? eq(lessonAnswers.studentId, studentId) : undefined,
      ),
    )
    .orderBy(asc(lessonAnswers.answeredAt), asc(lessonAnswers.studentId));
}

/** The course's active students, by name (the teachers' "not answered yet"). */
export async function studentsOf(db: Db | Tx, courseId: string): Promise<PersonRef[]> {
  return db
    .select({ id: profiles.id, fullName: profiles.fullName })
    .from(courseMembers)
    .innerJoin(profiles, eq(profiles.id, courseMembers.studentId))
    .where(and(eq(courseMembers.courseId, courseId), eq(courseMembers.status, 'active')))
    .orderBy(asc(profiles.fullName), asc(profiles.id));
}

/**
 * The results of a question: every choice counted in order, or (number, short answer) the distinct
 * answers most given first, for the teachers only — a classmate's own words never reach a student.
 */
export function resultsOf(q: QuestionRow, tally: Tally, forTeachers: boolean): LessonResults {
  const merged = new Map<string, { answer: LessonAnswerValue; count: number }>();
  for (const t of tally) {
    const key = answerKey(q.kind, t.answer);
    const entry = merged.get(key);
    if (entry) entry.count += t.count;
    else merged.set(key, { answer: t.answer, count: t.count });
  }
  const answered = tally.reduce((n, t) => n + t.count, 0);
  const correctCount =
    q.kind === 'poll'
      ? null
      : [...merged.values()].reduce(
          (n, e) => n + (isCorrectAnswer(q.kind, q.correct ?? null, e.answer) ? e.count : 0),
          0,
        );
  const countOf = (answer: LessonAnswerValue) => merged.get(answerKey(q.kind, answer))?.count ?? 0;
  let counts: LessonResults['counts'];
  if (q.kind === 'multiple_choice' || q.kind === 'poll')
    counts = q.options.map((_, i) => ({ answer: i, count: countOf(i) }));
  else if (q.kind === 'true_false')
    counts = [true, false].map((answer) => ({ answer, count: countOf(answer) }));
  else
    counts = forTeachers
      ? [...merged.values()].sort((a, b) => b.count - a.count).slice(0, LESSON_FREE_COUNTS_MAX)
      : [];
  return { answered, correctCount, counts };
}

const toAnswer = (q: QuestionRow, a: AnswerRow): LessonAnswer => ({
  student: { id: a.studentId, fullName: a.fullName },
  answer: a.answer,
  answeredAt: a.answeredAt.toISOString(),
  correct: isCorrectAnswer(q.kind, q.correct ?? null, a.answer),
});

/** A question in the viewer's view. `answers`: the teachers' list (ignored for an anonymous poll). */
export function toQuestion(
  q: QuestionRow,
  courseId: string,
  viewer: Viewer,
  tally: Tally,
  answers: AnswerRow[] = [],
): LessonQuestion {
  const teachers = viewer.as === 'teachers';
  const revealed = teachers || q.closedAt !== null;
  const own = viewer.as === 'student' ? viewer.own.get(q.id) : undefined;
  return {
    id: q.id,
    lessonId: q.lessonId,
    courseId,
    position: q.position,
    kind: q.kind,
    prompt: q.prompt,
    options: q.options,
    anonymous: q.anonymous,
    openedAt: q.openedAt.toISOString(),
    closedAt: q.closedAt?.toISOString() ?? null,
    correct: revealed ? (q.correct ?? null) : null,
    results: revealed ? resultsOf(q, tally, teachers) : null,
    mine: own
      ? {
          answer: own.answer,
          answeredAt: own.answeredAt.toISOString(),
          correct: q.closedAt !== null ? isCorrectAnswer(q.kind, q.correct ?? null, own.answer) : null,
        }
      : null,
    answers: teachers && !q.anonymous ? answers.map((a) => toAnswer(q, a)) : null,
  };
}

/** A whole lesson as the caller sees it (GET /api/lessons/:id, the course's current lesson). */
export async function lessonView(
  db: Db | Tx,
  lesson: LessonRow,
  standing: Standing,
  userId: string,
): Promise<Lesson> {
  const questions = await db
    .select()
    .from(lessonQuestions)
    .where(eq(lessonQuestions.lessonId, lesson.id))
    .orderBy(asc(lessonQuestions.position));
  const ids = questions.map((q) => q.id);
  const teachers = standing.teaches;
  // A student's results come only for closed questions: an open one's are not even computed.
  const counted = teachers ? ids : questions.filter((q) => q.closedAt !== null).map((q) => q.id);
  const [tallies, answers, students] = await Promise.all([
    talliesOf(db, counted),
    answersOf(db, ids, teachers ? undefined : userId),
    teachers ? studentsOf(db, lesson.courseId) : Promise.resolve(null),
  ]);
  const viewer: Viewer = teachers
    ? { as: 'teachers' }
    : { as: 'student', own: new Map(answers.map((a) => [a.questionId, a])) };
  return {
    id: lesson.id,
    courseId: lesson.courseId,
    startedAt: lesson.startedAt.toISOString(),
    endedAt: lesson.endedAt?.toISOString() ?? null,
    assignmentId: lesson.assignmentId,
    questions: questions.map((q) =>
      toQuestion(
        q,
        lesson.courseId,
        viewer,
        tallies.get(q.id) ?? [],
        teachers ? answers.filter((a) => a.questionId === q.id) : [],
      ),
    ),
    students,
  };
}
