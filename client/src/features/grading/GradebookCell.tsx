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

const MARKS: Partial<Record<GradebookCell['status'], { short: string; label: string }>> = {
  late: { short: 'Late', label: 'Submitted late' },
  missing: { short: 'Missing', label: 'Missing' },
  excused: { short: 'Excused', label: 'Excused' },
  graded: { short: 'Held', label: 'Graded, not yet returned' },
};

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

  const mark = MARKS[cell.status];
  const lateText = cell.status === 'late' && cell.late !== null ? formatLateness(cell.late) : null;
  const label = `${studentName}, ${assignment.title}: ${
    cell.grade === null
      ? cell.submissionId
        ? 'not graded'
        : 'no submission'
      : `${cell.grade} of ${assignment.maxPoints}`
  }${mark ? `, ${lateText ?? mark.label}` : ''}`;

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
      {mark && !editing && (
        <span className="gradebook__mark" title={lateText ?? mark.label} aria-hidden="true">
          {mark.short}
        </span>
      )}
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
