import type { Role } from './auth.js';

export type AssignmentStatus = 'active' | 'overdue' | 'submitted' | 'graded';

export const STATUS_LABELS: Record<AssignmentStatus, string> = {
  active: 'Active',
  overdue: 'Overdue',
  submitted: 'Submitted',
  graded: 'Graded',
};

/**
 * The status badge of an assignment for one user (spec §4): a student's own submission decides
 * first (graded once a grade exists, else submitted); otherwise overdue once the due date has
 * passed, else active. Teachers only ever see overdue or active.
 */
export function assignmentStatus(
  assignment: { dueDate: string; submission: { grade: number | null } | null },
  role: Role,
  now: Date,
): AssignmentStatus {
  if (role === 'student' && assignment.submission) {
    return assignment.submission.grade !== null ? 'graded' : 'submitted';
  }
  return new Date(assignment.dueDate).getTime() < now.getTime() ? 'overdue' : 'active';
}
