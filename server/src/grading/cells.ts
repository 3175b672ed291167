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
): GradebookCell {
  return {
    assignmentId: assignment.id,
    studentId,
    submissionId: submission?.id ?? null,
    grade: submission?.grade ?? null,
    version: submission?.version ?? null,
    status: workStatus(
      {
        dueDate: assignment.dueDate,
        excused,
        submission: submission ? { ...submission, held: heldNow(submission) } : null,
      },
      now,
      'teacher',
    ),
    late: submission ? minutesLate(submission.submittedAt, assignment.dueDate) : null,
    returnedAt: submission?.returnedAt?.toISOString() ?? null,
  };
}
