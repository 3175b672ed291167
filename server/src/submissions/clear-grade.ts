import { and, eq, type SQL } from 'drizzle-orm';
import { ErrorCode, type GradebookCell } from '@classwave/shared';
import type { Caller } from '../auth/caller.js';
import type { Clock } from '../clock.js';
import { assignments, submissions } from '../db/schema.js';
import { AppError, notFound } from '../http/errors.js';
import type { Outbox } from '../realtime/outbox.js';
import { assigneeRoom, audience } from '../realtime/rooms.js';
import { toAssignment } from '../assignments/queries.js';
import { extensionOn } from '../assignments/visibility.js';
import { toCell } from '../grading/cells.js';
import { conflictOver, gradedAssignment } from './grades.js';

/**
 * Taking back a grade given for missing work (issue 25): a 0 typed in the wrong student's cell must
 * not stay for good. Only a row with no submission goes (the student is back to not submitted or
 * missing, as the due time says); handed-in work keeps its row and its grade is changed instead.
 */
export function createGradeClearing({ clock, outbox }: { clock: Clock; outbox: Outbox }) {
  return {
    async clearMissingGrade(
      caller: Caller,
      assignmentId: string,
      studentId: string,
      baseVersion: number,
    ): Promise<GradebookCell> {
      return outbox.transaction(async (tx, record) => {
        const { assignment, course } = await gradedAssignment(tx, caller, assignmentId);
        // With their extension (DESIGN §20): back to missing or not against their own due date.
        const [found] = await tx
          .select({
            row: submissions,
            // Null when they have none (a null is never decoded).
            extension: extensionOn('"assignments"', studentId).mapWith(
              assignments.dueDate,
            ) as SQL<Date | null>,
          })
          .from(submissions)
          .innerJoin(assignments, eq(assignments.id, submissions.assignmentId))
          .where(and(eq(submissions.assignmentId, assignmentId), eq(submissions.studentId, studentId)))
          .for('update', { of: submissions });
        if (!found) throw notFound('That student has no grade on this assignment.');
        const { row, extension } = found;
        if (row.submittedAt !== null)
          throw new AppError(
            409,
            ErrorCode.conflict,
            'This student handed work in: its grade can be changed, not taken away.',
          );
        if (row.version !== baseVersion) throw await conflictOver(tx, row);
        await tx.delete(submissions).where(eq(submissions.id, row.id));
        const now = clock.now();
        const cell = toCell(assignment, studentId, undefined, false, now, {
          assigned: true,
          dueDate: extension ?? undefined,
        });
        record('gradebook:cell', cell, audience.teachers(course.id, course.teacherId));
        // The student's own view: back to not submitted (or missing), with no grade.
        record(
          'assignment:updated',
          toAssignment(
            assignment,
            course.title,
            { viewer: 'student', own: null, excused: false, extension },
            now,
          ),
          // Only while it is theirs (DESIGN §20).
          [assigneeRoom(assignmentId, studentId)],
        );
        return cell;
      });
    },
  };
}
