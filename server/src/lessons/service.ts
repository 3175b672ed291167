import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import {
  answerProblem,
  ErrorCode,
  isCorrectAnswer,
  questionProblem,
  type AnswerBody,
  type AnswerReceipt,
  type CreateQuestionBody,
  type CurrentLesson,
  type EndLessonBody,
  type Lesson,
  type LessonQuestion,
} from '@classwave/shared';
import type { Caller } from '../auth/caller.js';
import type { Clock } from '../clock.js';
import type { Db, Tx } from '../db/client.js';
import { courseMembers, courses, lessonQuestions, lessons } from '../db/schema.js';
import type { RecordEvent } from '../events.js';
import { AppError, badRequest, notFound } from '../http/errors.js';
import type { Outbox } from '../realtime/outbox.js';
import { teaches } from '../courses/teaching.js';
import { audience } from '../realtime/rooms.js';
import {
  answerStanding,
  courseStanding,
  lessonStanding,
  requireAnswerer,
  requireLive,
  requireReader,
  requireTeaches,
  type LessonRow,
  type Standing,
} from './access.js';
import { lessonToGradebook } from './gradebook.js';
import { saveAnswer } from './answers.js';
import type { TallyRefresh } from './tally-refresh.js';
import { answersOf, lessonView, talliesOf, toQuestion, type QuestionRow } from './views.js';

/** The course's teachers, in their view; its active members, in theirs (no right answer before the reveal). */
const teachersOf = (s: Standing) => audience.teachers(s.courseId, s.teacherId);
const membersOf = (s: Standing) => audience.members(s.courseId);

/**
 * Live lessons (DESIGN §21). Teacher-paced: a teacher's push, close and end lock the lesson's row
 * (one at a time per lesson); an answer share-locks it, so answers run side by side and a close
 * waits for those in flight — an answer that was accepted is counted, one that comes after the
 * close is refused (409 question_closed).
 */
export function createLessonService({
  db,
  outbox,
  clock,
  tallies,
}: {
  db: Db;
  outbox: Outbox;
  clock: Clock;
  tallies: TallyRefresh;
}) {
  /** Closes the lesson's open question, if any, and tells the class (the reveal). */
  async function closeOpen(tx: Tx, record: RecordEvent, lesson: LessonRow, standing: Standing, now: Date) {
    const [closed] = await tx
      .update(lessonQuestions)
      .set({ closedAt: now })
      .where(and(eq(lessonQuestions.lessonId, lesson.id), isNull(lessonQuestions.closedAt)))
      .returning();
    return closed ? recordClosed(tx, record, closed, standing) : undefined;
  }

  async function recordClosed(tx: Tx, record: RecordEvent, q: QuestionRow, standing: Standing) {
    const [tallies, answers] = await Promise.all([
      talliesOf(tx, [q.id]),
      q.anonymous ? Promise.resolve([]) : answersOf(tx, [q.id]),
    ]);
    const tally = tallies.get(q.id) ?? [];
    const teachersView = toQuestion(q, standing.courseId, { as: 'teachers' }, tally, answers);
    record('lesson:closed', teachersView, teachersOf(standing));
    record('lesson:closed', toQuestion(q, standing.courseId, { as: 'members' }, tally), membersOf(standing));
    return teachersView;
  }

  /** The lesson locked for a teacher's change: theirs, and still live. */
  async function lockForTeacher(tx: Tx, caller: Caller, lessonId: string, action: string) {
    const found = await lessonStanding(tx, caller, lessonId, 'update');
    requireTeaches(found?.standing, action);
    requireLive(found!.lesson);
    return found!;
  }

  return {
    /** A teacher starts the course's live lesson (one at a time: a second is 409 lesson_in_progress). */
    async start(caller: Caller, courseId: string): Promise<Lesson> {
      return outbox.transaction(async (tx, record) => {
        const standing = await courseStanding(tx, caller, courseId);
        requireTeaches(standing, 'start a live lesson', 'Course');
        const now = clock.now();
        // The partial unique index decides between two starts at once: the second inserts nothing.
        const [lesson] = await tx
          .insert(lessons)
          .values({ courseId, startedBy: caller.userId, startedAt: now })
          .onConflictDoNothing()
          .returning();
        if (!lesson)
          throw new AppError(
            409,
            ErrorCode.lessonInProgress,
            'This course already has a live lesson: join it or end it first.',
          );
        const view = await lessonView(tx, lesson, standing, caller.userId);
        record('lesson:started', view, teachersOf(standing));
        record('lesson:started', { ...view, students: null }, membersOf(standing));
        return view;
      });
    },

    /**
     * A teacher pushes the next question. One is open at a time: pushing closes (and reveals) the
     * open one first, so the teacher never meets a refusal in front of the class.
     */
    async push(caller: Caller, lessonId: string, body: CreateQuestionBody): Promise<LessonQuestion> {
      const problem = questionProblem(body);
      if (problem) throw badRequest(problem);
      return outbox.transaction(async (tx, record) => {
        const { lesson, standing } = await lockForTeacher(tx, caller, lessonId, 'push questions');
        const now = clock.now();
        await closeOpen(tx, record, lesson, standing, now);
        const [q] = await tx
          .insert(lessonQuestions)
          .values({
            lessonId,
            position: sql`(select coalesce(max(${lessonQuestions.position}), 0) + 1 from ${lessonQuestions}
              where ${lessonQuestions.lessonId} = ${lessonId})`,
            kind: body.kind,
            prompt: body.prompt.trim(),
            options: body.options?.map((o) => o.trim()) ?? [],
            correct:
              body.kind === 'short_answer' && typeof body.correct === 'string'
                ? body.correct.trim()
                : (body.correct ?? null),
            anonymous: body.anonymous ?? false,
            openedAt: now,
          })
          .returning();
        const view = toQuestion(q!, standing.courseId, { as: 'teachers' }, []);
        record('lesson:question', view, teachersOf(standing));
        record(
          'lesson:question',
          toQuestion(q!, standing.courseId, { as: 'members' }, []),
          membersOf(standing),
        );
        return view;
      });
    },

    /** A teacher closes a question, which reveals it; closing it again answers it as it stands. */
    async close(caller: Caller, lessonId: string, questionId: string): Promise<LessonQuestion> {
      return outbox.transaction(async (tx, record) => {
        const { lesson, standing } = await lockForTeacher(tx, caller, lessonId, 'close questions');
        const [q] = await tx
          .select()
          .from(lessonQuestions)
          .where(and(eq(lessonQuestions.id, questionId), eq(lessonQuestions.lessonId, lesson.id)));
        if (!q) throw notFound('Question not found.');
        if (q.closedAt !== null) {
          const [tallies, answers] = await Promise.all([talliesOf(tx, [q.id]), answersOf(tx, [q.id])]);
          return toQuestion(q, standing.courseId, { as: 'teachers' }, tallies.get(q.id) ?? [], answers);
        }
        return (await closeOpen(tx, record, lesson, standing, clock.now()))!;
      });
    },

    /** A teacher ends the lesson (closing its open question), optionally into the gradebook. */
    async end(caller: Caller, lessonId: string, body: EndLessonBody): Promise<Lesson> {
      return outbox.transaction(async (tx, record) => {
        const { lesson, standing } = await lockForTeacher(tx, caller, lessonId, 'end the lesson');
        const now = clock.now();
        await closeOpen(tx, record, lesson, standing, now);
        let assignmentId: string | null = null;
        if (body.gradebook) {
          const questions = await tx
            .select()
            .from(lessonQuestions)
            .where(eq(lessonQuestions.lessonId, lesson.id));
          assignmentId = await lessonToGradebook(tx, record, caller, { lesson, standing, questions, now });
        }
        const [ended] = await tx
          .update(lessons)
          .set({ endedAt: now, assignmentId })
          .where(eq(lessons.id, lesson.id))
          .returning();
        record(
          'lesson:ended',
          { id: lesson.id, courseId: lesson.courseId, endedAt: now.toISOString(), assignmentId },
          [...membersOf(standing), ...teachersOf(standing)],
        );
        return lessonView(tx, ended!, standing, caller.userId);
      });
    },

    /**
     * A member student's answer to the open question: one per student, the last before closing
     * counts. The teachers hear the new tally; the student's own other tabs hear their answer.
     */
    async answer(
      caller: Caller,
      lessonId: string,
      questionId: string,
      body: AnswerBody,
    ): Promise<AnswerReceipt> {
      const receipt = await outbox.transaction(async (tx, record) => {
        const found = await answerStanding(tx, caller, lessonId, questionId);
        requireAnswerer(found?.standing);
        const { lesson, question: q, standing } = found!;
        if (!q) throw notFound('Question not found.');
        if (lesson.endedAt !== null) throw new AppError(409, ErrorCode.lessonEnded, 'This lesson has ended.');
        if (q.closedAt !== null)
          throw new AppError(
            409,
            ErrorCode.questionClosed,
            'This question is closed: answers are no longer taken.',
          );
        const problem = answerProblem(q.kind, q.options, body.answer);
        if (problem) throw badRequest(problem);
        const answer = typeof body.answer === 'string' ? body.answer.trim() : body.answer;
        const now = clock.now();
        const tally = await saveAnswer(tx, { questionId, studentId: caller.userId, answer, now });
        const teachersView = toQuestion(q, standing.courseId, { as: 'teachers' }, tally);
        const answeredAt = now.toISOString();
        record(
          'lesson:tally',
          {
            lessonId,
            courseId: standing.courseId,
            questionId,
            results: teachersView.results!,
            answer: q.anonymous
              ? null
              : {
                  student: { id: caller.userId, fullName: found!.callerName },
                  answer,
                  answeredAt,
                  correct: isCorrectAnswer(q.kind, q.correct ?? null, answer),
                },
          },
          // Named here: the standing read (and share-locked) them, so the outbox needs no statement.
          audience.teachersNamed(standing.teacherId, found!.coTeacherIds),
        );
        const receipt = { lessonId, questionId, answer, answeredAt };
        record('lesson:answer', { ...receipt, courseId: standing.courseId }, audience.student(caller.userId));
        return receipt;
      });
      tallies.answered(questionId);
      return receipt;
    },

    /** A lesson as the caller sees it (the course's teachers and its active members). */
    async get(caller: Caller, lessonId: string): Promise<Lesson> {
      const found = await lessonStanding(db, caller, lessonId);
      requireReader(found?.standing);
      return lessonView(db, found!.lesson, found!.standing, caller.userId);
    },

    /** The course's live lesson, or null: where a late joiner or a reconnecting tab lands. */
    async current(caller: Caller, courseId: string): Promise<CurrentLesson> {
      const standing = await courseStanding(db, caller, courseId);
      requireReader(standing, 'Course');
      const [lesson] = await db
        .select()
        .from(lessons)
        .where(and(eq(lessons.courseId, courseId), isNull(lessons.endedAt)));
      return { lesson: lesson ? await lessonView(db, lesson, standing, caller.userId) : null };
    },

    /** Every live lesson the caller takes part in (their courses'), for the question overlay on any page. */
    async live(caller: Caller): Promise<Lesson[]> {
      const rows = await db
        .select({
          lesson: lessons,
          teacherId: courses.teacherId,
          teaches: sql<boolean>`${teaches(caller.userId)}`,
        })
        .from(lessons)
        .innerJoin(courses, and(eq(courses.id, lessons.courseId), isNull(courses.deletedAt)))
        .leftJoin(
          courseMembers,
          and(
            eq(courseMembers.courseId, courses.id),
            eq(courseMembers.studentId, caller.userId),
            eq(courseMembers.status, 'active'),
          ),
        )
        .where(
          and(
            isNull(lessons.endedAt),
            sql`(${teaches(caller.userId)} or ${courseMembers.studentId} is not null)`,
          ),
        )
        .orderBy(asc(lessons.startedAt));
      return Promise.all(
        rows.map((r) =>
          lessonView(
            db,
            r.lesson,
            {
              courseId: r.lesson.courseId,
              teacherId: r.teacherId,
              teaches: Boolean(r.teaches),
              membership: r.teaches ? null : 'active',
            },
            caller.userId,
          ),
        ),
      );
    },
  };
}
export type LessonService = ReturnType<typeof createLessonService>;
