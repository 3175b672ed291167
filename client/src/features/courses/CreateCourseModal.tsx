import { LIMITS } from '@classwave/shared';
import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '../../components/Button';
import { Input } from '../../components/Input';
import { Modal } from '../../components/Modal';
import { Textarea } from '../../components/Textarea';
import { useCreateCourseMutation } from './coursesApi';
import '../../components/forms.css';

const EMPTY = { title: '', code: '', description: '' };

/** Create Course (spec §2): title, code and description, all required. */
export function CreateCourseModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const formId = useId();
  const [values, setValues] = useState(EMPTY);
  const [createCourse, { isLoading }] = useCreateCourseMutation();

  function close() {
    setValues(EMPTY);
    onClose();
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    try {
      await createCourse({
        title: values.title.trim(),
        code: values.code.trim(),
        description: values.description.trim(),
      }).unwrap();
      toast.success('Course created successfully!');
      close();
    } catch {
      toast.error('Failed to create course');
    }
  }

  const set = (field: keyof typeof EMPTY) => (event: { target: { value: string } }) =>
    setValues((current) => ({ ...current, [field]: event.target.value }));

  return (
    <Modal
      open={open}
      onClose={close}
      title="Create Course"
      description="Students see every course as soon as it is created."
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" form={formId} loading={isLoading}>
            Create Course
          </Button>
        </>
      }
    >
      <form id={formId} className="form-stack" onSubmit={(event) => void handleSubmit(event)}>
        <Input
          label="Course Title"
          name="title"
          required
          maxLength={LIMITS.courseTitle}
          value={values.title}
          onChange={set('title')}
        />
        <Input
          label="Course Code"
          name="code"
          placeholder="e.g. CS101"
          required
          maxLength={LIMITS.courseCode}
          autoComplete="off"
          value={values.code}
          onChange={set('code')}
        />
        <Textarea
          label="Description"
          name="description"
          rows={4}
          required
          maxLength={LIMITS.courseDescription}
          value={values.description}
          onChange={set('description')}
        />
      </form>
    </Modal>
  );
}
