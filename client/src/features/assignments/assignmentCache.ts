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

/**
 * An assignment as it arrived live or from a PATCH, merged with the copy the cache holds. An edit
 * goes to a course's members as one shared view with `status` and `submission` null (the server
 * cannot put each student's own work in one event): those per-student fields are kept from the
 * cached copy, so an Excused or Graded badge survives a teacher's edit. A view of one student's own
 * (with a status) is that student's truth and replaces the copy whole.
 */
export function mergeAssignment(existing: Assignment | undefined, incoming: Assignment): Assignment {
  const merged =
    !existing || incoming.status !== null
      ? incoming
      : { ...incoming, status: existing.status, submission: existing.submission };
  return keepExtension(existing, merged);
}

/**
 * A student's own due date survives a view that does not carry it (DESIGN §20): the class's view
 * leaves `extendedFrom` out, so a cached extension stays, over the class's new date.
 */
function keepExtension(existing: Assignment | undefined, incoming: Assignment): Assignment {
  if (!existing?.extendedFrom || incoming.extendedFrom !== undefined) return incoming;
  return { ...incoming, dueDate: existing.dueDate, extendedFrom: incoming.dueDate };
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

/** Forgets the student's own submission `submissionId` (taken back, DESIGN §12), if the list still shows it. */
export function clearOwnSubmission(list: Assignment[], assignmentId: string, submissionId: string): void {
  const assignment = list.find((candidate) => candidate.id === assignmentId);
  if (assignment?.submission?.id === submissionId) assignment.submission = null;
}

/**
 * Replaces a submission (e.g. once graded) in a cached list of an assignment's submissions; a new
 * grade for missing work (no `submittedAt`, DESIGN §17) joins the end, where the server lists them.
 */
export function replaceSubmission(list: Submission[], submission: Submission): void {
  const index = list.findIndex((existing) => existing.id === submission.id);
  if (index !== -1) list[index] = withFilesOf(list[index]!, submission);
  else if (submission.submittedAt === null) list.push(submission);
}

/** A grade's answer and event carry no files (they never change once handed in): the listed copy's stay. */
const withFilesOf = (listed: Submission, incoming: Submission): Submission =>
  incoming.files !== undefined || listed.files === undefined
    ? incoming
    : { ...incoming, files: listed.files };

/** Adds a submission to a cached list, newest first as GET /api/assignments/:id/submissions answers, or replaces it. */
export function upsertSubmission(list: Submission[], submission: Submission): void {
  const index = list.findIndex((existing) => existing.id === submission.id);
  if (index === -1) list.unshift(submission);
  else list[index] = withFilesOf(list[index]!, submission);
}

/** Removes a submission (taken back, DESIGN §12) from a cached list, if it is there. */
export function removeSubmission(list: Submission[], submissionId: string): void {
  const index = list.findIndex((existing) => existing.id === submissionId);
  if (index !== -1) list.splice(index, 1);
}
