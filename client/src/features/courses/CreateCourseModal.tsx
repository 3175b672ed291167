import { useId, useState } from 'react';
import { toast } from 'sonner';
import { apiErrorBody, httpStatus } from '../../api/errors';
import { blankFieldErrors, focusFirstError } from '../../components/blankFields';
import { FormModal } from '../../components/FormModal';
import { CourseFields, type CourseField } from './CourseFields';
import { useCreateCourseMutation } from './coursesApi';

const EMPTY = { title: '', code: '', description: '' };

/** Each field's message when it holds only spaces (an empty one is stopped by the browser). */
export const BLANK_COURSE_FIELD: Record<CourseField, string> = {
  title: 'Please enter a course title.',
  code: 'Please enter a course code.',
  description: 'Please enter a description.',
};

/** Create Course (spec §2): title, code and description, all required. */
export function CreateCourseModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<CourseField, string>>>({});
  const [createCourse, { isLoading }] = useCreateCourseMutation();
  const idPrefix = useId();
  const idOf = (field: CourseField) => `${idPrefix}-${field}`;

  function close() {
    setValues(EMPTY);
    setErrors({});
    onClose();
  }

  async function handleSubmit() {
    const blank = blankFieldErrors(values, BLANK_COURSE_FIELD);
    setErrors(blank);
    if (Object.keys(blank).length > 0) {
      focusFirstError(
        (['title', 'code', 'description'] as const).map((f) => (blank[f] ? idOf(f) : undefined)),
      );
      return;
    }
    try {
      await createCourse({
        title: values.title.trim(),
        code: values.code.trim(),
        description: values.description.trim(),
      }).unwrap();
      toast.success('Course created successfully!');
      close();
    } catch (error) {
      toast.error('Failed to create course');
      // A code the teacher already uses: said at the field, where it can be changed.
      if (httpStatus(error) === 409) {
        setErrors({ code: apiErrorBody(error)?.message ?? 'You already have a course with this code.' });
        focusFirstError([idOf('code')]);
      }
    }
  }

  function change(field: CourseField, value: string) {
    setValues((current) => ({ ...current, [field]: value }));
    if (value.trim() !== '') setErrors((current) => ({ ...current, [field]: undefined }));
  }

  return (
    <FormModal
      open={open}
      onClose={close}
      title="Create Course"
      description="Students join it with the class code shown on the course page."
      submitLabel="Create Course"
      submitting={isLoading}
      onSubmit={handleSubmit}
    >
      <CourseFields values={values} errors={errors} idOf={idOf} onChange={change} />
    </FormModal>
  );
}
