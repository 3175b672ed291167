import type { GradeRelease } from '@classwave/shared';
import { useId } from 'react';

/** The local time zone's name, said next to times the viewer types or reads (e.g. "Europe/Berlin"). */
export const localTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** An ISO time as a datetime-local value in the viewer's zone ("2026-03-04T09:30"). */
export function toLocalInput(iso: string): string {
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/**
 * The assignment form's grading choices (DESIGN §13): when grades reach students, and whether
 * submissions close at the due time. Shared by Create and Edit.
 */
export function ReleaseFields({
  gradeRelease,
  closesAtDue,
  onGradeRelease,
  onClosesAtDue,
}: {
  gradeRelease: GradeRelease;
  closesAtDue: boolean;
  onGradeRelease: (value: GradeRelease) => void;
  onClosesAtDue: (value: boolean) => void;
}) {
  const name = useId();
  return (
    <>
      <fieldset className="choice-group">
        <legend className="field__label">Grades reach students</legend>
        <label className="choice">
          <input
            type="radio"
            name={name}
            value="auto"
            checked={gradeRelease === 'auto'}
            onChange={() => onGradeRelease('auto')}
          />
          Automatically, when I grade
        </label>
        <label className="choice">
          <input
            type="radio"
            name={name}
            value="manual"
            checked={gradeRelease === 'manual'}
            onChange={() => onGradeRelease('manual')}
          />
          When I return them
        </label>
      </fieldset>
      <label className="choice">
        <input
          type="checkbox"
          checked={closesAtDue}
          onChange={(event) => onClosesAtDue(event.target.checked)}
        />
        Close submissions at the due time
      </label>
    </>
  );
}
