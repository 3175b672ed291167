import { DEFAULT_MAX_POINTS, type Course, type GradeRelease } from '@classwave/shared';
import { useId, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { toast } from 'sonner';
import { apiErrorMessage } from '../../api/errors';
import { FormModal } from '../../components/FormModal';
import { Select } from '../../components/Select';
import { ChosenMaterials, uploadMaterialsOf } from '../files/ChosenMaterials';
import { useUploadAuth } from '../files/useUploadAuth';
import { AssignmentFields, dueInstant } from './AssignmentFields';
import { useCreateAssignmentMutation } from './assignmentsApi';
import { audienceBody, AudienceFields, audienceProblem, newAudience } from './AudienceFields';
import '../../components/forms.css';

export const SELECT_A_COURSE = 'Please select a course.';
/** The title's message when it holds only spaces (an empty one is stopped by the browser). */
export const ENTER_A_TITLE = 'Please enter a title.';
export { isPastDue, PAST_DUE_WARNING } from './AssignmentFields';

const emptyForm = () => ({
  title: '',
  courseId: '',
  dueDate: '',
  maxPoints: String(DEFAULT_MAX_POINTS),
  description: '',
  gradeRelease: 'auto' as GradeRelease,
  closesAtDue: false,
  categoryId: '',
});

export interface CreateAssignmentModalProps {
  open: boolean;
  onClose: () => void;
  /** The signed-in teacher's own courses: an assignment can only go into one of them. */
  courses: readonly Course[];
  coursesLoading: boolean;
}

/** Create Assignment (spec §2): title, course, due date and max points required; description optional. */
export function CreateAssignmentModal({
  open,
  onClose,
  courses,
  coursesLoading,
}: CreateAssignmentModalProps) {
  const [values, setValues] = useState(emptyForm);
  const [courseError, setCourseError] = useState<string | null>(null);
  const [titleError, setTitleError] = useState<string | null>(null);
  const [materials, setMaterials] = useState<File[]>([]);
  const [audience, setAudience] = useState(newAudience);
  const [audienceError, setAudienceError] = useState<string | null>(null);
  const uploadAuth = useUploadAuth();
  const titleId = useId();
  const courseRef = useRef<HTMLSelectElement>(null);
  const [createAssignment, { isLoading }] = useCreateAssignmentMutation();
  // A teacher with one course has nothing to choose: it is chosen for them.
  const courseId = values.courseId || (courses.length === 1 ? courses[0]!.id : '');

  function close() {
    setValues(emptyForm());
    setCourseError(null);
    setTitleError(null);
    setMaterials([]);
    setAudience(newAudience());
    setAudienceError(null);
    onClose();
  }

  async function handleSubmit() {
    // "   " passes the browser's required check; name the field rather than let the server refuse it.
    if (values.title.trim() === '') {
      setTitleError(ENTER_A_TITLE);
      document.getElementById(titleId)?.focus();
      return;
    }
    // The course is checked here rather than by the browser, so the spec's message is the one shown.
    if (!courseId) {
      setCourseError(SELECT_A_COURSE);
      toast.error(SELECT_A_COURSE);
      courseRef.current?.focus();
      return;
    }
    const maxPoints = Number.parseInt(values.maxPoints, 10);
    const dueDate = dueInstant(values.dueDate);
    if (Number.isNaN(maxPoints) || dueDate === null) return;
    const problem = audienceProblem(audience);
    if (problem) {
      setAudienceError(problem);
      return;
    }
    try {
      const created = await createAssignment({
        title: values.title.trim(),
        description: values.description.trim(),
        dueDate: dueDate.toISOString(),
        maxPoints,
        courseId,
        gradeRelease: values.gradeRelease,
        closesAtDue: values.closesAtDue,
        ...(values.categoryId ? { categoryId: values.categoryId } : {}),
        ...audienceBody(audience),
      }).unwrap();
      toast.success(created.publishAt ? 'Assignment scheduled!' : 'Assignment created!');
      // They need the assignment's id: uploaded now, while the dialog closes.
      uploadMaterialsOf(created.id, materials, uploadAuth);
      close();
    } catch (error) {
      toast.error(apiErrorMessage(error, 'Failed to create assignment.'));
    }
  }

  const noCourses = !coursesLoading && courses.length === 0;

  return (
    <FormModal
      open={open}
      onClose={close}
      title="Create Assignment"
      description="The students it is for see it at once, or at the time you schedule."
      submitLabel="Create Assignment"
      submitting={isLoading}
      onSubmit={handleSubmit}
    >
      <AssignmentFields
        values={values}
        onChange={(changes) => {
          if (changes.title !== undefined && changes.title.trim() !== '') setTitleError(null);
          setValues((current) => ({ ...current, ...changes }));
        }}
        titleId={titleId}
        titleError={titleError}
        courseId={courseId}
        courseField={
          <Select
            ref={courseRef}
            label="Course"
            name="courseId"
            aria-required="true"
            value={courseId}
            onChange={(event) => {
              const { value } = event.target;
              if (value) setCourseError(null);
              // Categories are the course's own: another course starts with none chosen.
              setValues((current) => ({ ...current, courseId: value, categoryId: '' }));
              // The students chosen are the course's own too.
              setAudience((current) => ({ ...current, assignees: [] }));
            }}
            error={courseError ?? undefined}
            hint={
              noCourses ? (
                <>
                  You have no courses yet. <Link to="/courses">Create a course</Link> first.
                </>
              ) : undefined
            }
          >
            <option value="">Select a course</option>
            {courses.map((course) => (
              <option key={course.id} value={course.id}>
                {course.title} ({course.code})
              </option>
            ))}
          </Select>
        }
      />
      {courseId && (
        <AudienceFields
          courseId={courseId}
          value={audience}
          error={audienceError}
          onChange={(changes) => {
            setAudienceError(null);
            setAudience((current) => ({ ...current, ...changes }));
          }}
        />
      )}
      <ChosenMaterials files={materials} onChange={setMaterials} />
    </FormModal>
  );
}
