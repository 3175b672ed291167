import { and, count, desc, eq } from 'drizzle-orm';
import {
  QUESTION_BANK_MAX,
  questionProblem,
  type BankQuestion,
  type SaveBankQuestionBody,
} from '@classwave/shared';
import type { Caller } from '../auth/caller.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/client.js';
import { questionBank } from '../db/schema.js';
import { badRequest, conflict, notFound } from '../http/errors.js';
import { courseStanding, requireTeaches } from './access.js';

type BankRow = typeof questionBank.$inferSelect;

const toBankQuestion = (r: BankRow): BankQuestion => ({
  id: r.id,
  courseId: r.courseId,
  kind: r.kind,
  prompt: r.prompt,
  options: r.options,
  correct: r.correct ?? null,
  anonymous: r.anonymous,
  createdAt: r.createdAt.toISOString(),
});

/**
 * A course's question bank (DESIGN §21): its teachers (owner and co-teachers) save questions and
 * push them again in a later lesson (the client fills the composer from the bank). A member student
 * is told 403, anyone else that the course is not there (404).
 */
export function createBankService({ db, clock }: { db: Db; clock: Clock }) {
  async function requireBank(caller: Caller, courseId: string, action: string) {
    requireTeaches(await courseStanding(db, caller, courseId), action, 'Course');
  }

  return {
    /** The bank, newest first. */
    async list(caller: Caller, courseId: string): Promise<BankQuestion[]> {
      await requireBank(caller, courseId, 'read the question bank');
      const rows = await db
        .select()
        .from(questionBank)
        .where(eq(questionBank.courseId, courseId))
        .orderBy(desc(questionBank.createdAt), desc(questionBank.id));
      return rows.map(toBankQuestion);
    },

    /** Saves a question as it would be pushed; a full bank is 409. */
    async save(caller: Caller, courseId: string, body: SaveBankQuestionBody): Promise<BankQuestion> {
      const problem = questionProblem(body);
      if (problem) throw badRequest(problem);
      await requireBank(caller, courseId, 'save to the question bank');
      return db.transaction(async (tx) => {
        const [kept] = await tx
          .select({ n: count() })
          .from(questionBank)
          .where(eq(questionBank.courseId, courseId));
        if ((kept?.n ?? 0) >= QUESTION_BANK_MAX)
          throw conflict(`The question bank is full (${QUESTION_BANK_MAX} questions): remove some first.`);
        const [row] = await tx
          .insert(questionBank)
          .values({
            courseId,
            kind: body.kind,
            prompt: body.prompt.trim(),
            options: body.options?.map((o) => o.trim()) ?? [],
            correct:
              body.kind === 'short_answer' && typeof body.correct === 'string'
                ? body.correct.trim()
                : (body.correct ?? null),
            anonymous: body.anonymous ?? false,
            createdBy: caller.userId,
            createdAt: clock.now(),
          })
          .returning();
        return toBankQuestion(row!);
      });
    },

    /** Removes a question from the bank (lessons that asked it keep their own copy). */
    async remove(caller: Caller, courseId: string, questionId: string): Promise<void> {
      await requireBank(caller, courseId, 'change the question bank');
      const gone = await db
        .delete(questionBank)
        .where(and(eq(questionBank.id, questionId), eq(questionBank.courseId, courseId)))
        .returning({ id: questionBank.id });
      if (gone.length === 0) throw notFound('Question not found in this course’s bank.');
    },
  };
}
export type BankService = ReturnType<typeof createBankService>;
