import { LIMITS, type Assignment } from '@classwave/shared';
import { useState } from 'react';
import { toast } from 'sonner';
import { apiErrorMessage } from '../../api/errors';
import { FormModal } from '../../components/FormModal';
import { formatListDate } from '../../components/dates';
import { Textarea } from '../../components/Textarea';
import { useSubmitAssignmentMutation } from './assignmentsApi';

/** Submit Assignment (spec §2): one text answer; blank content is ignored without a word. */
export function SubmitAssignmentModal({
  assignment,
  onClose,
  onSubmitted,
}: {
  assignment: Assignment | null;
  onClose: () => void;
  /** Called with the assignment's id once its submission is saved (before the dialog closes). */
  onSubmitted?: (assignmentId: string) => void;
}) {
  const [content, setContent] = useState('');
  const [submitAssignment, { isLoading }] = useSubmitAssignmentMutation();

  function close() {
    setContent('');
    onClose();
  }

  async function handleSubmit() {
    if (!assignment || content.trim() === '') return;
    try {
      await submitAssignment({ assignmentId: assignment.id, content }).unwrap();
      toast.success('Assignment submitted!');
      onSubmitted?.(assignment.id);
      close();
    } catch (error) {
      toast.error(apiErrorMessage(error, 'Failed to submit assignment.'));
    }
  }

  return (
    <FormModal
      open={assignment !== null}
      onClose={close}
      size="lg"
      title="Submit Assignment"
      description={
        assignment && (
          <>
            {assignment.title} · {assignment.courseTitle} · Due {formatListDate(assignment.dueDate)} ·{' '}
            {assignment.maxPoints} points
          </>
        )
      }
      submitLabel="Submit Assignment"
      submitting={isLoading}
      onSubmit={handleSubmit}
    >
      {assignment && assignment.description.trim() !== '' && (
        <section className="submit-brief" aria-label="Instructions">
          <h3 className="submit-brief__title">Instructions</h3>
          <p className="submit-brief__text">{assignment.description}</p>
        </section>
      )}
      <Textarea
        label="Your Submission"
        name="content"
        rows={8}
        required
        maxLength={LIMITS.submissionContent}
        placeholder="Type your submission here..."
        hint="You can submit once; your teacher sees it right away."
        value={content}
        onChange={(event) => setContent(event.target.value)}
      />
    </FormModal>
  );
}
