import type { Course } from '@classwave/shared';
import { LogOut } from 'lucide-react';
import { useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { apiErrorMessage } from '../../api/errors';
import { Button } from '../../components/Button';
import { useLeaveCourseMutation } from './classesApi';

export const leaveConfirmation = (title: string) =>
  `Leave ${title}? You can join again later with the class code; your submissions are kept.`;

/** A student leaves a class (after confirming) and goes back to their courses. */
export function LeaveClassButton({ course }: { course: Course }) {
  const [leave, { isLoading }] = useLeaveCourseMutation();
  const navigate = useNavigate();

  async function handleLeave() {
    if (!window.confirm(leaveConfirmation(course.title))) return;
    try {
      await leave(course.id).unwrap();
      toast.success(`You left ${course.title}`);
      await navigate('/courses', { replace: true });
    } catch (error) {
      toast.error(apiErrorMessage(error, 'Could not leave the class'));
    }
  }

  return (
    <Button
      variant="secondary"
      size="sm"
      icon={<LogOut />}
      loading={isLoading}
      onClick={() => void handleLeave()}
    >
      Leave class
    </Button>
  );
}
