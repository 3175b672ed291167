import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import type { Assignment, Role } from '@classwave/shared';
import type { Caller } from '../auth/service.js';
import type { Db } from '../db/client.js';
import { assignments, courseMembers, courses, submissions } from '../db/schema.js';

/**
 * Assignments as one caller sees them, ordered by due date: a student gets their own submission
 * (one LEFT JOIN on the unique (assignment, student) index), a teacher the number of submissions.
 * They are the app's most frequent reads, so each shape is prepared once per database: no query
 * building per request, and PostgreSQL plans it once per connection (bench S1: about half the
 * app's CPU per list).
 */
export function prepareAssignmentLists(db: Db) {
  // A student sees only the assignments of courses they are an active member of (DESIGN §11).
  const activeMember = sql`exists (select 1 from ${courseMembers} where ${courseMembers.courseId} = ${assignments.courseId}
    and ${courseMembers.studentId} = ${sql.placeholder('userId')} and ${courseMembers.status} = 'active')`;
  function prepare(role: Role, where: SQL | undefined, name: string) {
    const isStudent = role === 'student';
    return db
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
        submissionCount: isStudent
          ? sql<number | null>`null::int`
          : sql<
              number | null
            >`(select count(*)::int from ${submissions} where ${submissions.assignmentId} = ${assignments.id})`,
      })
      .from(assignments)
      .innerJoin(courses, eq(courses.id, assignments.courseId))
      .leftJoin(
        submissions,
        and(
          eq(submissions.assignmentId, assignments.id),
          isStudent ? eq(submissions.studentId, sql.placeholder('userId')) : sql`false`,
        ),
      )
      .where(and(where, isStudent ? activeMember : undefined))
      .orderBy(asc(assignments.dueDate), asc(assignments.id))
      .prepare(name);
  }
  const inCourse = eq(assignments.courseId, sql.placeholder('courseId'));
  const lists = {
    student: prepare('student', undefined, 'assignments_for_student'),
    teacher: prepare('teacher', eq(courses.teacherId, sql.placeholder('userId')), 'assignments_for_teacher'),
    courseStudent: prepare('student', inCourse, 'course_assignments_for_student'),
    courseTeacher: prepare('teacher', inCourse, 'course_assignments_for_teacher'),
  };
  type Rows = Awaited<ReturnType<typeof lists.student.execute>>;
  const toAssignments = (rows: Rows) =>
    rows.map((row) => toAssignment(row.assignment, row.courseTitle, row.own, row.submissionCount));

  return {
    /** Students: their active courses' assignments. Teachers: their own courses' assignments. */
    async visibleTo(caller: Caller): Promise<Assignment[]> {
      const list = caller.role === 'student' ? lists.student : lists.teacher;
      return toAssignments(await list.execute({ userId: caller.userId }));
    },
    /** One course's assignments, as this caller sees them. */
    async ofCourse(caller: Caller, courseId: string): Promise<Assignment[]> {
      const list = caller.role === 'student' ? lists.courseStudent : lists.courseTeacher;
      return toAssignments(await list.execute({ userId: caller.userId, courseId }));
    },
  };
}
export type AssignmentLists = ReturnType<typeof prepareAssignmentLists>;

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
