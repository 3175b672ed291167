import type { Assignment, OwnSubmission, Submission } from '@classwave/shared';
import { byDueDate } from '../courses/courseCache';

/**
 * Adds assignments to a cached list, or replaces the ones already there (a live event may have
 * brought the same assignment first), keeping the list by due date. Mutates `list` (an Immer draft).
 */
export function upsertAssignments(list: Assignment[], assignments: readonly Assignment[]): void {
  for (const assignment of assignments) {
    const index = list.findIndex((existing) => existing.id === assignment.id);
    if (index === -1) list.push(assignment);
    else list[index] = assignment;
  }
  list.sort(byDueDate);
}

/** Removes an assignment from a cached list, if it is there. */
export function removeAssignment(list: Assignment[], assignmentId: string): void {
  const index = list.findIndex((assignment) => assignment.id === assignmentId);
  if (index !== -1) list.splice(index, 1);
}

/** Records the signed-in student's own submission on an assignment in a cached list. */
export function setOwnSubmission(list: Assignment[], assignmentId: string, submission: OwnSubmission): void {
  const assignment = list.find((candidate) => candidate.id === assignmentId);
  if (assignment) assignment.submission = submission;
}

/** Replaces a submission (e.g. once graded) in a cached list of an assignment's submissions. */
export function replaceSubmission(list: Submission[], submission: Submission): void {
  const index = list.findIndex((existing) => existing.id === submission.id);
  if (index !== -1) list[index] = submission;
}
