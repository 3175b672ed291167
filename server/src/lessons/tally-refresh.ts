import { and, eq, isNull } from 'drizzle-orm';
import type { Core } from '../core.js';
import { courses, lessonQuestions, lessons } from '../db/schema.js';
import { audience } from '../realtime/rooms.js';
import { talliesOf, toQuestion } from './views.js';

/** How long after an answer commits its question's tally is read again (the last of a burst). */
export const TALLY_REFRESH_MS = 200;

/**
 * The teachers' live count converges on the truth. Each answer's tally is read in its own
 * transaction, whose snapshot cannot see answers committing beside it, so in a burst (a class
 * answering within seconds) the last tally to arrive can be short of the class by the answers that
 * crossed it (bench S11lessons: 192 of 200). A short while after an answer commits, its question's
 * tally is read again once, after every answer committed by then, and sent to the teachers with no
 * answer attached; answers in a burst share one re-read. Each process re-reads after its own
 * commits, so the re-read after the last answer of all comes last.
 */
export function createTallyRefresh({ outbox, afterCommit, log }: Core) {
  const timers = new Map<string, NodeJS.Timeout>();

  async function refresh(questionId: string): Promise<void> {
    await outbox.transaction(async (tx, record) => {
      const [row] = await tx
        .select({ question: lessonQuestions, teacherId: courses.teacherId, courseId: courses.id })
        .from(lessonQuestions)
        .innerJoin(lessons, and(eq(lessons.id, lessonQuestions.lessonId), isNull(lessons.endedAt)))
        .innerJoin(courses, and(eq(courses.id, lessons.courseId), isNull(courses.deletedAt)))
        .where(and(eq(lessonQuestions.id, questionId), isNull(lessonQuestions.closedAt)));
      // A closed question's results went out with its close.
      if (!row) return;
      const tally = (await talliesOf(tx, [questionId])).get(questionId) ?? [];
      const view = toQuestion(row.question, row.courseId, { as: 'teachers' }, tally);
      record(
        'lesson:tally',
        {
          lessonId: row.question.lessonId,
          courseId: row.courseId,
          questionId,
          results: view.results!,
          answer: null,
        },
        audience.teachers(row.courseId, row.teacherId),
      );
    });
  }

  return {
    /** An answer to `questionId` committed: its tally is read again shortly (once for a burst). */
    answered(questionId: string): void {
      if (timers.has(questionId)) return;
      const timer = setTimeout(() => {
        timers.delete(questionId);
        afterCommit.track(
          refresh(questionId).catch((err: unknown) => log.warn({ err, questionId }, 'tally re-read failed')),
        );
      }, TALLY_REFRESH_MS);
      timer.unref();
      timers.set(questionId, timer);
    },
    close(): void {
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
    },
  };
}
export type TallyRefresh = ReturnType<typeof createTallyRefresh>;
