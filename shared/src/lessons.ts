import { Type, type Static } from 'typebox';
import { LESSON_OPTIONS_MAX } from './lessonLimits.js';
import { PersonRef } from './teaching.js';

/**
 * Live lessons (DESIGN §21): a teacher pushes questions to the whole class one at a time, answers
 * stream into the teacher's results, the teacher closes (and so reveals) each, and may turn the
 * lesson into a graded assignment at the end. Accuracy only: the time of an answer never scores.
 */

export const LESSON_KINDS = ['multiple_choice', 'true_false', 'number', 'short_answer', 'poll'] as const;
export type LessonQuestionKind = (typeof LESSON_KINDS)[number];

/** The longest prompt, in characters. */
export const LESSON_PROMPT_MAX = 1000;
/** The longest choice, and the longest short answer (given or expected). */
export const LESSON_OPTION_MAX = 200;
/** Distinct number or short answers a teacher's results list, most given first. */
export const LESSON_FREE_COUNTS_MAX = 20;

/**
 * An answer, by kind: multiple choice and poll — the index of a choice; true/false — a boolean;
 * number — a finite number; short answer — text.
 */
export const LessonAnswerValue = Type.Union([
  Type.Number(),
  Type.Boolean(),
  Type.String({ maxLength: 1000 }),
]);
export type LessonAnswerValue = Static<typeof LessonAnswerValue>;

const Uuid = Type.String({ format: 'uuid' });
const Timestamp = Type.String({ format: 'date-time' });

export const CreateQuestionBody = Type.Object(
  {
    kind: Type.Union(
      [
        Type.Literal('multiple_choice'),
        Type.Literal('true_false'),
        Type.Literal('number'),
        Type.Literal('short_answer'),
        Type.Literal('poll'),
      ],
      { description: 'multiple_choice, true_false, number, short_answer or poll (no right answer)' },
    ),
    prompt: Type.String({ minLength: 1, maxLength: LESSON_PROMPT_MAX, pattern: '\\S' }),
    /** Multiple choice and poll only: 2 to 10 choices. */
    options: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: LESSON_OPTION_MAX, pattern: '\\S' }), {
        maxItems: LESSON_OPTIONS_MAX,
      }),
    ),
    /** The right answer (required for every kind but poll, which has none). */
    correct: Type.Optional(LessonAnswerValue),
    /** Polls only: counts, never who answered what, for everyone (the teacher included). */
    anonymous: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type CreateQuestionBody = Static<typeof CreateQuestionBody>;

export const AnswerBody = Type.Object({ answer: LessonAnswerValue }, { additionalProperties: false });
export type AnswerBody = Static<typeof AnswerBody>;

export const EndLessonBody = Type.Object(
  {
    /** Turn the lesson into a graded assignment: a point per question with a right answer. */
    gradebook: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type EndLessonBody = Static<typeof EndLessonBody>;

/** How the class answered a question: to its teachers live, to everyone once it is closed. */
export const LessonResults = Type.Object(
  {
    answered: Type.Integer({ minimum: 0 }),
    /** Answers that are right; null for a poll. */
    correctCount: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
    /**
     * Per choice (every choice, in order) or per distinct answer (number, short answer: most given
     * first, teachers only — a student never sees a classmate's own words or number).
     */
    counts: Type.Array(Type.Object({ answer: LessonAnswerValue, count: Type.Integer({ minimum: 0 }) })),
  },
  { additionalProperties: false },
);
export type LessonResults = Static<typeof LessonResults>;

/** One student's answer, as the course's teachers see it (never for an anonymous poll). */
export const LessonAnswer = Type.Object(
  {
    student: PersonRef,
    answer: LessonAnswerValue,
    answeredAt: Timestamp,
    /** Null for a poll. */
    correct: Type.Union([Type.Boolean(), Type.Null()]),
  },
  { additionalProperties: false },
);
export type LessonAnswer = Static<typeof LessonAnswer>;

/** The caller's own answer (students). `correct` stays null until the question is closed. */
export const OwnLessonAnswer = Type.Object(
  {
    answer: LessonAnswerValue,
    answeredAt: Timestamp,
    correct: Type.Union([Type.Boolean(), Type.Null()]),
  },
  { additionalProperties: false },
);
export type OwnLessonAnswer = Static<typeof OwnLessonAnswer>;

export const LessonQuestion = Type.Object(
  {
    id: Uuid,
    lessonId: Uuid,
    courseId: Uuid,
    /** 1 for the first question pushed. */
    position: Type.Integer({ minimum: 1 }),
    kind: CreateQuestionBody.properties.kind,
    prompt: Type.String(),
    /** The choices ([] for true/false, number and short answer). */
    options: Type.Array(Type.String()),
    anonymous: Type.Boolean(),
    openedAt: Timestamp,
    /** Null while open: one question of a lesson is open at a time. */
    closedAt: Type.Union([Timestamp, Type.Null()]),
    /** Teachers always; students once closed; null for a poll. */
    correct: Type.Union([LessonAnswerValue, Type.Null()]),
    /** Teachers always; students once closed. */
    results: Type.Union([LessonResults, Type.Null()]),
    /** Students: their own answer; null for teachers and before answering. */
    mine: Type.Union([OwnLessonAnswer, Type.Null()]),
    /** Teachers: every answer, by student; null for students and anonymous polls. */
    answers: Type.Union([Type.Array(LessonAnswer), Type.Null()]),
  },
  { additionalProperties: false },
);
export type LessonQuestion = Static<typeof LessonQuestion>;

export const Lesson = Type.Object(
  {
    id: Uuid,
    courseId: Uuid,
    startedAt: Timestamp,
    /** Null while live: one live lesson per course. */
    endedAt: Type.Union([Timestamp, Type.Null()]),
    /** The graded assignment it became at its end, if the teacher chose so. */
    assignmentId: Type.Union([Uuid, Type.Null()]),
    /** Oldest first; the open one (if any) is last. */
    questions: Type.Array(LessonQuestion),
    /** Teachers: the course's active students (for "not answered yet"); null for students. */
    students: Type.Union([Type.Array(PersonRef), Type.Null()]),
  },
  { additionalProperties: false },
);
export type Lesson = Static<typeof Lesson>;

/** GET /api/courses/:id/lessons/current: the course's live lesson, or null. */
export const CurrentLesson = Type.Object(
  { lesson: Type.Union([Lesson, Type.Null()]) },
  { additionalProperties: false },
);
export type CurrentLesson = Static<typeof CurrentLesson>;

export const LessonQuestionParams = Type.Object({ id: Uuid, qid: Uuid }, { additionalProperties: false });
export type LessonQuestionParams = Static<typeof LessonQuestionParams>;

/** PUT …/answer's answer: the caller's answer as it now stands. */
export const AnswerReceipt = Type.Object(
  { lessonId: Uuid, questionId: Uuid, answer: LessonAnswerValue, answeredAt: Timestamp },
  { additionalProperties: false },
);
export type AnswerReceipt = Static<typeof AnswerReceipt>;

// Live events (DESIGN §21)

/** `lesson:ended`: to the course's members and teachers. */
export interface LessonEndedEvent {
  id: string;
  courseId: string;
  endedAt: string;
  assignmentId: string | null;
}
/** `lesson:tally`: an answer came in; to the course's teachers only. `answer` null for an anonymous poll. */
export interface LessonTallyEvent {
  lessonId: string;
  courseId: string;
  questionId: string;
  results: LessonResults;
  answer: LessonAnswer | null;
}
/** `lesson:answer`: the student's own answer, to their own tabs. */
export type LessonAnswerEvent = AnswerReceipt & { courseId: string };
