import { Type, type Static } from 'typebox';
import { CreateQuestionBody, LessonAnswerValue } from './lessons.js';

/**
 * A course's question bank (DESIGN §21): questions its teachers saved, to push again in a later
 * lesson. Only the course's teachers read it, so it keeps each question's right answer.
 */

/** The most questions one course's bank keeps. */
export const QUESTION_BANK_MAX = 500;

export const BankQuestion = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    courseId: Type.String({ format: 'uuid' }),
    kind: CreateQuestionBody.properties.kind,
    prompt: Type.String(),
    /** The choices ([] for true/false, number and short answer). */
    options: Type.Array(Type.String()),
    /** Null for a poll. */
    correct: Type.Union([LessonAnswerValue, Type.Null()]),
    anonymous: Type.Boolean(),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);
export type BankQuestion = Static<typeof BankQuestion>;

/** POST /api/courses/:id/question-bank: a question as pushed to a lesson. */
export const SaveBankQuestionBody = CreateQuestionBody;
export type SaveBankQuestionBody = CreateQuestionBody;
