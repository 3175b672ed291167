import type { Course, UpdateCourseBody } from '@classwave/shared';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { apiErrorBody, apiErrorMessage, httpStatus } from '../../api/errors';
import { blankFieldErrors, focusFirstError } from '../../components/blankFields';
import { FormModal } from '../../components/FormModal';
import { CourseFields, type CourseField } from './CourseFields';
import { BLANK_COURSE_FIELD } from './CreateCourseModal';
import { useUpdateCourseMutation } from '../grading/gradingApi';
import '../../components/Field.css';
import '../grading/grading.css';

const FIELDS: readonly CourseField[] = ['title', 'code', 'description'];

/** Edit Course (DESIGN §13): the Create Course fields and checks, filled in; only changes are sent. */
export function EditCourseModal({ course, onClose }: { course: Course | null; onClose: () => void }) {
  return course ? <EditCourseForm key={course.id} course={course} onClose={onClose} /> : null;
}

function EditCourseForm({ course, onClose }: { course: Course; onClose: () => void }) {
  const [values, setValues] = useState({
    title: course.title,
    code: course.code,
    description: course.description,
  });
  // Missing work past due counts 0 in the gradebook's totals and CSV (DESIGN §17).
  const [missingCountsAsZero, setMissingCountsAsZero] = useState(course.missingCountsAsZero);
  const [errors, setErrors] = useState<Partial<Record<CourseField, string>>>({});
  const [updateCourse, { isLoading }] = useUpdateCourseMutation();
  const idPrefix = useId();
  const idOf = (field: CourseField) => `${idPrefix}-${field}`;

  async function handleSubmit() {
    const blank = blankFieldErrors(values, BLANK_COURSE_FIELD);
    setErrors(blank);
    if (Object.keys(blank).length > 0) {
      focusFirstError(FIELDS.map((f) => (blank[f] ? idOf(f) : undefined)));
      return;
    }
    const body: UpdateCourseBody = {};
    for (const field of FIELDS) {
      if (values[field].trim() !== course[field]) body[field] = values[field].trim();
    }
    if (missingCountsAsZero !== course.missingCountsAsZero) body.missingCountsAsZero = missingCountsAsZero;
    if (Object.keys(body).length === 0) {
      onClose();
      return;
    }
    try {
      await updateCourse({ courseId: course.id, body }).unwrap();
      toast.success('Course updated');
      onClose();
    } catch (error) {
      // A code the teacher already uses: said at the field, where it can be changed.
      if (httpStatus(error) === 409) {
        setErrors({ code: apiErrorBody(error)?.message ?? 'You already have a course with this code.' });
        focusFirstError([idOf('code')]);
        return;
      }
      toast.error(apiErrorMessage(error, 'Failed to update course.'));
    }
  }

  function change(field: CourseField, value: string) {
    setValues((current) => ({ ...current, [field]: value }));
    if (value.trim() !== '') setErrors((current) => ({ ...current, [field]: undefined }));
  }

  return (
    <FormModal
      open
      onClose={onClose}
      title="Edit Course"
      description="Students of the course see the changes at once."
      submitLabel="Save Changes"
      submitting={isLoading}
      onSubmit={handleSubmit}
    >
      <CourseFields values={values} errors={errors} idOf={idOf} onChange={change} />
      <label className="choice">
        <input
          type="checkbox"
          checked={missingCountsAsZero}
          onChange={(event) => setMissingCountsAsZero(event.target.checked)}
        />
        Missing work counts as 0 in totals
      </label>
      <p className="field__hint">
        Past its due time, work not handed in (and not excused) counts 0 points in the gradebook&apos;s totals
        and its CSV. Off: only graded work counts.
      </p>
    </FormModal>
  );
}
