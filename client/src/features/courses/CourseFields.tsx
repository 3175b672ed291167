import { LIMITS } from '@classwave/shared';
import { Input } from '../../components/Input';
import { Textarea } from '../../components/Textarea';

export interface CourseValues {
  title: string;
  code: string;
  description: string;
}
export type CourseField = keyof CourseValues;

/** The course form's fields, shared by Create and Edit Course: all three required. */
export function CourseFields({
  values,
  errors,
  idOf,
  onChange,
}: {
  values: CourseValues;
  errors: Partial<Record<CourseField, string>>;
  idOf: (field: CourseField) => string;
  onChange: (field: CourseField, value: string) => void;
}) {
  const set = (field: CourseField) => (event: { target: { value: string } }) =>
    onChange(field, event.target.value);
  return (
    <>
      <Input
        id={idOf('title')}
        label="Course Title"
        name="title"
        required
        maxLength={LIMITS.courseTitle}
        value={values.title}
        onChange={set('title')}
        error={errors.title}
      />
      <Input
        id={idOf('code')}
        label="Course Code"
        name="code"
        placeholder="e.g. CS101"
        required
        maxLength={LIMITS.courseCode}
        autoComplete="off"
        value={values.code}
        onChange={set('code')}
        error={errors.code}
      />
      <Textarea
        id={idOf('description')}
        label="Description"
        name="description"
        rows={4}
        required
        maxLength={LIMITS.courseDescription}
        value={values.description}
        onChange={set('description')}
        error={errors.description}
      />
    </>
  );
}
