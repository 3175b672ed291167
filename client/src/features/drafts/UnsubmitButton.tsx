import type { Assignment, OwnSubmission } from '@classwave/shared';
import { Undo2 } from 'lucide-react';
import { toast } from 'sonner';
import { apiErrorMessage } from '../../api/errors';
import { Button } from '../../components/Button';
import { useConfirm } from '../../components/ConfirmDialog';
import { useUnsubmitMutation } from './draftsApi';

export const UNSUBMIT_CONFIRMATION =
  'It becomes a draft again, and your teacher no longer sees it until you submit again.';

/** Whether the student may still take a submission back (DESIGN §12): ungraded, before the due time. */
export const canUnsubmit = (assignment: Assignment, submission: OwnSubmission, now: Date) =>
  submission.grade === null && submission.gradedAt === null && now.getTime() < Date.parse(assignment.dueDate);

/** Unsubmit: the submission becomes the student's draft again. */
export function UnsubmitButton({
  assignment,
  submission,
  describedBy,
}: {
  assignment: Assignment;
  submission: OwnSubmission;
  describedBy: string;
}) {
  const [unsubmit, { isLoading }] = useUnsubmitMutation();
  const [confirm, dialog] = useConfirm();

  async function handleClick() {
    const sure = await confirm({
      title: 'Take your submission back?',
      description: UNSUBMIT_CONFIRMATION,
      confirmLabel: 'Unsubmit',
    });
    if (!sure) return;
    try {
      await unsubmit({ assignmentId: assignment.id, submissionId: submission.id }).unwrap();
      toast.success('Submission taken back: it is a draft again.');
    } catch (error) {
      toast.error(apiErrorMessage(error, 'Could not take the submission back.'));
    }
  }

  return (
    <>
      <Button
        variant="secondary"
        size="sm"
        icon={<Undo2 />}
        loading={isLoading}
        aria-describedby={describedBy}
        onClick={() => void handleClick()}
      >
        Unsubmit
      </Button>
      {dialog}
    </>
  );
}
