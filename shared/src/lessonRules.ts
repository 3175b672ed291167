import { LESSON_OPTIONS_MAX, LESSON_SHORT_ANSWER_MAX } from './lessonLimits.js';
import type { CreateQuestionBody, LessonAnswerValue, LessonQuestionKind } from './lessons.js';

/**
 * The live lessons' pure rules (DESIGN §21), shared by the server's checks and the client's forms:
 * what fits each kind of question and answer, and what is right. Apart from the schemas, so the
 * sign-in page's first chunk carries none of it (nor imports a value from the schemas' file:
 * the two chunks would import each other).
 */

const isIndex = (value: unknown, options: readonly unknown[]) =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < options.length;
const isText = (value: unknown, max: number) =>
  typeof value === 'string' && /\S/.test(value) && value.length <= max;

/** What is wrong with a question for its kind (naming the field), or null when it is fine. */
export function questionProblem(body: CreateQuestionBody): string | null {
  const { kind, options, correct, anonymous } = body;
  const choices = kind === 'multiple_choice' || kind === 'poll';
  if (choices && (!options || options.length < 2))
    return `body.options must list 2 to ${LESSON_OPTIONS_MAX} choices for a ${kind} question`;
  if (!choices && options !== undefined) return `body.options is only for multiple_choice and poll questions`;
  if (anonymous && kind !== 'poll') return 'body.anonymous is only for polls';
  if (kind === 'poll')
    return correct === undefined ? null : 'body.correct must be left out: a poll has no right answer';
  if (correct === undefined) return `body.correct is required for a ${kind} question`;
  switch (kind) {
    case 'multiple_choice':
      return isIndex(correct, options!) ? null : 'body.correct must be the index of one of body.options';
    case 'true_false':
      return typeof correct === 'boolean' ? null : 'body.correct must be true or false';
    case 'number':
      return typeof correct === 'number' && Number.isFinite(correct) ? null : 'body.correct must be a number';
    case 'short_answer':
      return isText(correct, LESSON_SHORT_ANSWER_MAX)
        ? null
        : `body.correct must be text of 1 to ${LESSON_SHORT_ANSWER_MAX} characters`;
  }
}

/** What is wrong with an answer to a question of this kind, or null when it is fine. */
export function answerProblem(
  kind: LessonQuestionKind,
  options: readonly string[],
  answer: unknown,
): string | null {
  switch (kind) {
    case 'multiple_choice':
    case 'poll':
      return isIndex(answer, options)
        ? null
        : `body.answer must be the index of one of the ${options.length} choices (0 to ${options.length - 1})`;
    case 'true_false':
      return typeof answer === 'boolean' ? null : 'body.answer must be true or false';
    case 'number':
      return typeof answer === 'number' && Number.isFinite(answer) ? null : 'body.answer must be a number';
    case 'short_answer':
      return isText(answer, LESSON_SHORT_ANSWER_MAX)
        ? null
        : `body.answer must be text of 1 to ${LESSON_SHORT_ANSWER_MAX} characters`;
  }
}

/** A short answer as compared: case, surrounding and repeated spaces, and Unicode forms aside. */
export const normalizeShortAnswer = (text: string) =>
  text.normalize('NFKC').trim().replace(/\s+/g, ' ').toLocaleLowerCase('en');

/** The key answers are counted under: short answers normalized, so "Paris" and " paris" are one. */
export const answerKey = (kind: LessonQuestionKind, answer: LessonAnswerValue): string =>
  kind === 'short_answer' && typeof answer === 'string'
    ? normalizeShortAnswer(answer)
    : JSON.stringify(answer);

/** Whether an answer is right; null for a poll (no right answer). Never depends on when it came. */
export function isCorrectAnswer(
  kind: LessonQuestionKind,
  correct: LessonAnswerValue | null,
  answer: LessonAnswerValue,
): boolean | null {
  if (kind === 'poll' || correct === null) return null;
  if (kind === 'number' && typeof answer === 'number' && typeof correct === 'number')
    return Math.abs(answer - correct) <= 1e-9 * Math.max(1, Math.abs(correct));
  return answerKey(kind, answer) === answerKey(kind, correct);
}

/** A question has a right answer (and so a point in the gradebook) unless it is a poll. */
export const isGradable = (kind: LessonQuestionKind) => kind !== 'poll';
