import { minutesLate, workStatus, type GradebookCell } from '@classwave/shared';
import type { assignments, submissions } from '../db/schema.js';
import { heldNow } from '../submissions/views.js';

type AssignmentRow = typeof assignments.$inferSelect;
type SubmissionRow = typeof submissions.$inferSelect;

/** One student × assignment as the teacher sees it. */
export function toCell(
  assignment: Pick<AssignmentRow, 'id' | 'dueDate'>,
  studentId: string,
  submission: SubmissionRow | undefined,
  excused: boolean,
  now: Date,
  /** Not for this student (DESIGN §20), and their extension's due date if they have one. */
  own: { assigned: boolean; dueDate?: Date } = { assigned: true },
): GradebookCell {
  const dueDate = own.dueDate ?? assignment.dueDate;
  return {
    assignmentId: assignment.id,
    studentId,
    submissionId: submission?.id ?? null,
    grade: submission?.grade ?? null,
    version: submission?.version ?? null,
    status: workStatus(
      {
        dueDate,
        // Not theirs: never missing, and out of their totals as excused work is.
        excused: excused || !own.assigned,
        submission: submission ? { ...submission, held: heldNow(submission) } : null,
      },
      now,
      'teacher',
    ),
    late: submission ? minutesLate(submission.submittedAt, dueDate) : null,
    returnedAt: submission?.returnedAt?.toISOString() ?? null,
    ...(own.assigned ? {} : { assigned: false }),
    ...(own.dueDate ? { dueDate: own.dueDate.toISOString() } : {}),
  };
}
