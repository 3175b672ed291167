import type { LessonAnswerValue, LessonQuestion, LessonQuestionKind } from '@classwave/shared';

/** What each kind is called in the teacher's form and on the question. */
export const KIND_LABELS: Record<LessonQuestionKind, string> = {
  multiple_choice: 'Multiple choice',
  true_false: 'True or false',
  number: 'Number',
  short_answer: 'Short answer',
  poll: 'Poll (no right answer)',
};

/** An answer as a person reads it: the choice's words, True/False, the number or the text. */
export function answerText(
  q: Pick<LessonQuestion, 'kind' | 'options'>,
  answer: LessonAnswerValue | null,
): string {
  if (answer === null) return '—';
  if (q.kind === 'multiple_choice' || q.kind === 'poll')
    return typeof answer === 'number' ? (q.options[answer] ?? '?') : String(answer);
  if (q.kind === 'true_false') return answer === true ? 'True' : answer === false ? 'False' : String(answer);
  return String(answer);
}
