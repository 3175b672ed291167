import type { Assignment } from '@classwave/shared';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { apiErrorMessage } from '../../api/errors';
import { Button } from '../../components/Button';
import { formatListDate } from '../../components/dates';
import { Input } from '../../components/Input';
import { dueInstant } from './AssignmentFields';
import { useRemoveExtensionMutation, useSetExtensionMutation } from './extensionsApi';
import { localTimeZone, toLocalInput } from './ReleaseFields';
import './ExtendControl.css';

/**
 * One student's own due date on the assignment (DESIGN §20), in their row of the teacher's
 * submissions panel: "Extend…" opens a date picker; an extension can be moved or taken back.
 * Only that student and the course's teachers ever see it.
 */
export function ExtendControl({
  assignment,
  student,
  extendedTo,
}: {
  assignment: Assignment;
  student: { id: string; fullName: string };
  /** Their extension's due date, if they have one. */
  extendedTo?: string;
}) {
  const [open, setOpen] = useState(false);
  const [value, setValue] = useState(() => toLocalInput(extendedTo ?? assignment.dueDate));
  const inputId = useId();
  const [setExtension, { isLoading: saving }] = useSetExtensionMutation();
  const [removeExtension, { isLoading: removing }] = useRemoveExtensionMutation();
  const args = { assignmentId: assignment.id, studentId: student.id, courseId: assignment.courseId };

  async function save() {
    const due = dueInstant(value);
    if (!due) return;
    try {
      await setExtension({ ...args, dueDate: due.toISOString() }).unwrap();
      toast.success(`${student.fullName} is now due ${formatListDate(due.toISOString())}`);
      setOpen(false);
    } catch (error) {
      toast.error(apiErrorMessage(error, 'Failed to extend the due date.'));
    }
  }

  async function remove() {
    try {
      await removeExtension(args).unwrap();
      toast.success(`${student.fullName} is due with the class again`);
      setOpen(false);
    } catch (error) {
      toast.error(apiErrorMessage(error, 'Failed to take the extension back.'));
    }
  }

  if (!open)
    return (
      <div className="extend">
        {extendedTo && <span className="extend__note">Extended to {formatListDate(extendedTo)}</span>}
        <Button
          variant="secondary"
          size="sm"
          aria-label={`Extend the due date for ${student.fullName}`}
          onClick={() => {
            setValue(toLocalInput(extendedTo ?? assignment.dueDate));
            setOpen(true);
          }}
        >
          Extend…
        </Button>
      </div>
    );
  return (
    <form
      className="extend extend--open"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <Input
        id={inputId}
        label={`Due date for ${student.fullName}`}
        type="datetime-local"
        required
        value={value}
        onChange={(event) => setValue(event.target.value)}
        hint={`Your time (${localTimeZone()}). The class's: ${formatListDate(assignment.dueDate)}`}
      />
      <div className="extend__actions">
        <Button type="submit" size="sm" loading={saving}>
          Save date
        </Button>
        {extendedTo && (
          <Button type="button" size="sm" variant="ghost" loading={removing} onClick={() => void remove()}>
            Remove extension
          </Button>
        )}
        <Button type="button" size="sm" variant="ghost" onClick={() => setOpen(false)}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
