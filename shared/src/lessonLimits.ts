/**
 * The live lessons' size limits (DESIGN §21), in a file of their own: the schemas (lessons.ts) and
 * the rules (lessonRules.ts) both read them, and neither imports the other's values.
 */

/** Choices of a multiple-choice question or a poll: at least 2, at most this many. */
export const LESSON_OPTIONS_MAX = 10;
/** The longest short answer, given or expected. */
export const LESSON_SHORT_ANSWER_MAX = 200;
