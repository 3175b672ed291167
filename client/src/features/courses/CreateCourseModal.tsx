import { LIMITS } from '@classwave/shared';
import { useState } from 'react';
import { toast } from 'sonner';
import { FormModal } from '../../components/FormModal';
import { Input } from '../../components/Input';
import { Textarea } from '../../components/Textarea';
import { useCreateCourseMutation } from './coursesApi';

const EMPTY = { title: '', code: '', description: '' };

/** Create Course (spec §2): title, code and description, all required. */
export function CreateCourseModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [values, setValues] = useState(EMPTY);
  const [createCourse, { isLoading }] = useCreateCourseMutation();

  function close() {
    setValues(EMPTY);
    onClose();
  }

  async function handleSubmit() {
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
    <FormModal
      open={open}
      onClose={close}
      title="Create Course"
      description="Students join it with the class code shown on the course page."
      submitLabel="Create Course"
      submitting={isLoading}
      onSubmit={handleSubmit}
    >
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
    </FormModal>
  );
}
