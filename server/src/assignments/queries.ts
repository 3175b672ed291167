import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import type { Assignment } from '@classwave/shared';
import type { Caller } from '../auth/service.js';
import type { Db, Tx } from '../db/client.js';
import { assignments, courses, submissions } from '../db/schema.js';

/**
 * Assignments as one caller sees them, ordered by due date: a student gets their own submission
 * (one LEFT JOIN on the unique (assignment, student) index), a teacher the number of submissions.
 */
export async function selectAssignments(
  db: Db | Tx,
  caller: Caller,
  where: SQL | undefined,
): Promise<Assignment[]> {
  const isStudent = caller.role === 'student';
  const submissionCount = sql<number>`(select count(*)::int from ${submissions} where ${submissions.assignmentId} = ${assignments.id})`;
  const rows = await db
    .select({
      assignment: assignments,
      courseTitle: courses.title,
      own: {
        id: submissions.id,
        submittedAt: submissions.submittedAt,
        grade: submissions.grade,
        feedback: submissions.feedback,
        gradedAt: submissions.gradedAt,
      },
      ...(isStudent ? {} : { submissionCount }),
    })
    .from(assignments)
    .innerJoin(courses, eq(courses.id, assignments.courseId))
    .leftJoin(
      submissions,
      and(
        eq(submissions.assignmentId, assignments.id),
        isStudent ? eq(submissions.studentId, caller.userId) : sql`false`,
      ),
    )
    .where(where)
    .orderBy(asc(assignments.dueDate), asc(assignments.id));
  return rows.map((row) =>
    toAssignment(
      row.assignment,
      row.courseTitle,
      row.own,
      'submissionCount' in row ? (row.submissionCount as number) : null,
    ),
  );
}

type AssignmentRow = typeof assignments.$inferSelect;
type OwnRow = {
  id: string | null;
  submittedAt: Date | null;
  grade: number | null;
  feedback: string | null;
  gradedAt: Date | null;
} | null;

export function toAssignment(
  row: AssignmentRow,
  courseTitle: string,
  own: OwnRow,
  submissionCount: number | null,
): Assignment {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    dueDate: row.dueDate.toISOString(),
    maxPoints: row.maxPoints,
    courseId: row.courseId,
    courseTitle,
    createdAt: row.createdAt.toISOString(),
    submission:
      own?.id && own.submittedAt
        ? {
            id: own.id,
            submittedAt: own.submittedAt.toISOString(),
            grade: own.grade,
            feedback: own.feedback,
            gradedAt: own.gradedAt?.toISOString() ?? null,
          }
        : null,
    submissionCount,
  };
}
