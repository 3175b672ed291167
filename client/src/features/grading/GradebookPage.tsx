import {
  assignmentAverage,
  studentTotals,
  type Gradebook,
  type GradebookAssignment,
  type GradebookCell,
} from '@classwave/shared';
import { ArrowLeft, Download, SearchX, Table2 } from 'lucide-react';
import { useCallback, useRef, useState, type KeyboardEvent } from 'react';
import { Link, useParams } from 'react-router-dom';
import { toast } from 'sonner';
import { apiErrorMessage, httpStatus } from '../../api/errors';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { Button } from '../../components/Button';
import { EmptyState } from '../../components/EmptyState';
import { LoadFailed } from '../../components/LoadFailed';
import { PageHeader } from '../../components/PageHeader';
import { Spinner } from '../../components/Spinner';
import { useGradeSubmissionMutation } from '../assignments/assignmentsApi';
import { selectAccessToken } from '../auth/authSlice';
import { csvFileName, downloadGradebookCsv } from './downloadCsv';
import { GradebookCellView, type CellSave } from './GradebookCell';
import {
  cellFromSubmission,
  gradeConflictOf,
  gradingApi,
  useExcuseMutation,
  useGetGradebookQuery,
  upsertCell,
} from './gradingApi';
import './Gradebook.css';

const keyOf = (studentId: string, assignmentId: string) => `${studentId}:${assignmentId}`;

/** How long "Saved" stays on a cell. */
const SAVED_FOR_MS = 2000;

/** /courses/:courseId/gradebook: the course's teacher grades everyone in one grid (DESIGN §13). */
export function GradebookPage() {
  const { courseId = '' } = useParams();
  const { data, isLoading, error, refetch } = useGetGradebookQuery(courseId);
  const status = httpStatus(error);

  if (isLoading) return <Spinner size="lg" label="Loading the gradebook" />;
  if (status === 404 || status === 403 || status === 400) {
    return (
      <>
        <PageHeader title="Gradebook" />
        <EmptyState icon={<SearchX />} title="Gradebook not found" headingLevel={2}>
          Only a course's teacher sees its gradebook. <Link to="/courses">Back to courses</Link>
        </EmptyState>
      </>
    );
  }
  if (!data) {
    return (
      <LoadFailed
        icon={<Table2 />}
        title="The gradebook could not be loaded"
        error={error}
        onRetry={() => void refetch()}
      />
    );
  }
  return <GradebookView gradebook={data} />;
}

function GradebookView({ gradebook }: { gradebook: Gradebook }) {
  const { course, students, assignments } = gradebook;
  const dispatch = useAppDispatch();
  const token = useAppSelector(selectAccessToken);
  const [gradeSubmission] = useGradeSubmissionMutation();
  const [excuse] = useExcuseMutation();
  const [active, setActive] = useState({ row: 0, col: 0 });
  const [editing, setEditing] = useState<{
    key: string;
    draft: string;
    baseVersion: number;
    selectAll: boolean;
  } | null>(null);
  const [saves, setSaves] = useState<ReadonlyMap<string, CellSave>>(new Map());
  const [downloading, setDownloading] = useState(false);
  const tableRef = useRef<HTMLTableElement>(null);
  const editingRef = useRef(editing);
  editingRef.current = editing;

  const cells = new Map(gradebook.cells.map((cell) => [keyOf(cell.studentId, cell.assignmentId), cell]));
  const cellAt = (row: number, col: number): GradebookCell | undefined => {
    const student = students[row];
    const assignment = assignments[col];
    return student && assignment ? cells.get(keyOf(student.id, assignment.id)) : undefined;
  };

  const setSave = useCallback((key: string, save: CellSave | undefined) => {
    setSaves((current) => {
      const next = new Map(current);
      if (save) next.set(key, save);
      else next.delete(key);
      return next;
    });
  }, []);

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
        ?.querySelector<HTMLElement>(`[data-cell="${keyOf(student.id, assignment.id)}"]`)
        ?.focus(),
    );
  }

  async function saveGrade(
    cell: GradebookCell,
    assignment: GradebookAssignment,
    grade: number,
    baseVersion: number,
  ) {
    const key = keyOf(cell.studentId, cell.assignmentId);
    if (!cell.submissionId) return;
    setSave(key, { state: 'saving' });
    try {
      // The grade alone: feedback left out stays as the grader wrote it in the dialog.
      const saved = await gradeSubmission({
        submissionId: cell.submissionId,
        assignmentId: assignment.id,
        grade,
        baseVersion,
      }).unwrap();
      dispatch(
        gradingApi.util.updateQueryData('getGradebook', course.id, (draft) =>
          upsertCell(draft, cellFromSubmission(saved)),
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

  function commitEdit(move: { row: number; col: number } | null) {
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
    if (!cell.submissionId) {
      toast.info('No submission to grade yet. Press E to excuse the student.');
      return;
    }
    setEditing({
      key: keyOf(cell.studentId, cell.assignmentId),
      draft: initial ?? (cell.grade === null ? '' : String(cell.grade)),
      baseVersion: cell.version ?? 0,
      selectAll: initial === undefined,
    });
  }

  function toggleExcuse(row: number, col: number) {
    const cell = cellAt(row, col);
    if (!cell) return;
    if (cell.submissionId) {
      toast.info('This student has submitted: there is nothing to excuse.');
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

  function handleKeyDown(event: KeyboardEvent<HTMLElement>) {
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

  function handleEditKeyDown(event: KeyboardEvent<HTMLInputElement>) {
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

  async function handleDownload() {
    setDownloading(true);
    try {
      await downloadGradebookCsv(course.id, token, csvFileName(course.code));
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'The gradebook could not be downloaded.');
    } finally {
      setDownloading(false);
    }
  }

  const activeCell = cellAt(active.row, active.col);

  return (
    <>
      <Link to={`/courses/${course.id}`} className="back-link">
        <ArrowLeft aria-hidden="true" size={18} />
        Back to {course.title}
      </Link>
      <PageHeader
        title="Gradebook"
        subtitle={`${course.code} · ${course.title}`}
        actions={
          <Button
            variant="secondary"
            icon={<Download />}
            loading={downloading}
            onClick={() => void handleDownload()}
          >
            Download CSV
          </Button>
        }
      />
      {students.length === 0 || assignments.length === 0 ? (
        <EmptyState icon={<Table2 />} title="Nothing to grade yet" headingLevel={2}>
          {students.length === 0
            ? 'No students have joined this course yet.'
            : 'This course has no assignments yet.'}
        </EmptyState>
      ) : (
        <>
          <p className="gradebook__help" id="gradebook-help">
            Arrow keys move; Enter or a digit edits a grade, Enter saves, Tab saves and moves right, Escape
            cancels; E excuses a student who has not submitted.
          </p>
          {/* The active cell in words, with what can be done to it: always there, so moving does not shift the grid. */}
          <div className="gradebook__toolbar">
            <p className="gradebook__where">
              {students[active.row]?.fullName} · {assignments[active.col]?.title}:{' '}
              {activeCell?.submissionId
                ? activeCell.grade === null
                  ? 'submitted, not graded'
                  : `${activeCell.grade}/${assignments[active.col]?.maxPoints}`
                : activeCell?.status === 'excused'
                  ? 'excused'
                  : 'no submission'}
            </p>
            {activeCell && !activeCell.submissionId && (
              <Button size="sm" variant="secondary" onClick={() => toggleExcuse(active.row, active.col)}>
                {activeCell.status === 'excused' ? 'Remove excuse' : 'Excuse'}
              </Button>
            )}
          </div>
          <div className="gradebook__scroll">
            <table
              ref={tableRef}
              className="gradebook"
              role="grid"
              aria-describedby="gradebook-help"
              aria-label={`Gradebook for ${course.title}`}
            >
              <thead>
                <tr>
                  <th scope="col" className="gradebook__corner">
                    Student
                  </th>
                  {assignments.map((assignment) => (
                    <th key={assignment.id} scope="col" className="gradebook__assignment">
                      <span className="gradebook__assignment-title">{assignment.title}</span>
                      <span className="gradebook__assignment-max">/{assignment.maxPoints}</span>
                    </th>
                  ))}
                  <th scope="col" className="gradebook__total-head">
                    Total
                  </th>
                </tr>
              </thead>
              <tbody>
                {students.map((student, row) => {
                  const totals = studentTotals(gradebook, student.id);
                  return (
                    <tr key={student.id}>
                      <th scope="row" className="gradebook__student">
                        <span className="gradebook__student-name">{student.fullName}</span>
                        <span className="gradebook__student-email" title={student.email}>
                          {student.email}
                        </span>
                      </th>
                      {assignments.map((assignment, col) => {
                        const cell = cells.get(keyOf(student.id, assignment.id)) ?? {
                          assignmentId: assignment.id,
                          studentId: student.id,
                          submissionId: null,
                          grade: null,
                          version: null,
                          status: 'not_submitted' as const,
                          late: null,
                          returnedAt: null,
                        };
                        const key = keyOf(student.id, assignment.id);
                        const isActive = active.row === row && active.col === col;
                        return (
                          <GradebookCellView
                            key={assignment.id}
                            cell={cell}
                            assignment={assignment}
                            studentName={student.fullName}
                            active={isActive}
                            editing={editing?.key === key}
                            selectAll={editing?.selectAll ?? false}
                            draft={editing?.key === key ? editing.draft : ''}
                            save={saves.get(key)}
                            onDraft={(draft) => setEditing((current) => current && { ...current, draft })}
                            onFocus={() => {
                              if (!isActive) setActive({ row, col });
                            }}
                            onKeyDown={handleKeyDown}
                            onEditKeyDown={handleEditKeyDown}
                            onBlurEdit={() => commitEdit(null)}
                            onKeepMine={() => {
                              const save = saves.get(key);
                              if (save?.state === 'conflict')
                                void saveGrade(cell, assignment, save.mine, save.current.version);
                            }}
                            onUseTheirs={() => {
                              const save = saves.get(key);
                              if (save?.state === 'conflict') {
                                const { grade, version } = save.current;
                                dispatch(
                                  gradingApi.util.updateQueryData('getGradebook', course.id, (draft) =>
                                    upsertCell(draft, { ...cell, grade, version }),
                                  ),
                                );
                              }
                              setSave(key, undefined);
                            }}
                          />
                        );
                      })}
                      <td role="gridcell" className="gradebook__total">
                        {totals.possible > 0 ? (
                          <>
                            {totals.points}/{totals.possible}
                            <span className="gradebook__percent"> ({totals.percent}%)</span>
                          </>
                        ) : (
                          '–'
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
              <tfoot>
                <tr>
                  <th scope="row" className="gradebook__student">
                    Average
                  </th>
                  {assignments.map((assignment) => {
                    const average = assignmentAverage(gradebook, assignment.id);
                    return (
                      <td role="gridcell" key={assignment.id} className="gradebook__average">
                        {average === null ? '–' : `${average}/${assignment.maxPoints}`}
                      </td>
                    );
                  })}
                  <td role="gridcell" className="gradebook__average" />
                </tr>
              </tfoot>
            </table>
          </div>
        </>
      )}
    </>
  );
}
