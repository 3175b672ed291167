import type { Course } from '@classwave/shared';
import { LeaveCourseButton } from '../courses/LeaveCourseButton';
import { useLeaveCourseMutation } from './classesApi';

export const LEAVE_CONFIRMATION = 'You can join again later with the class code; your submissions are kept.';

/** A student leaves a class (after confirming) and goes back to their courses. */
export function LeaveClassButton({ course }: { course: Course }) {
  const [leave, { isLoading }] = useLeaveCourseMutation();
  return (
    <LeaveCourseButton
      course={course}
      label="Leave class"
      description={LEAVE_CONFIRMATION}
      confirmLabel="Leave class"
      leave={() => leave(course.id).unwrap()}
      leaving={isLoading}
      left={`You left ${course.title}`}
      failed="Could not leave the class"
    />
  );
}
