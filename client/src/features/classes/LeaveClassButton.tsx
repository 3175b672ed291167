import type { Course } from '@classwave/shared';
import { LogOut } from 'lucide-react';
import { useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { apiErrorMessage } from '../../api/errors';
import { Button } from '../../components/Button';
import { useConfirm } from '../../components/ConfirmDialog';
import { useLeaveCourseMutation } from './classesApi';

export const LEAVE_CONFIRMATION = 'You can join again later with the class code; your submissions are kept.';

/** A student leaves a class (after confirming) and goes back to their courses. */
export function LeaveClassButton({ course }: { course: Course }) {
  const [leave, { isLoading }] = useLeaveCourseMutation();
  const navigate = useNavigate();
  const [confirm, dialog] = useConfirm();

  async function handleLeave() {
    const sure = await confirm({
      title: `Leave ${course.title}?`,
      description: LEAVE_CONFIRMATION,
      confirmLabel: 'Leave class',
    });
    if (!sure) return;
    try {
      await leave(course.id).unwrap();
      toast.success(`You left ${course.title}`);
      await navigate('/courses', { replace: true });
    } catch (error) {
      toast.error(apiErrorMessage(error, 'Could not leave the class'));
    }
  }

  return (
    <>
      <Button
        variant="secondary"
        size="sm"
        icon={<LogOut />}
        loading={isLoading}
        onClick={() => void handleLeave()}
      >
        Leave class
      </Button>
      {dialog}
    </>
  );
}
