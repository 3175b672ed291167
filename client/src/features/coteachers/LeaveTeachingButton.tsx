import type { Course } from '@classwave/shared';
import { useAppSelector } from '../../app/hooks';
import { selectProfile } from '../auth/authSlice';
import { LeaveCourseButton } from '../courses/LeaveCourseButton';
import { useLeaveTeachingMutation } from './coteachersApi';

/** What leaving means, said before it happens. */
export const LEAVE_TEACHING_CONFIRMATION =
  'The course leaves your list at once. Your posts and the grades you gave stay; the owner can invite you again.';

/** A co-teacher leaves a course they teach (DESIGN §20), after confirming, and goes back to their courses. */
export function LeaveTeachingButton({ course }: { course: Course }) {
  const me = useAppSelector(selectProfile);
  const [leave, { isLoading }] = useLeaveTeachingMutation();
  return (
    <LeaveCourseButton
      course={course}
      label="Leave this course"
      description={LEAVE_TEACHING_CONFIRMATION}
      confirmLabel="Leave course"
      leave={me ? () => leave({ courseId: course.id, userId: me.id }).unwrap() : undefined}
      leaving={isLoading}
      left={`You no longer teach ${course.title}`}
      failed="Could not leave the course"
    />
  );
}
