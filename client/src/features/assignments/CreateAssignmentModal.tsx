import { DEFAULT_MAX_POINTS, LIMITS, type Course } from '@classwave/shared';
import { useId, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { toast } from 'sonner';
import { apiErrorMessage } from '../../api/errors';
import { FormModal } from '../../components/FormModal';
import { Input } from '../../components/Input';
import { Select } from '../../components/Select';
import { Textarea } from '../../components/Textarea';
import { useCreateAssignmentMutation } from './assignmentsApi';
import '../../components/forms.css';

export const SELECT_A_COURSE = 'Please select a course.';
/** The title's message when it holds only spaces (an empty one is stopped by the browser). */
export const ENTER_A_TITLE = 'Please enter a title.';
/** Shown under Due Date while it is in the past: allowed (e.g. recording past work), but never by accident. */
export const PAST_DUE_WARNING = 'This date has passed: students will see the assignment as Overdue at once.';

/** Whether a datetime-local value is a valid moment before `now`. */
export function isPastDue(value: string, now: number = Date.now()): boolean {
  const time = new Date(value).getTime();
  return !Number.isNaN(time) && time < now;
}

const emptyForm = () => ({
  title: '',
  courseId: '',
  dueDate: '',
  maxPoints: String(DEFAULT_MAX_POINTS),
  description: '',
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
  const titleId = useId();
  const courseRef = useRef<HTMLSelectElement>(null);
  const [createAssignment, { isLoading }] = useCreateAssignmentMutation();

  function close() {
    setValues(emptyForm());
    setCourseError(null);
    setTitleError(null);
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
    if (!values.courseId) {
      setCourseError(SELECT_A_COURSE);
      toast.error(SELECT_A_COURSE);
      courseRef.current?.focus();
      return;
    }
    const maxPoints = Number.parseInt(values.maxPoints, 10);
    const dueDate = new Date(values.dueDate);
    if (Number.isNaN(maxPoints) || Number.isNaN(dueDate.getTime())) return;
    try {
      await createAssignment({
        title: values.title.trim(),
        description: values.description.trim(),
        dueDate: dueDate.toISOString(),
        maxPoints,
        courseId: values.courseId,
      }).unwrap();
      toast.success('Assignment created!');
      close();
    } catch (error) {
      toast.error(apiErrorMessage(error, 'Failed to create assignment.'));
    }
  }

  function set(field: keyof ReturnType<typeof emptyForm>) {
    return (event: { target: { value: string } }) => {
      const { value } = event.target;
      if (field === 'courseId' && value) setCourseError(null);
      if (field === 'title' && value.trim() !== '') setTitleError(null);
      setValues((current) => ({ ...current, [field]: value }));
    };
  }

  const noCourses = !coursesLoading && courses.length === 0;
  const pastDue = isPastDue(values.dueDate);

  return (
    <FormModal
      open={open}
      onClose={close}
      title="Create Assignment"
      description="Students of the course see it as soon as it is created."
      submitLabel="Create Assignment"
      submitting={isLoading}
      onSubmit={handleSubmit}
    >
      <Input
        id={titleId}
        label="Title"
        name="title"
        required
        error={titleError ?? undefined}
        maxLength={LIMITS.assignmentTitle}
        value={values.title}
        onChange={set('title')}
      />
      <Select
        ref={courseRef}
        label="Course"
        name="courseId"
        aria-required="true"
        value={values.courseId}
        onChange={set('courseId')}
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
      <div className="form-row form-row--wide-first">
        <Input
          label="Due Date"
          name="dueDate"
          type="datetime-local"
          required
          value={values.dueDate}
          onChange={set('dueDate')}
          hint={
            pastDue ? (
              <span className="field__warning" role="status">
                {PAST_DUE_WARNING}
              </span>
            ) : undefined
          }
        />
        <Input
          label="Max Points"
          name="maxPoints"
          type="number"
          inputMode="numeric"
          required
          min={1}
          max={LIMITS.maxPoints}
          step={1}
          value={values.maxPoints}
          onChange={set('maxPoints')}
        />
      </div>
      <Textarea
        label="Description"
        name="description"
        rows={4}
        maxLength={LIMITS.assignmentDescription}
        placeholder="Instructions for your students (optional)"
        value={values.description}
        onChange={set('description')}
      />
    </FormModal>
  );
}
