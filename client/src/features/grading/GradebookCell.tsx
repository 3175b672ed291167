import {
  formatLateness,
  type CurrentGrade,
  type GradebookAssignment,
  type GradebookCell,
} from '@classwave/shared';
import clsx from 'clsx';
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { ConflictChoice } from './ConflictChoice';
import { cellKey } from './gradebookCells';

/** A cell's save: in flight, done, failed, or refused because someone else graded it first. */
export type CellSave =
  | { state: 'saving' }
  | { state: 'saved' }
  | { state: 'error'; message: string }
  | { state: 'conflict'; current: CurrentGrade; mine: number };

/** A cell's mark: what it shows, what a screen reader hears (none where the grade says it), its look. */
export interface CellMark {
  short: string;
  label: string | null;
  tone: 'todo' | 'late' | 'missing' | 'quiet' | 'returned';
}

/** The marks, by meaning (the legend lists them in this order). */
export const MARK = {
  toGrade: { short: 'To grade', label: null, tone: 'todo' },
  late: { short: 'Late', label: 'Submitted late', tone: 'late' },
  missing: { short: 'Missing', label: 'Missing', tone: 'missing' },
  excused: { short: 'Excused', label: 'Excused', tone: 'quiet' },
  notAssigned: { short: 'Not assigned', label: 'Not assigned to this student', tone: 'quiet' },
  held: { short: 'Held', label: 'Graded, not yet returned', tone: 'quiet' },
  returned: { short: '✓', label: 'returned', tone: 'returned' },
} satisfies Record<string, CellMark>;

/**
 * What a cell shows beside its grade (DESIGN §17): every state its own mark, so "no submission"
 * (a bare dash) never reads like "submitted, not graded", and a graded late answer keeps its Late.
 */
export function marksOf(cell: GradebookCell): CellMark[] {
  // Not theirs (DESIGN §20): never missing, out of their totals.
  if (cell.assigned === false && !cell.submissionId) return [MARK.notAssigned];
  if (cell.status === 'missing') return [MARK.missing];
  if (cell.status === 'excused') return [MARK.excused];
  if (!cell.submissionId) return [];
  const late: CellMark | null =
    cell.late !== null ? { ...MARK.late, label: formatLateness(cell.late) } : null;
  if (cell.grade === null) return [late ?? MARK.toGrade];
  return [cell.status === 'returned' ? MARK.returned : MARK.held, ...(late ? [late] : [])];
}

export interface GradebookCellViewProps {
  cell: GradebookCell;
  assignment: GradebookAssignment;
  studentName: string;
  active: boolean;
  editing: boolean;
  /** Whether the edit starts with the old grade selected (Enter) rather than a typed digit. */
  selectAll: boolean;
  draft: string;
  save: CellSave | undefined;
  onDraft: (value: string) => void;
  onFocus: () => void;
  onKeyDown: (event: KeyboardEvent<HTMLElement>) => void;
  onEditKeyDown: (event: KeyboardEvent<HTMLInputElement>) => void;
  onBlurEdit: () => void;
  onKeepMine: () => void;
  onUseTheirs: () => void;
}

/** One student × assignment: the grade, its status mark and its save state; an input while edited. */
export function GradebookCellView({
  cell,
  assignment,
  studentName,
  active,
  editing,
  selectAll,
  draft,
  save,
  onDraft,
  onFocus,
  onKeyDown,
  onEditKeyDown,
  onBlurEdit,
  onKeepMine,
  onUseTheirs,
}: GradebookCellViewProps) {
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (!editing || !input.current) return;
    input.current.focus();
    // Enter edits the grade there (all selected); a typed digit starts a new one after itself.
    if (selectAll) input.current.select();
    else input.current.setSelectionRange(input.current.value.length, input.current.value.length);
  }, [editing, selectAll]);

  const marks = marksOf(cell);
  const label = [
    `${studentName}, ${assignment.title}: ${
      cell.grade === null
        ? cell.submissionId
          ? 'not graded'
          : 'no submission'
        : `${cell.grade} of ${assignment.maxPoints}`
    }`,
    ...marks.flatMap((mark) => (mark.label ? [mark.label] : [])),
  ].join(', ');

  return (
    <td
      role="gridcell"
      className={clsx(
        'gradebook__cell',
        `gradebook__cell--${cell.status}`,
        active && 'gradebook__cell--active',
        save && `gradebook__cell--${save.state}`,
      )}
      tabIndex={active && !editing ? 0 : -1}
      aria-label={editing ? undefined : label}
      onFocus={onFocus}
      onKeyDown={editing ? undefined : onKeyDown}
      data-cell={cellKey(cell.studentId, assignment.id)}
    >
      {editing ? (
        <input
          ref={input}
          className="gradebook__input"
          // Text, not number: the caret can be put after a digit typed to start the edit.
          type="text"
          inputMode="numeric"
          pattern="[0-9]*"
          autoComplete="off"
          aria-label={`Grade for ${studentName}, ${assignment.title}, out of ${assignment.maxPoints}`}
          value={draft}
          onChange={(event) => onDraft(event.target.value)}
          onKeyDown={onEditKeyDown}
          onBlur={onBlurEdit}
        />
      ) : (
        <span className="gradebook__grade" aria-hidden="true">
          {cell.grade ?? '–'}
        </span>
      )}
      {!editing &&
        marks.map((mark) => (
          <span
            key={mark.short}
            className={`gradebook__mark gradebook__mark--${mark.tone}`}
            title={mark.label ?? 'Submitted, not graded'}
            aria-hidden="true"
          >
            {mark.short}
          </span>
        ))}
      {save && save.state !== 'conflict' && (
        <span className={`gradebook__save gradebook__save--${save.state}`} role="status">
          {save.state === 'saving' ? 'Saving…' : save.state === 'saved' ? 'Saved' : 'Not saved'}
        </span>
      )}
      {save?.state === 'conflict' && (
        <div className="gradebook__conflict">
          <ConflictChoice
            current={save.current}
            maxPoints={assignment.maxPoints}
            mine={String(save.mine)}
            onKeepMine={onKeepMine}
            onUseTheirs={onUseTheirs}
          />
        </div>
      )}
    </td>
  );
}
