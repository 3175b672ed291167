import { and, eq, isNull, sql } from 'drizzle-orm';
import { ErrorCode, type Extension } from '@classwave/shared';
import type { Caller } from '../auth/caller.js';
import type { Clock } from '../clock.js';
import type { Tx } from '../db/client.js';
import { assignmentExtensions, assignments, courseMembers, courses } from '../db/schema.js';
import { AppError, badRequest, notFound } from '../http/errors.js';
import type { Outbox } from '../realtime/outbox.js';
import { assigneeRoom, audience } from '../realtime/rooms.js';
import { teachesCourseRow } from '../courses/teaching.js';
import { bumpSequence } from '../calendar/revisions.js';
import { rescheduleStudentReminder } from '../notifications/reminders.js';
import { assignedTo } from './visibility.js';

/**
 * Per-student extensions (DESIGN §20): a due date for one student on one assignment, set and
 * removed by the course's teachers, seen only by that student and the teachers. Everything that
 * reads a student's due date takes it through visibility.ts's `effectiveDue`.
 */

/**
 * The assignment (locked) and the student's standing in its course, for a teacher of it: anyone
 * else gets 404, students included (a student must not learn of an assignment through this route);
 * a student who is not an active member 404, one it is not for 422 not_assigned.
 */
async function extensionTarget(tx: Tx, caller: Caller, assignmentId: string, studentId: string) {
  const notThere = () => notFound('Assignment not found.');
  if (caller.role !== 'teacher') throw notThere();
  const [row] = await tx
    .select({
      assignment: assignments,
      course: { id: courses.id, teacherId: courses.teacherId },
      membership: sql<string | null>`(select ${courseMembers.status} from ${courseMembers}
        where ${courseMembers.courseId} = ${courses.id} and ${courseMembers.studentId} = ${studentId}::uuid)`,
      assigned: sql<boolean>`${assignedTo(studentId)}`,
    })
    .from(assignments)
    .innerJoin(courses, and(eq(courses.id, assignments.courseId), isNull(courses.deletedAt)))
    .where(and(eq(assignments.id, assignmentId), isNull(assignments.deletedAt)))
    .for('update', { of: assignments });
  if (!row || !(await teachesCourseRow(tx, row.course, caller.userId))) throw notThere();
  if (row.membership !== 'active') throw notFound('Student not found in this course.');
  if (!row.assigned)
    throw new AppError(
      422,
      ErrorCode.notAssigned,
      'This assignment is not for that student (or not published yet): assign it to them first.',
    );
  return row;
}

export function createExtensionService({ clock, outbox }: { clock: Clock; outbox: Outbox }) {
  /** Writes (or removes, `due` null) the extension and tells the student and the teachers. */
  const write = (caller: Caller, assignmentId: string, studentId: string, due: Date | null) =>
    outbox.transaction(async (tx, record) => {
      const { assignment, course } = await extensionTarget(tx, caller, assignmentId, studentId);
      const now = clock.now();
      if (due)
        await tx
          .insert(assignmentExtensions)
          .values({ assignmentId, studentId, dueDate: due, createdAt: now })
          .onConflictDoUpdate({
            target: [assignmentExtensions.assignmentId, assignmentExtensions.studentId],
            set: { dueDate: due },
          });
      else
        await tx
          .delete(assignmentExtensions)
          .where(
            and(
              eq(assignmentExtensions.assignmentId, assignmentId),
              eq(assignmentExtensions.studentId, studentId),
            ),
          );
      await rescheduleStudentReminder(tx, assignmentId, studentId, due, now);
      // A subscribed calendar hears the new date (its SEQUENCE grows).
      await bumpSequence(tx, assignmentId);
      const extension: Extension = {
        assignmentId,
        courseId: course.id,
        studentId,
        dueDate: due?.toISOString() ?? null,
        classDueDate: assignment.dueDate.toISOString(),
      };
      // That student's tabs and the teachers': never another student (DESIGN §20).
      record('assignment:extended', extension, [
        assigneeRoom(assignmentId, studentId),
        ...audience.teachers(course.id, course.teacherId),
      ]);
      return extension;
    });

  return {
    /** PUT /api/assignments/:id/extensions/:studentId */
    async set(caller: Caller, assignmentId: string, studentId: string, dueDate: string): Promise<Extension> {
      const due = new Date(dueDate);
      if (Number.isNaN(due.getTime())) throw badRequest('body.dueDate must be a valid date-time');
      return write(caller, assignmentId, studentId, due);
    },
    /** DELETE /api/assignments/:id/extensions/:studentId: back to the class's due date. */
    async remove(caller: Caller, assignmentId: string, studentId: string): Promise<void> {
      await write(caller, assignmentId, studentId, null);
    },
  };
}
export type ExtensionService = ReturnType<typeof createExtensionService>;
