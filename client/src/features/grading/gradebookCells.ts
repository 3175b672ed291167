import type { GradebookAssignment, GradebookCell, GradebookStudent } from '@classwave/shared';

/** A cell's key in the grid's lookups and its `data-cell` attribute: student, then assignment. */
export const cellKey = (studentId: string, assignmentId: string) => `${studentId}:${assignmentId}`;

/** The cells of a gradebook by `cellKey`. */
export function cellsByKey(cells: readonly GradebookCell[]): ReadonlyMap<string, GradebookCell> {
  return new Map(cells.map((cell) => [cellKey(cell.studentId, cell.assignmentId), cell]));
}

/** What a student × assignment shows when the gradebook has no cell for it: nothing submitted. */
export function blankCell(student: GradebookStudent, assignment: GradebookAssignment): GradebookCell {
  return {
    assignmentId: assignment.id,
    studentId: student.id,
    submissionId: null,
    grade: null,
    version: null,
    status: 'not_submitted',
    late: null,
    returnedAt: null,
  };
}
