import { sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { isHeld, minutesLate, sameScores, type Submission } from '@classwave/shared';
import { profiles, submissions } from '../db/schema.js';
import { audience } from '../realtime/rooms.js';

/**
 * How a submissions row is shown and who hears of its grade: shared by the submission writes, the
 * grade writes (grades.ts) and grading's Return. A row with no `submittedAt` is a grade for missing
 * work (DESIGN §17): graded, never handed in.
 */

type SubmissionRow = typeof submissions.$inferSelect;

/** The grader's profile, joined beside the student's. */
export const graders = alias(profiles, 'graders');

/**
 * The grade waits for Return (DESIGN §13, §17): given and never returned, or no longer what was
 * returned (a change back to the returned grade and feedback is not held: the student has it).
 * The rubric's scores are part of the grade: other levels for the same total are held too.
 */
export const heldNow = (
  row: Pick<
    SubmissionRow,
    | 'grade'
    | 'feedback'
    | 'returnedAt'
    | 'returnedGrade'
    | 'returnedFeedback'
    | 'rubricScores'
    | 'returnedRubricScores'
  >,
) =>
  row.grade !== null &&
  (row.returnedAt === null ||
    row.grade !== row.returnedGrade ||
    row.feedback !== row.returnedFeedback ||
    !sameScores(row.rubricScores ?? null, row.returnedRubricScores ?? null));

/** `heldNow` in SQL, for `submissions` rows (jsonb compares by value, key order aside). */
export const heldSql = sql`(${submissions.grade} is not null and (${submissions.returnedAt} is null
  or ${submissions.grade} is distinct from ${submissions.returnedGrade}
  or ${submissions.feedback} is distinct from ${submissions.returnedFeedback}
  or ${submissions.rubricScores} is distinct from ${submissions.returnedRubricScores}))`;

/** A submission as the course's teacher sees it (and as `submission:*` events carry it). */
export const toSubmission = (
  row: SubmissionRow,
  studentName: string,
  dueDate: Date,
  graderName: string | null,
): Submission => ({
  id: row.id,
  assignmentId: row.assignmentId,
  studentId: row.studentId,
  content: row.content,
  submittedAt: row.submittedAt?.toISOString() ?? null,
  grade: row.grade,
  feedback: row.feedback,
  gradedAt: row.gradedAt?.toISOString() ?? null,
  student: { id: row.studentId, fullName: studentName },
  version: row.version,
  late: minutesLate(row.submittedAt, dueDate),
  returnedAt: row.returnedAt?.toISOString() ?? null,
  held: heldNow(row),
  gradedBy: row.gradedBy ? { id: row.gradedBy, fullName: graderName ?? '' } : null,
  rubricScores: row.rubricScores ?? null,
});

/**
 * Who hears `submission:graded`: the course's teachers always; the student only when the grade as it now
 * stands is returned (not while held, nor when a returned grade was changed and is held again,
 * DESIGN §17), and only while an active member of the course (a removed or departed student cannot
 * open it, so neither the live event nor the "Grade returned" notification reaches them; the outbox
 * resolves the membership in the transaction). The notifications work relies on this: a student
 * learns of a released grade only by a `submission:graded` addressed to `user:<studentId>` (DESIGN §13).
 */
export const gradedAudience = (submission: Submission, course: { id: string; teacherId: string }) =>
  submission.grade !== null && !isHeld(submission)
    ? audience.memberStudentAndTeachers(
        submission.studentId,
        submission.assignmentId,
        course.id,
        course.teacherId,
      )
    : audience.teachers(course.id, course.teacherId);

/**
 * gradedAudience with the student's membership already read (share-locked) by the write's standing:
 * their own room when the grade reaches them and they are an active member, with no `if-member:`
 * room for the outbox to resolve (a round trip less, issue 30).
 */
export const gradedAudienceOf = (
  submission: Submission,
  course: { id: string; teacherId: string },
  studentActive: boolean,
) =>
  submission.grade !== null && !isHeld(submission) && studentActive
    ? audience.studentAndTeachers(submission.studentId, course.id, course.teacherId)
    : audience.teachers(course.id, course.teacherId);

/**
 * The row as its student may see it: the grade, feedback and grading as last returned, none while
 * held (DESIGN §13, §17). For events that reach the student's tabs with the teacher's.
 */
export function asReturned(row: SubmissionRow): SubmissionRow {
  const returned = row.returnedAt !== null && row.returnedGrade !== null;
  return {
    ...row,
    grade: returned ? row.returnedGrade : null,
    feedback: returned ? row.returnedFeedback : null,
    gradedAt: returned ? row.returnedGradedAt : null,
    returnedAt: returned ? row.returnedAt : null,
    gradedBy: returned ? row.gradedBy : null,
    rubricScores: returned ? row.returnedRubricScores : null,
  };
}
