import { Select } from '../../components/Select';
import { useGetCategoriesQuery } from './categoriesApi';

/**
 * The assignment form's grade category (DESIGN §17): shown once the course has categories, with
 * each one's weight; "No category" keeps the assignment out of the weighted total, as it says.
 */
export function CategoryField({
  courseId,
  value,
  onChange,
}: {
  courseId: string;
  /** A category's id, or '' for none. */
  value: string;
  onChange: (categoryId: string) => void;
}) {
  const { data } = useGetCategoriesQuery(courseId, { skip: !courseId });
  const categories = data?.categories ?? [];
  if (categories.length === 0) return null;
  // A category deleted since the form was filled in reads as none.
  const shown = categories.some((c) => c.id === value) ? value : '';
  return (
    <Select
      label="Grade category"
      name="categoryId"
      value={shown}
      onChange={(event) => onChange(event.target.value)}
      hint={shown ? undefined : 'Work in no category does not count in the weighted total.'}
    >
      <option value="">No category</option>
      {categories.map((category) => (
        <option key={category.id} value={category.id}>
          {category.name} ({category.weight}%)
        </option>
      ))}
    </Select>
  );
}
