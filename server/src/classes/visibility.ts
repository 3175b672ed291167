import { and, eq, isNull, sql } from 'drizzle-orm';
import type { MEMBER_STATUSES } from '@classwave/shared';
import type { Caller } from '../auth/caller.js';
import type { Db, Tx } from '../db/client.js';
import { assignments, courseMembers, courses } from '../db/schema.js';
import { forbidden, notFound } from '../http/errors.js';
import { teaches, teachesCourseRow } from '../courses/teaching.js';
import { assignedTo } from '../assignments/visibility.js';

/**
 * Who sees a course (DESIGN §11, §20): its teachers (owner and co-teachers), and its active members. Everything else answers 404,
 * so a course's existence does not leak; 403 only for someone who can see the course but may not
 * do this to it.
 */

/** The caller's membership status in a course, or undefined when they never joined it. */
export async function memberStatus(
  tx: Db | Tx,
  courseId: string,
  studentId: string,
): Promise<(typeof MEMBER_STATUSES)[number] | undefined> {
  const [row] = await tx
    .select({ status: courseMembers.status })
    .from(courseMembers)
    .where(and(eq(courseMembers.courseId, courseId), eq(courseMembers.studentId, studentId)));
  return row?.status;
}

/**
 * SQL true where `courses` is visible to the caller (a teacher's own, a student's active
 * memberships), and not in the bin (DESIGN §17): a binned course is nobody's until restored.
 */
export function visibleCourse(caller: Caller) {
  return and(
    isNull(courses.deletedAt),
    caller.role === 'teacher'
      ? teaches(caller.userId)
      : sql`exists (select 1 from ${courseMembers} where ${courseMembers.courseId} = ${courses.id}
        and ${courseMembers.studentId} = ${caller.userId} and ${courseMembers.status} = 'active')`,
  )!;
}

/**
 * SQL true where the caller sees `assignments` (DESIGN §11): a teacher's own courses, a student's
 * active ones where it is published and theirs (§20); never a binned assignment (a binned course holds only binned ones, DESIGN §17).
 */
export function visibleAssignment(userId: string, role: 'student' | 'teacher') {
  return and(
    isNull(assignments.deletedAt),
    role === 'teacher'
      ? teaches(userId)
      : and(
          sql`exists (select 1 from ${courseMembers} where ${courseMembers.courseId} = ${assignments.courseId}
        and ${courseMembers.studentId} = ${userId} and ${courseMembers.status} = 'active')`,
          // Published, and for them (DESIGN §20).
          assignedTo(userId),
        ),
  )!;
}

/**
 * The caller must teach the course (its owner or a co-teacher, DESIGN §20). A course the caller
 * cannot see is a 404 (as if it did not exist); a member student gets 403, since they know the
 * course is there.
 */
export function requireTeacherOf<T extends Course>(
  tx: Db | Tx,
  caller: Caller,
  course: T | undefined,
  action: string,
): Promise<T> {
  return teacherOf(tx, caller, course, action, 'Course');
}

/**
 * `requireTeacherOf` for a route about one assignment of the course (its `what`, say "Scheduled
 * return", names it in a 404): a member the assignment is not for (DESIGN §20) gets 404, as if it
 * did not exist, where a member it is for gets 403. The id is required, so such a route cannot
 * forget it and tell an unassigned student the assignment is there.
 */
export function requireTeacherOfAssignment<T extends Course>(
  tx: Db | Tx,
  caller: Caller,
  course: T | undefined,
  assignmentId: string,
  action: string,
  what = 'Assignment',
): Promise<T> {
  return teacherOf(tx, caller, course, action, what, assignmentId);
}

type Course = { id: string; teacherId: string; deletedAt?: Date | null };

async function teacherOf<T extends Course>(
  tx: Db | Tx,
  caller: Caller,
  course: T | undefined,
  action: string,
  what: string,
  assignmentId?: string,
): Promise<T> {
  // A binned course is changed only by restoring it (DESIGN §17): until then it is not there.
  if (!course || course.deletedAt) throw notFound(`${what} not found.`);
  if (caller.role === 'teacher' && (await teachesCourseRow(tx, course, caller.userId))) return course;
  if (
    caller.role === 'student' &&
    (await memberStatus(tx, course.id, caller.userId)) === 'active' &&
    (assignmentId === undefined || (await isAssigned(tx, caller.userId, assignmentId)))
  )
    throw forbidden(`Only the course's teachers can ${action}.`);
  throw notFound(`${what} not found.`);
}

/** Whether the assignment is published and for the student (assignments/visibility.ts). */
async function isAssigned(tx: Db | Tx, studentId: string, assignmentId: string): Promise<boolean> {
  const [row] = await tx
    .select({ assigned: sql<boolean>`${assignedTo(studentId)}` })
    .from(assignments)
    .where(eq(assignments.id, assignmentId));
  return row?.assigned === true;
}

/**
 * The caller must own the course: deleting or archiving it, removing a co-teacher, transferring
 * (DESIGN §20). A co-teacher, who sees the course, gets 403 naming what only the owner may do.
 */
export async function requireOwnerOf<T extends Course>(
  tx: Db | Tx,
  caller: Caller,
  course: T | undefined,
  action: string,
): Promise<T> {
  const taught = await requireTeacherOf(tx, caller, course, action);
  if (taught.teacherId !== caller.userId) throw forbidden(`Only the course's owner can ${action}.`);
  return taught;
}
