import type { Assignment, UpdateAssignmentBody } from '@classwave/shared';
import { useId } from 'react';
import { Input } from '../../components/Input';
import { useGetMembersQuery } from '../classes/classesApi';
import { dueInstant } from './AssignmentFields';
import { localTimeZone, toLocalInput } from './ReleaseFields';
import './AudienceFields.css';

/** Who an assignment is for and when it shows (DESIGN §20), as the form holds it. */
export interface Audience {
  assignTo: 'all' | 'some';
  /** The students chosen when `assignTo` is 'some'. */
  assignees: string[];
  /** Published at `publishAt` rather than at once. */
  schedule: boolean;
  /** A datetime-local value, in the viewer's zone. */
  publishAt: string;
}

/** Said when "Selected students" has none chosen. */
export const CHOOSE_STUDENTS = 'Choose at least one student, or assign it to all students.';
/** Said when "Schedule" has no time, or one already past. */
export const CHOOSE_A_TIME = 'Choose a time to publish it, later than now.';

export const newAudience = (): Audience => ({
  assignTo: 'all',
  assignees: [],
  schedule: false,
  publishAt: '',
});

/** The form's audience for an assignment as it stands. */
export const audienceOf = (assignment: Assignment): Audience => ({
  assignTo: Array.isArray(assignment.assignees) ? 'some' : 'all',
  assignees: Array.isArray(assignment.assignees) ? [...assignment.assignees] : [],
  schedule: Boolean(assignment.publishAt),
  publishAt: assignment.publishAt ? toLocalInput(assignment.publishAt) : '',
});

/** What is wrong with the audience, or null. */
export function audienceProblem(audience: Audience, now = Date.now()): string | null {
  if (audience.assignTo === 'some' && audience.assignees.length === 0) return CHOOSE_STUDENTS;
  if (audience.schedule) {
    const at = dueInstant(audience.publishAt);
    if (at === null || at.getTime() <= now) return CHOOSE_A_TIME;
  }
  return null;
}

/** The create body's part: left out where the server's default (all, now) is meant. */
export function audienceBody(audience: Audience): { assignees?: string[]; publishAt?: string } {
  const at = audience.schedule ? dueInstant(audience.publishAt) : null;
  return {
    ...(audience.assignTo === 'some' ? { assignees: audience.assignees } : {}),
    ...(at ? { publishAt: at.toISOString() } : {}),
  };
}

/** An edit's part: what changed; a scheduled one no longer scheduled is published now (null). */
export function audienceChanges(
  assignment: Assignment,
  audience: Audience,
): Pick<UpdateAssignmentBody, 'assignees' | 'publishAt'> {
  const changes: Pick<UpdateAssignmentBody, 'assignees' | 'publishAt'> = {};
  const before = audienceOf(assignment);
  const sameStudents =
    before.assignTo === audience.assignTo &&
    (audience.assignTo === 'all' ||
      (before.assignees.length === audience.assignees.length &&
        before.assignees.every((id) => audience.assignees.includes(id))));
  if (!sameStudents) changes.assignees = audience.assignTo === 'all' ? 'all' : audience.assignees;
  if (assignment.publishAt) {
    if (!audience.schedule) changes.publishAt = null;
    else if (audience.publishAt !== before.publishAt) {
      const at = dueInstant(audience.publishAt);
      if (at) changes.publishAt = at.toISOString();
    }
  }
  return changes;
}

/**
 * The assignment form's "Assign to" (all the course's students, or some of them from its roster)
 * and "Schedule" (publish at a time). `canSchedule`: false once students see it (Edit of a
 * published assignment: its publication is behind it).
 */
export function AudienceFields({
  courseId,
  value,
  onChange,
  error,
  canSchedule = true,
}: {
  courseId: string;
  value: Audience;
  onChange: (changes: Partial<Audience>) => void;
  error?: string | null;
  canSchedule?: boolean;
}) {
  const name = useId();
  const errorId = useId();
  const { data: roster, isLoading } = useGetMembersQuery(courseId, { skip: !courseId });
  const students = (roster ?? [])
    .filter((m) => m.status === 'active')
    .map((m) => m.student)
    .sort((a, b) => a.fullName.localeCompare(b.fullName));
  const toggle = (id: string, on: boolean) =>
    onChange({ assignees: on ? [...value.assignees, id] : value.assignees.filter((s) => s !== id) });
  return (
    <>
      <fieldset className="choice-group" aria-describedby={error ? errorId : undefined}>
        <legend className="field__label">Assign to</legend>
        <label className="choice">
          <input
            type="radio"
            name={name}
            value="all"
            checked={value.assignTo === 'all'}
            onChange={() => onChange({ assignTo: 'all' })}
          />
          All students
        </label>
        <label className="choice">
          <input
            type="radio"
            name={name}
            value="some"
            checked={value.assignTo === 'some'}
            onChange={() => onChange({ assignTo: 'some' })}
          />
          Selected students
        </label>
        {value.assignTo === 'some' && (
          <div className="audience__students" role="group" aria-label="Students">
            {isLoading ? (
              <p className="field__hint">Loading the class…</p>
            ) : students.length === 0 ? (
              <p className="field__hint">No students have joined this course yet.</p>
            ) : (
              students.map((student) => (
                <label key={student.id} className="choice">
                  <input
                    type="checkbox"
                    checked={value.assignees.includes(student.id)}
                    onChange={(event) => toggle(student.id, event.target.checked)}
                  />
                  {student.fullName}
                </label>
              ))
            )}
          </div>
        )}
        {error && (
          <p id={errorId} className="field__error" role="alert">
            {error}
          </p>
        )}
      </fieldset>
      {canSchedule && (
        <>
          <label className="choice">
            <input
              type="checkbox"
              checked={value.schedule}
              onChange={(event) => onChange({ schedule: event.target.checked })}
            />
            Schedule: students see it from a later time
          </label>
          {value.schedule && (
            <Input
              label="Publish at"
              name="publishAt"
              type="datetime-local"
              value={value.publishAt}
              onChange={(event) => onChange({ publishAt: event.target.value })}
              hint={`Your time (${localTimeZone()}). Until then only the course's teachers see it.`}
            />
          )}
        </>
      )}
    </>
  );
}
