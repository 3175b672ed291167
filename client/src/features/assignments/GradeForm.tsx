import { LIMITS, type Submission } from '@classwave/shared';
import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { apiErrorMessage } from '../../api/errors';
import { Button } from '../../components/Button';
import { Field } from '../../components/Field';
import { Textarea } from '../../components/Textarea';
import { useGradeSubmissionMutation } from './assignmentsApi';

/** Points (0 to the assignment's max, whole numbers) and optional feedback for one submission. */
export function GradeForm({ submission, maxPoints }: { submission: Submission; maxPoints: number }) {
  const maxId = useId();
  const [points, setPoints] = useState(submission.grade === null ? '' : String(submission.grade));
  const [feedback, setFeedback] = useState(submission.feedback ?? '');
  // A new grade (saved here, or live from another tab) resets the fields without remounting the
  // form, so keyboard focus stays where it was.
  const [shownGradedAt, setShownGradedAt] = useState(submission.gradedAt);
  if (submission.gradedAt !== shownGradedAt) {
    setShownGradedAt(submission.gradedAt);
    setPoints(submission.grade === null ? '' : String(submission.grade));
    setFeedback(submission.feedback ?? '');
  }
  const [gradeSubmission, { isLoading }] = useGradeSubmissionMutation();

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const grade = Number.parseInt(points, 10);
    if (Number.isNaN(grade) || grade < 0 || grade > maxPoints) return;
    try {
      await gradeSubmission({
        submissionId: submission.id,
        assignmentId: submission.assignmentId,
        grade,
        feedback: feedback.trim() === '' ? null : feedback.trim(),
      }).unwrap();
      toast.success('Grade saved');
    } catch (error) {
      toast.error(apiErrorMessage(error, 'Failed to save grade.'));
    }
  }

  return (
    <form
      className="grade-form"
      aria-label={`Grade ${submission.student.fullName}'s submission`}
      onSubmit={(event) => void handleSubmit(event)}
    >
      <Field props={{ label: 'Points', containerClassName: 'grade-form__points', 'aria-describedby': maxId }}>
        {(control) => (
          <div className="grade-form__points-control">
            <input
              {...control}
              className="field__input"
              type="number"
              inputMode="numeric"
              required
              min={0}
              max={maxPoints}
              step={1}
              value={points}
              onChange={(event) => setPoints(event.target.value)}
            />
            <span id={maxId} className="grade-form__max">
              / {maxPoints}
            </span>
          </div>
        )}
      </Field>
      <Textarea
        label="Feedback"
        containerClassName="grade-form__feedback"
        rows={2}
        maxLength={LIMITS.feedback}
        placeholder="Optional: what went well, what to improve"
        value={feedback}
        onChange={(event) => setFeedback(event.target.value)}
      />
      <Button type="submit" size="sm" className="grade-form__save" loading={isLoading}>
        Save grade
      </Button>
    </form>
  );
}
