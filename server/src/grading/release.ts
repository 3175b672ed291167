import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../db/client.js';
import { profiles, submissions, type assignments } from '../db/schema.js';
import type { RecordEvent } from '../events.js';
import { gradedAudience, graders, heldSql, toSubmission } from '../submissions/views.js';

type AssignmentRow = typeof assignments.$inferSelect;

/**
 * Releases an assignment's held grades (graded and not yet returned, or changed since): all of them, or those among
 * `submissionIds`. Each one released is a `submission:graded` to its student and the teacher's tabs,
 * recorded in the caller's transaction, so the student's "grade returned" notification is derived
 * with it. Every way a held grade leaves (Return now, a scheduled Return falling due, switching the
 * assignment to automatic release) goes through here, so they cannot drift apart.
 */
export async function releaseHeld(
  tx: Tx,
  record: RecordEvent,
  target: { assignment: Pick<AssignmentRow, 'id' | 'dueDate' | 'courseId'>; teacherId: string },
  now: Date,
  submissionIds?: readonly string[],
): Promise<number> {
  const { assignment, teacherId } = target;
  if (submissionIds?.length === 0) return 0;
  const released = await tx
    .update(submissions)
    // What the student sees from now on is the grade as it stands (DESIGN §17).
    .set({
      returnedAt: now,
      returnedGrade: sql`${submissions.grade}`,
      returnedFeedback: sql`${submissions.feedback}`,
      returnedGradedAt: sql`${submissions.gradedAt}`,
      returnedRubricScores: sql`${submissions.rubricScores}`,
    })
    .where(
      and(
        eq(submissions.assignmentId, assignment.id),
        heldSql,
        submissionIds ? inArray(submissions.id, [...submissionIds]) : undefined,
      ),
    )
    .returning({ id: submissions.id });
  if (released.length === 0) return 0;
  const rows = await tx
    .select({ submission: submissions, studentName: profiles.fullName, graderName: graders.fullName })
    .from(submissions)
    .innerJoin(profiles, eq(profiles.id, submissions.studentId))
    .leftJoin(graders, eq(graders.id, submissions.gradedBy))
    .where(
      inArray(
        submissions.id,
        released.map((r) => r.id),
      ),
    )
    .orderBy(asc(submissions.id));
  for (const r of rows) {
    const shown = toSubmission(r.submission, r.studentName, assignment.dueDate, r.graderName);
    record('submission:graded', shown, gradedAudience(shown, { id: assignment.courseId, teacherId }));
  }
  return released.length;
}

/** The ids of an assignment's held grades now (all, or those among `submissionIds`), in id order. */
export async function heldIds(
  tx: Tx,
  assignmentId: string,
  submissionIds?: readonly string[],
): Promise<string[]> {
  const rows = await tx
    .select({ id: submissions.id })
    .from(submissions)
    .where(
      and(
        eq(submissions.assignmentId, assignmentId),
        heldSql,
        submissionIds ? inArray(submissions.id, [...submissionIds]) : undefined,
      ),
    )
    .orderBy(asc(submissions.id));
  return rows.map((r) => r.id);
}
