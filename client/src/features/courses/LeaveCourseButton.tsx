import type { Course } from '@classwave/shared';
import { LogOut } from 'lucide-react';
import { useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { apiErrorMessage } from '../../api/errors';
import { Button } from '../../components/Button';
import { useConfirm } from '../../components/ConfirmDialog';

export interface LeaveCourseButtonProps {
  course: Course;
  /** The button's words. */
  label: string;
  /** What leaving means, said in the dialog before it happens. */
  description: string;
  /** The dialog's confirming button. */
  confirmLabel: string;
  /** Leaves (the mutation, unwrapped: it rejects with the API's error); undefined while it cannot yet. */
  leave: (() => Promise<unknown>) | undefined;
  /** The mutation is under way. */
  leaving: boolean;
  /** The toasts: once left, and the fallback when leaving failed with no message of its own. */
  left: string;
  failed: string;
}

/**
 * Leaving a course (a student's class, a co-teacher's course), after confirming: then back to the
 * courses, or a toast saying why not.
 */
export function LeaveCourseButton({
  course,
  label,
  description,
  confirmLabel,
  leave,
  leaving,
  left,
  failed,
}: LeaveCourseButtonProps) {
  const navigate = useNavigate();
  const [confirm, dialog] = useConfirm();

  async function handleLeave() {
    if (!leave) return;
    const sure = await confirm({ title: `Leave ${course.title}?`, description, confirmLabel });
    if (!sure) return;
    try {
      await leave();
      toast.success(left);
      await navigate('/courses', { replace: true });
    } catch (error) {
      toast.error(apiErrorMessage(error, failed));
    }
  }

  return (
    <>
      <Button
        variant="secondary"
        size="sm"
        icon={<LogOut />}
        loading={leaving}
        onClick={() => void handleLeave()}
      >
        {label}
      </Button>
      {dialog}
    </>
  );
}
