import {
  isCorrectAnswer,
  type Lesson,
  type LessonAnswerEvent,
  type LessonEndedEvent,
  type LessonQuestion,
  type LessonTallyEvent,
} from '@classwave/shared';

/**
 * Pure patches of a cached lesson by its live events (DESIGN §21), the same for every cache that
 * holds one (the caller's live lessons, a course's current one, a lesson by id).
 */

/** A question as pushed or closed: the event's view, keeping what this tab knows of its own answer. */
export function upsertQuestion(lesson: Lesson, q: LessonQuestion): void {
  const i = lesson.questions.findIndex((x) => x.id === q.id);
  const before = i >= 0 ? lesson.questions[i] : undefined;
  // The class's view carries nobody's own answer: keep this tab's, and score it once revealed.
  const own = q.mine ?? before?.mine ?? null;
  const mine = own && {
    ...own,
    correct: q.closedAt !== null ? isCorrectAnswer(q.kind, q.correct, own.answer) : null,
  };
  // The teachers' list of answers stays as the tallies built it when the event carries none.
  const answers = q.answers ?? before?.answers ?? null;
  const merged = { ...q, mine, answers: q.anonymous ? null : answers };
  if (before) lesson.questions[i] = merged;
  else {
    // A push closes the open one on the server first; its `closed` event is on its way, but order the list anyway.
    lesson.questions.push(merged);
    lesson.questions.sort((a, b) => a.position - b.position);
  }
}

/** An answer came in (teachers): the results, and that student's answer in the list. */
export function applyTally(lesson: Lesson, tally: LessonTallyEvent): void {
  const q = lesson.questions.find((x) => x.id === tally.questionId);
  if (!q) return;
  q.results = tally.results;
  if (!tally.answer) return;
  const answers = q.answers ?? [];
  const at = answers.findIndex((a) => a.student.id === tally.answer!.student.id);
  if (at >= 0) answers[at] = tally.answer;
  else answers.push(tally.answer);
  q.answers = answers;
}

/** The student's own answer, from this or another of their tabs. */
export function applyOwnAnswer(
  lesson: Lesson,
  event: Pick<LessonAnswerEvent, 'questionId' | 'answer' | 'answeredAt'>,
): void {
  const q = lesson.questions.find((x) => x.id === event.questionId);
  if (!q) return;
  // An older answer arriving after a newer one (two tabs at once) does not win.
  if (q.mine && q.mine.answeredAt > event.answeredAt) return;
  q.mine = { answer: event.answer, answeredAt: event.answeredAt, correct: null };
}

export function applyEnded(lesson: Lesson, ended: LessonEndedEvent): void {
  lesson.endedAt = ended.endedAt;
  lesson.assignmentId = ended.assignmentId;
}

/** The open question of a lesson, if any. */
export const openQuestion = (lesson: Lesson | null | undefined) =>
  lesson?.questions.find((q) => q.closedAt === null);

/** The students who have not answered the question yet (teachers; none known for an anonymous poll). */
export function notAnswered(lesson: Lesson, q: LessonQuestion) {
  if (!lesson.students || !q.answers) return [];
  const answered = new Set(q.answers.map((a) => a.student.id));
  return lesson.students.filter((s) => !answered.has(s.id));
}
