import type { Gradebook, GradebookAssignment, GradebookCell, GradebookStudent } from '@classwave/shared';
import { useRef, useState, type KeyboardEvent } from 'react';
import { toast } from 'sonner';
import { apiErrorMessage } from '../../api/errors';
import { blankCell, cellKey, cellsByKey } from './gradebookCells';
import { useExcuseMutation } from './gradingApi';
import { useGradeSaves } from './useGradeSaves';

interface Position {
  row: number;
  col: number;
}

/** The cell being edited, by `cellKey`, with what is typed so far. */
interface Editing {
  key: string;
  draft: string;
  baseVersion: number;
  /** Whether the edit starts with the old grade selected (Enter) rather than a typed digit. */
  selectAll: boolean;
}

/**
 * The gradebook as a spreadsheet (DESIGN §13): one active cell moved with the keyboard, a grade
 * typed in place and saved in the background (in any cell: with no submission it is a grade for
 * missing work, DESIGN §17), E to excuse a student who has not submitted. Rows
 * are students and columns assignments, in the gradebook's order.
 */
export function useGradebookGrid(gradebook: Gradebook) {
  const { course, students, assignments } = gradebook;
  const [excuse] = useExcuseMutation();
  const { saves, saveGrade, keepMine, takeTheirs } = useGradeSaves(course.id);
  const [active, setActive] = useState<Position>({ row: 0, col: 0 });
  const [editing, setEditing] = useState<Editing | null>(null);
  const tableRef = useRef<HTMLTableElement>(null);
  const editingRef = useRef(editing);
  editingRef.current = editing;

  const cells = cellsByKey(gradebook.cells);
  const cellAt = (row: number, col: number): GradebookCell | undefined => {
    const student = students[row];
    const assignment = assignments[col];
    return student && assignment ? cells.get(cellKey(student.id, assignment.id)) : undefined;
  };

  function focusCell(row: number, col: number) {
    const r = Math.max(0, Math.min(students.length - 1, row));
    const c = Math.max(0, Math.min(assignments.length - 1, col));
    setActive({ row: r, col: c });
    const student = students[r];
    const assignment = assignments[c];
    if (!student || !assignment) return;
    // After React has made it the tabbable cell.
    window.requestAnimationFrame(() =>
      tableRef.current
        ?.querySelector<HTMLElement>(`[data-cell="${cellKey(student.id, assignment.id)}"]`)
        ?.focus(),
    );
  }

  function commitEdit(move: Position | null) {
    // Enter, Tab and the blur that follows them all land here: only the first one counts.
    const editing = editingRef.current;
    editingRef.current = null;
    if (!editing) return;
    const [studentId, assignmentId] = editing.key.split(':') as [string, string];
    const cell = cells.get(editing.key);
    const assignment = assignments.find((a) => a.id === assignmentId);
    const draft = editing.draft.trim();
    setEditing(null);
    if (cell && assignment && draft !== '' && draft !== String(cell.grade ?? '')) {
      const grade = Number(draft);
      if (!Number.isInteger(grade) || grade < 0 || grade > assignment.maxPoints) {
        toast.error(`Enter a whole number from 0 to ${assignment.maxPoints}.`);
      } else {
        void saveGrade({ ...cell, studentId }, assignment, grade, editing.baseVersion);
      }
    }
    if (move) focusCell(move.row, move.col);
    else focusCell(active.row, active.col);
  }

  function startEdit(row: number, col: number, initial?: string) {
    const cell = cellAt(row, col);
    if (!cell) return;
    // Excused work counts nowhere (the server refuses a grade for it): the excuse comes off first.
    if (cell.status === 'excused' && !cell.submissionId) {
      toast.info('This student is excused: press E to take the excuse back before grading.');
      return;
    }
    // Any other cell takes a grade (DESIGN §17): with no submission it is a grade for missing work.
    setEditing({
      key: cellKey(cell.studentId, cell.assignmentId),
      draft: initial ?? (cell.grade === null ? '' : String(cell.grade)),
      baseVersion: cell.version ?? 0,
      selectAll: initial === undefined,
    });
  }

  function toggleExcuse(row: number, col: number) {
    const cell = cellAt(row, col);
    if (!cell) return;
    // Not theirs (DESIGN §20): the server refuses it (422 not_assigned), as it refuses a grade.
    if (cell.assigned === false && !cell.submissionId) {
      toast.info('This assignment is not for this student: there is nothing to excuse.');
      return;
    }
    if (cell.submissionId) {
      toast.info(
        cell.late !== null || cell.status === 'submitted'
          ? 'This student has submitted: there is nothing to excuse.'
          : 'This work is graded: there is nothing to excuse.',
      );
      return;
    }
    void excuse({
      assignmentId: cell.assignmentId,
      courseId: course.id,
      studentId: cell.studentId,
      excused: cell.status !== 'excused',
    })
      .unwrap()
      .catch((error: unknown) => toast.error(apiErrorMessage(error, 'Failed to excuse.')));
  }

  /** Keys on the active cell: move, start an edit (Enter, F2 or a digit), or excuse (E). */
  function onCellKeyDown(event: KeyboardEvent<HTMLElement>) {
    const { row, col } = active;
    const moves: Record<string, [number, number]> = {
      ArrowUp: [row - 1, col],
      ArrowDown: [row + 1, col],
      ArrowLeft: [row, col - 1],
      ArrowRight: [row, col + 1],
      Home: [row, 0],
      End: [row, assignments.length - 1],
    };
    const move = moves[event.key];
    if (move) {
      event.preventDefault();
      focusCell(move[0], move[1]);
    } else if (event.key === 'Enter' || event.key === 'F2') {
      event.preventDefault();
      startEdit(row, col);
    } else if (event.key === 'e' || event.key === 'E') {
      event.preventDefault();
      toggleExcuse(row, col);
    } else if (/^[0-9]$/.test(event.key)) {
      // Typing a digit starts a new grade, as in a spreadsheet.
      event.preventDefault();
      startEdit(row, col, event.key);
    }
  }

  /** Keys in a cell's input: Enter saves and goes down, Tab saves and goes across, Escape cancels. */
  function onEditKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    const { row, col } = active;
    if (event.key === 'Enter') {
      event.preventDefault();
      commitEdit({ row: row + 1, col });
    } else if (event.key === 'Tab') {
      event.preventDefault();
      commitEdit({ row, col: col + (event.shiftKey ? -1 : 1) });
    } else if (event.key === 'Escape') {
      // Escape leaves the cell as it was; the dialog-less page has nothing else to close.
      event.preventDefault();
      event.stopPropagation();
      editingRef.current = null;
      setEditing(null);
      focusCell(row, col);
    }
  }

  return {
    tableRef,
    active,
    activeCell: cellAt(active.row, active.col),
    editing,
    saves,
    /** The cell at a student × assignment, blank where the gradebook has none. */
    cellOf: (student: GradebookStudent, assignment: GradebookAssignment) =>
      cells.get(cellKey(student.id, assignment.id)) ?? blankCell(student, assignment),
    isActive: (row: number, col: number) => active.row === row && active.col === col,
    /** A cell focused by the mouse or by tabbing in becomes the active one. */
    activate: (row: number, col: number) => {
      if (active.row !== row || active.col !== col) setActive({ row, col });
    },
    setDraft: (draft: string) => setEditing((current) => current && { ...current, draft }),
    onCellKeyDown,
    onEditKeyDown,
    commitEdit,
    toggleExcuse,
    keepMine,
    takeTheirs,
  };
}

/** What `useGradebookGrid` gives the views that draw the grid. */
export type GradebookGridState = ReturnType<typeof useGradebookGrid>;
