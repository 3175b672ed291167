import { Type, type Static } from 'typebox';
import { LIMITS } from './limits.js';

/** Archive, copy and reuse (DESIGN §20): the bodies of their routes. */

const Text = (maxLength: number, description: string) =>
  Type.String({ minLength: 1, maxLength, pattern: '\\S', description });

/** `GET /api/courses?archived=true`: the caller's past (archived) classes instead of the current ones. */
export const CourseListQuery = Type.Object(
  {
    archived: Type.Optional(
      Type.Boolean({
        description: 'true: only archived courses ("Past classes"); default: only current ones.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type CourseListQuery = Static<typeof CourseListQuery>;

export const CopyCourseBody = Type.Object(
  {
    /** The new course's title; left out: the source's title with " (copy)". */
    title: Type.Optional(Text(LIMITS.courseTitle, 'The new course title.')),
    /** Its code, unique among the caller's courses (409 otherwise); left out: a free one made from the source's. */
    code: Type.Optional(Text(LIMITS.courseCode, 'A short code such as CS101.')),
  },
  { additionalProperties: false },
);
export type CopyCourseBody = Static<typeof CopyCourseBody>;

export const CopyAssignmentBody = Type.Object(
  {
    /** The course to copy it into: one the caller teaches, not archived. */
    courseId: Type.String({ format: 'uuid' }),
    /** The copy's due date; left out: the source's, moved on by whole days to a week from now when it has passed. */
    dueDate: Type.Optional(
      Type.String({ format: 'date-time', description: 'An ISO 8601 date and time with its offset.' }),
    ),
  },
  { additionalProperties: false },
);
export type CopyAssignmentBody = Static<typeof CopyAssignmentBody>;

const DAY_MS = 24 * 3600 * 1000;
/** How far ahead a copied assignment whose date has passed lands: a week. */
export const COPY_LEAD_DAYS = 7;

/**
 * The due dates of copied assignments (DESIGN §20), kept relative to each other: when the earliest
 * is still ahead (a second section this term) they stay as they are; when it has passed (last term's
 * course) all move forward by the same whole number of days so the earliest is about a week away,
 * each at its own time of day (in UTC). Pure, so the dialog can show what a copy will do.
 */
export function shiftDueDates(dues: readonly Date[], now: Date): Date[] {
  if (dues.length === 0) return [];
  const earliest = Math.min(...dues.map((d) => d.getTime()));
  if (earliest >= now.getTime()) return dues.map((d) => new Date(d.getTime()));
  const days = Math.ceil((now.getTime() + COPY_LEAD_DAYS * DAY_MS - earliest) / DAY_MS);
  return dues.map((d) => new Date(d.getTime() + days * DAY_MS));
}
