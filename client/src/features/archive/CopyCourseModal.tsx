import { LIMITS, type Course } from '@classwave/shared';
import { useId, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { apiErrorMessage } from '../../api/errors';
import { FormModal } from '../../components/FormModal';
import { Input } from '../../components/Input';
import { useCopyCourseMutation } from './archiveApi';

/** Copy course (DESIGN §20): a new course of the caller's, named here; opened on arrival. */
export function CopyCourseModal({ course, onClose }: { course: Course | null; onClose: () => void }) {
  return course ? <CopyCourseForm key={course.id} course={course} onClose={onClose} /> : null;
}

function CopyCourseForm({ course, onClose }: { course: Course; onClose: () => void }) {
  const [title, setTitle] = useState(`${course.title} (copy)`.slice(0, LIMITS.courseTitle));
  const [error, setError] = useState<string>();
  const [copyCourse, { isLoading }] = useCopyCourseMutation();
  const navigate = useNavigate();
  const id = useId();

  async function handleSubmit() {
    if (title.trim() === '') {
      setError('Give the new course a title.');
      document.getElementById(id)?.focus();
      return;
    }
    try {
      const copy = await copyCourse({ courseId: course.id, body: { title: title.trim() } }).unwrap();
      toast.success(`Copied into “${copy.title}”`, {
        description: 'Assignments, materials, rubrics and categories came along; no students.',
      });
      onClose();
      void navigate(`/courses/${copy.id}`);
    } catch (failure) {
      toast.error(apiErrorMessage(failure, 'Failed to copy the course.'));
    }
  }

  return (
    <FormModal
      open
      onClose={onClose}
      title="Copy course"
      description="A new course of yours with this one's assignments, materials, rubrics and grade categories — never its students, work, grades or posts. Due dates keep their spacing; if they have passed, all move on so the first is about a week from now."
      submitLabel="Copy course"
      submitting={isLoading}
      onSubmit={handleSubmit}
    >
      <Input
        id={id}
        label="New course title"
        value={title}
        maxLength={LIMITS.courseTitle}
        required
        error={error}
        onChange={(event) => {
          setTitle(event.target.value);
          setError(undefined);
        }}
      />
    </FormModal>
  );
}
