import type { Assignment, UpdateAssignmentBody } from '@classwave/shared';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { apiErrorBody, apiErrorMessage } from '../../api/errors';
import { FormModal } from '../../components/FormModal';
import { Notice } from '../../components/Notice';
import { useGetSubmissionsQuery } from './assignmentsApi';
import { AssignmentFields, dueInstant } from './AssignmentFields';
import { ENTER_A_TITLE } from './CreateAssignmentModal';
import { useUpdateAssignmentMutation } from '../grading/gradingApi';
import { toLocalInput } from './ReleaseFields';
import '../grading/grading.css';
import { TeacherFiles } from '../files/TeacherFiles';
import { audienceChanges, AudienceFields, audienceOf, audienceProblem } from './AudienceFields';

const formOf = (assignment: Assignment) => ({
  title: assignment.title,
  dueDate: toLocalInput(assignment.dueDate),
  maxPoints: String(assignment.maxPoints),
  description: assignment.description,
  gradeRelease: assignment.gradeRelease,
  closesAtDue: assignment.closesAtDue,
  categoryId: assignment.categoryId ?? '',
});

/** The changed fields only: an unchanged form sends nothing. */
export function assignmentChanges(
  assignment: Assignment,
  form: ReturnType<typeof formOf>,
): UpdateAssignmentBody {
  const changes: UpdateAssignmentBody = {};
  if (form.title.trim() !== assignment.title) changes.title = form.title.trim();
  if (form.description.trim() !== assignment.description) changes.description = form.description.trim();
  const due = dueInstant(form.dueDate);
  if (form.dueDate !== toLocalInput(assignment.dueDate) && due !== null) changes.dueDate = due.toISOString();
  const maxPoints = Number.parseInt(form.maxPoints, 10);
  if (!Number.isNaN(maxPoints) && maxPoints !== assignment.maxPoints) changes.maxPoints = maxPoints;
  if (form.gradeRelease !== assignment.gradeRelease) changes.gradeRelease = form.gradeRelease;
  if (form.closesAtDue !== assignment.closesAtDue) changes.closesAtDue = form.closesAtDue;
  if ((form.categoryId || null) !== assignment.categoryId) changes.categoryId = form.categoryId || null;
  return changes;
}

/** Edit Assignment (DESIGN §13): the Create form's fields, filled in, plus when grades reach students. */
export function EditAssignmentModal({
  assignment,
  onClose,
}: {
  assignment: Assignment | null;
  onClose: () => void;
}) {
  return assignment ? (
    <EditAssignmentForm key={assignment.id} assignment={assignment} onClose={onClose} />
  ) : null;
}

function EditAssignmentForm({ assignment, onClose }: { assignment: Assignment; onClose: () => void }) {
  const [values, setValues] = useState(() => formOf(assignment));
  const [audience, setAudience] = useState(() => audienceOf(assignment));
  const [audienceError, setAudienceError] = useState<string | null>(null);
  const [titleError, setTitleError] = useState<string | null>(null);
  const [pointsError, setPointsError] = useState<string | null>(null);
  const titleId = useId();
  const pointsId = useId();
  const [updateAssignment, { isLoading }] = useUpdateAssignmentMutation();
  // From "when I return them" to "automatically": the server returns the held grades with the edit.
  const releasesHeld = assignment.gradeRelease === 'manual' && values.gradeRelease === 'auto';
  const { data: submissions } = useGetSubmissionsQuery(assignment.id, { skip: !releasesHeld });
  const held = submissions?.filter((s) => s.held).length;

  async function handleSubmit() {
    if (values.title.trim() === '') {
      setTitleError(ENTER_A_TITLE);
      document.getElementById(titleId)?.focus();
      return;
    }
    // A scheduled time left as it was is no problem, even if near: only a new one is checked.
    const unchangedTime = audience.publishAt === audienceOf(assignment).publishAt;
    const problem = audienceProblem(unchangedTime ? { ...audience, schedule: false } : audience);
    if (problem) {
      setAudienceError(problem);
      return;
    }
    const body = { ...assignmentChanges(assignment, values), ...audienceChanges(assignment, audience) };
    if (Object.keys(body).length === 0) {
      onClose();
      return;
    }
    try {
      await updateAssignment({ assignmentId: assignment.id, body }).unwrap();
      toast.success('Assignment updated');
      onClose();
    } catch (error) {
      // Max points below a grade already given: said at the field, where it can be changed.
      if (apiErrorBody(error)?.code === 'points_below_grade') {
        setPointsError(apiErrorMessage(error, 'Max points cannot be below a grade already given.'));
        document.getElementById(pointsId)?.focus();
        return;
      }
      toast.error(apiErrorMessage(error, 'Failed to update assignment.'));
    }
  }

  return (
    <FormModal
      open
      onClose={onClose}
      title="Edit Assignment"
      description={`${assignment.courseTitle}: students see the changes at once.`}
      submitLabel="Save Changes"
      submitting={isLoading}
      onSubmit={handleSubmit}
    >
      <AssignmentFields
        values={values}
        onChange={(changes) => {
          if (changes.title !== undefined && changes.title.trim() !== '') setTitleError(null);
          if (changes.maxPoints !== undefined) setPointsError(null);
          setValues((current) => ({ ...current, ...changes }));
        }}
        titleId={titleId}
        titleError={titleError}
        pointsId={pointsId}
        pointsError={pointsError}
        courseId={assignment.courseId}
        warnPastDue={values.dueDate !== toLocalInput(assignment.dueDate)}
      />
      <AudienceFields
        courseId={assignment.courseId}
        value={audience}
        error={audienceError}
        // Once students see it, its publication is behind it.
        canSchedule={Boolean(assignment.publishAt)}
        onChange={(changes) => {
          setAudienceError(null);
          setAudience((current) => ({ ...current, ...changes }));
        }}
      />
      {/* Uploaded at once, not with Save: files are no form field to undo. */}
      <TeacherFiles assignmentId={assignment.id} purpose="assignment" title="Materials" />
      {releasesHeld && held !== 0 && (
        <Notice tone="warning" className="held-release">
          {held === undefined
            ? 'Any held grades will be returned now: students see them, with their feedback, once you save.'
            : `${held} held grade${held === 1 ? '' : 's'} will be returned now: students see ${held === 1 ? 'it' : 'them'}, with feedback, once you save.`}
        </Notice>
      )}
    </FormModal>
  );
}
