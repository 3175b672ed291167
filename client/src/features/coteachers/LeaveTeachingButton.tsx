import type { Course } from '@classwave/shared';
import { LogOut } from 'lucide-react';
import { useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { apiErrorMessage } from '../../api/errors';
import { useAppSelector } from '../../app/hooks';
import { Button } from '../../components/Button';
import { useConfirm } from '../../components/ConfirmDialog';
import { selectProfile } from '../auth/authSlice';
import { useLeaveTeachingMutation } from './coteachersApi';

/** What leaving means, said before it happens. */
export const LEAVE_TEACHING_CONFIRMATION =
  'The course leaves your list at once. Your posts and the grades you gave stay; the owner can invite you again.';

/** A co-teacher leaves a course they teach (DESIGN §20), after confirming, and goes back to their courses. */
export function LeaveTeachingButton({ course }: { course: Course }) {
  const me = useAppSelector(selectProfile);
  const [leave, { isLoading }] = useLeaveTeachingMutation();
  const navigate = useNavigate();
  const [confirm, dialog] = useConfirm();

  async function handleLeave() {
    if (!me) return;
    const sure = await confirm({
      title: `Leave ${course.title}?`,
      description: LEAVE_TEACHING_CONFIRMATION,
      confirmLabel: 'Leave course',
    });
    if (!sure) return;
    try {
      await leave({ courseId: course.id, userId: me.id }).unwrap();
      toast.success(`You no longer teach ${course.title}`);
      await navigate('/courses', { replace: true });
    } catch (error) {
      toast.error(apiErrorMessage(error, 'Could not leave the course'));
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
        Leave this course
      </Button>
      {dialog}
    </>
  );
}
