import { LIMITS, wallTimeNotice, zonedWallTime, type GradeRelease } from '@classwave/shared';
import type { ReactNode } from 'react';
import { serverNow } from '../../api/serverClock';
import { Input } from '../../components/Input';
import { Textarea } from '../../components/Textarea';
import { CategoryField } from '../grading/CategoryField';
import { localTimeZone, ReleaseFields } from './ReleaseFields';
import '../grading/grading.css';

/** Shown under Due Date while it is in the past: allowed (e.g. recording past work), but never by accident. */
export const PAST_DUE_WARNING = 'This date has passed: students will see the assignment as Overdue at once.';

/**
 * The instant a datetime-local value names in the viewer's zone (where a clock change makes it
 * skipped or doubled, the one `wallTimeNotice` says is kept), or null when it is not a valid value.
 */
export function dueInstant(value: string, zone: string = localTimeZone()): Date | null {
  return zonedWallTime(value, zone)?.instant ?? null;
}

/** Whether a datetime-local value is a valid moment before `now` (the server's clock). */
export function isPastDue(value: string, now: number = serverNow().getTime()): boolean {
  const due = dueInstant(value);
  return due !== null && due.getTime() < now;
}

export interface AssignmentValues {
  title: string;
  /** A datetime-local value, in the viewer's zone. */
  dueDate: string;
  maxPoints: string;
  description: string;
  gradeRelease: GradeRelease;
  closesAtDue: boolean;
  /** A grade category's id, or '' for none (DESIGN §17). */
  categoryId: string;
}

/**
 * The assignment form's fields, shared by Create and Edit (DESIGN §13): title, then `courseField`
 * (Create picks a course; Edit cannot move an assignment), due date in the viewer's named zone,
 * max points, the grade category (once `courseId`'s course has some), description, and when grades
 * reach students.
 */
export function AssignmentFields({
  values,
  onChange,
  titleId,
  titleError,
  pointsId,
  pointsError,
  courseField,
  courseId,
  warnPastDue = true,
}: {
  values: AssignmentValues;
  onChange: (changes: Partial<AssignmentValues>) => void;
  titleId: string;
  titleError?: string | null;
  pointsId?: string;
  pointsError?: string | null;
  courseField?: ReactNode;
  /** The course the assignment is in (or will be): its grade categories are offered. */
  courseId?: string;
  /** Edit warns only once the date is changed to a past one. */
  warnPastDue?: boolean;
}) {
  const text =
    (field: 'title' | 'dueDate' | 'maxPoints' | 'description') => (event: { target: { value: string } }) =>
      onChange({ [field]: event.target.value });
  const pastDue = warnPastDue && isPastDue(values.dueDate);
  const zone = localTimeZone();
  // A time the clocks skip or repeat that day is said, with the time that will be saved.
  const clockChange = wallTimeNotice(zonedWallTime(values.dueDate, zone), zone);
  return (
    <>
      <Input
        id={titleId}
        label="Title"
        name="title"
        required
        error={titleError ?? undefined}
        maxLength={LIMITS.assignmentTitle}
        value={values.title}
        onChange={text('title')}
      />
      {courseField}
      <div className="form-row form-row--wide-first">
        <Input
          label="Due Date"
          name="dueDate"
          type="datetime-local"
          required
          value={values.dueDate}
          onChange={text('dueDate')}
          hint={
            clockChange || pastDue ? (
              <span className="field__warning" role="status">
                {[clockChange, pastDue ? PAST_DUE_WARNING : null].filter(Boolean).join(' ')}
              </span>
            ) : (
              `Your time (${zone})`
            )
          }
        />
        <Input
          id={pointsId}
          label="Max Points"
          name="maxPoints"
          type="number"
          inputMode="numeric"
          required
          min={1}
          max={LIMITS.maxPoints}
          step={1}
          value={values.maxPoints}
          onChange={text('maxPoints')}
          error={pointsError ?? undefined}
        />
      </div>
      {courseId && (
        <CategoryField
          courseId={courseId}
          value={values.categoryId}
          onChange={(categoryId) => onChange({ categoryId })}
        />
      )}
      <Textarea
        label="Description"
        name="description"
        rows={4}
        maxLength={LIMITS.assignmentDescription}
        placeholder="Instructions for your students (optional)"
        value={values.description}
        onChange={text('description')}
      />
      <ReleaseFields
        gradeRelease={values.gradeRelease}
        closesAtDue={values.closesAtDue}
        onGradeRelease={(gradeRelease) => onChange({ gradeRelease })}
        onClosesAtDue={(closesAtDue) => onChange({ closesAtDue })}
      />
    </>
  );
}
