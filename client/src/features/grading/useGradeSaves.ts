import type { GradebookAssignment, GradebookCell } from '@classwave/shared';
import { useCallback, useState } from 'react';
import { toast } from 'sonner';
import { apiErrorMessage } from '../../api/errors';
import { useAppDispatch } from '../../app/hooks';
import { useGradeStudentMutation, useGradeSubmissionMutation } from '../assignments/assignmentsApi';
import type { CellSave } from './GradebookCell';
import { cellKey } from './gradebookCells';
import { gradeConflictOf, gradingApi, upsertCell, upsertSubmissionCell } from './gradingApi';

/** How long "Saved" stays on a cell. */
const SAVED_FOR_MS = 2000;

/**
 * The gradebook's saves, made in the background while the grader moves on (DESIGN §13): each
 * cell's state by `cellKey`, and the grader's two ways out of a grade conflict.
 */
export function useGradeSaves(courseId: string) {
  const dispatch = useAppDispatch();
  const [gradeSubmission] = useGradeSubmissionMutation();
  const [gradeStudent] = useGradeStudentMutation();
  const [saves, setSaves] = useState<ReadonlyMap<string, CellSave>>(new Map());

  const setSave = useCallback((key: string, save: CellSave | undefined) => {
    setSaves((current) => {
      const next = new Map(current);
      if (save) next.set(key, save);
      else next.delete(key);
      return next;
    });
  }, []);

  const writeCell = (cell: GradebookCell) =>
    dispatch(gradingApi.util.updateQueryData('getGradebook', courseId, (draft) => upsertCell(draft, cell)));

  async function saveGrade(
    cell: GradebookCell,
    assignment: GradebookAssignment,
    grade: number,
    baseVersion: number,
  ) {
    const key = cellKey(cell.studentId, cell.assignmentId);
    setSave(key, { state: 'saving' });
    try {
      // The grade alone: feedback left out stays as the grader wrote it in the dialog. A cell with
      // no submission is graded by student (a grade for missing work, DESIGN §17).
      const body = { assignmentId: assignment.id, grade, baseVersion };
      const saved = await (
        cell.submissionId
          ? gradeSubmission({ submissionId: cell.submissionId, ...body })
          : gradeStudent({ studentId: cell.studentId, ...body })
      ).unwrap();
      dispatch(
        gradingApi.util.updateQueryData('getGradebook', courseId, (draft) =>
          upsertSubmissionCell(draft, saved),
        ),
      );
      setSave(key, { state: 'saved' });
      window.setTimeout(
        () =>
          setSaves((current) => {
            if (current.get(key)?.state !== 'saved') return current;
            const next = new Map(current);
            next.delete(key);
            return next;
          }),
        SAVED_FOR_MS,
      );
    } catch (error) {
      const current = gradeConflictOf(error);
      if (current) setSave(key, { state: 'conflict', current, mine: grade });
      else setSave(key, { state: 'error', message: apiErrorMessage(error, 'Failed to save grade.') });
      if (!current) toast.error(apiErrorMessage(error, 'Failed to save grade.'));
    }
  }

  /** Keep mine: the refused grade is sent again over the version that won. */
  function keepMine(cell: GradebookCell, assignment: GradebookAssignment) {
    const save = saves.get(cellKey(cell.studentId, cell.assignmentId));
    if (save?.state === 'conflict') void saveGrade(cell, assignment, save.mine, save.current.version);
  }

  /** Use theirs: the cell shows the grade that won, and nothing more is sent. */
  function takeTheirs(cell: GradebookCell) {
    const key = cellKey(cell.studentId, cell.assignmentId);
    const save = saves.get(key);
    if (save?.state === 'conflict') {
      const { grade, version } = save.current;
      writeCell({ ...cell, grade, version });
    }
    setSave(key, undefined);
  }

  return { saves, saveGrade, keepMine, takeTheirs };
}
