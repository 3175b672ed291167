import { and, eq, isNull, sql } from 'drizzle-orm';
import { ErrorCode } from '@classwave/shared';
import type { Caller } from '../auth/caller.js';
import type { Db, Tx } from '../db/client.js';
import { assignments, courseMembers, courses, profiles } from '../db/schema.js';
import { AppError } from '../http/errors.js';
import { requireActiveMember, requireStudent } from '../policies.js';
import { assignedTo, effectiveDue } from '../assignments/visibility.js';

const CLOSED = 'This assignment closed at its due time, so it no longer takes submissions.';

/**
 * Who may hand work in to an assignment (a submit, and a submission's files, DESIGN §18): an
 * active member student of its course (requireActiveMember's 404 or 403 otherwise). The student's
 * name comes with it: one round trip.
 */
export async function submitTarget(db: Db | Tx, caller: Caller, assignmentId: string) {
  requireStudent(caller, 'submit assignments');
  const [target] = await db
    .select({
      courseId: courses.id,
      teacherId: courses.teacherId,
      // Their own due date (an extension's, DESIGN §20): closing and lateness follow it.
      dueDate: effectiveDue(caller.userId).mapWith(assignments.dueDate),
      closesAtDue: assignments.closesAtDue,
      assigned: sql<boolean>`${assignedTo(caller.userId)}`,
      studentName: sql<string>`(select ${profiles.fullName} from ${profiles} where ${profiles.id} = ${caller.userId})`,
      membership: courseMembers.status,
    })
    .from(assignments)
    .innerJoin(courses, eq(courses.id, assignments.courseId))
    .leftJoin(
      courseMembers,
      and(eq(courseMembers.courseId, courses.id), eq(courseMembers.studentId, caller.userId)),
    )
    .where(and(eq(assignments.id, assignmentId), isNull(assignments.deletedAt)));
  requireActiveMember(target, 'submit to it');
  return target;
}

/** The assignment still takes work: 409 assignment_closed after its due time when it closes then. */
export function requireOpen(assignment: { closesAtDue: boolean; dueDate: Date }, now: Date): void {
  if (assignment.closesAtDue && now.getTime() > assignment.dueDate.getTime())
    throw new AppError(409, ErrorCode.assignmentClosed, CLOSED);
}
