import { CATEGORY_LIMITS, categoriesProblem, type Gradebook } from '@classwave/shared';
import { Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { apiErrorMessage } from '../../api/errors';
import { Button } from '../../components/Button';
import { FormModal } from '../../components/FormModal';
import { IconButton } from '../../components/IconButton';
import { Input } from '../../components/Input';
import { Notice } from '../../components/Notice';
import { useSaveCategoriesMutation } from './categoriesApi';

interface Row {
  /** The saved category's id; none for a row added here. */
  id?: string;
  /** A stable React key, also for new rows. */
  key: string;
  name: string;
  weight: string;
}

let nextKey = 0;
const rowsOf = (gradebook: Gradebook): Row[] =>
  gradebook.categories.map((c) => ({ id: c.id, key: c.id, name: c.name, weight: String(c.weight) }));

/**
 * Categories & weights (DESIGN §17): the course's categories written whole. The running total says
 * whether the weights add up to 100; an empty list makes the course unweighted again.
 */
export function CategoriesModal({
  gradebook,
  open,
  onClose,
}: {
  gradebook: Gradebook;
  open: boolean;
  onClose: () => void;
}) {
  const [rows, setRows] = useState(() => rowsOf(gradebook));
  const [save, { isLoading }] = useSaveCategoriesMutation();
  const categories = rows.map(({ id, name, weight }) => ({
    ...(id ? { id } : {}),
    name: name.trim(),
    weight: Number.parseInt(weight, 10) || 0,
  }));
  const total = categories.reduce((sum, c) => sum + c.weight, 0);
  const problem = rows.some((r) => r.name.trim() === '') ? null : categoriesProblem(categories);
  const uncategorized = gradebook.assignments.filter(
    (a) => a.categoryId === null || !rows.some((r) => r.id === a.categoryId),
  ).length;

  const change = (key: string, changes: Partial<Row>) =>
    setRows((current) => current.map((r) => (r.key === key ? { ...r, ...changes } : r)));

  function close() {
    setRows(rowsOf(gradebook));
    onClose();
  }

  async function handleSubmit() {
    if (problem) return;
    try {
      await save({ courseId: gradebook.course.id, body: { categories } }).unwrap();
      toast.success(categories.length ? 'Categories saved: totals are weighted.' : 'Totals are unweighted.');
      onClose();
    } catch (error) {
      toast.error(apiErrorMessage(error, 'The categories could not be saved.'));
    }
  }

  return (
    <FormModal
      open={open}
      onClose={close}
      title="Categories & weights"
      description="Each category counts for its share of a student's total, over the categories with graded work so far."
      submitLabel="Save categories"
      submitting={isLoading}
      submitDisabled={problem !== null}
      onSubmit={handleSubmit}
    >
      {rows.length === 0 ? (
        <p className="categories__empty">
          No categories: a student's total is their points over the points possible.
        </p>
      ) : (
        <ul className="categories__list">
          {rows.map((row, index) => (
            <li key={row.key} className="categories__row">
              <Input
                label={`Category ${index + 1}`}
                name="name"
                required
                maxLength={CATEGORY_LIMITS.name}
                value={row.name}
                onChange={(event) => change(row.key, { name: event.target.value })}
              />
              <Input
                label="Weight (%)"
                name="weight"
                type="number"
                inputMode="numeric"
                required
                min={0}
                max={CATEGORY_LIMITS.weightTotal}
                step={1}
                value={row.weight}
                onChange={(event) => change(row.key, { weight: event.target.value })}
              />
              <IconButton
                label={`Remove ${row.name.trim() || `category ${index + 1}`}`}
                icon={<Trash2 />}
                tone="danger"
                onClick={() => setRows((current) => current.filter((r) => r.key !== row.key))}
              />
            </li>
          ))}
        </ul>
      )}
      {rows.length < CATEGORY_LIMITS.count && (
        <Button
          variant="secondary"
          size="sm"
          icon={<Plus />}
          onClick={() =>
            setRows((current) => [
              ...current,
              { key: `new-${++nextKey}`, name: '', weight: String(Math.max(0, 100 - total)) },
            ])
          }
        >
          Add category
        </Button>
      )}
      {rows.length > 0 && (
        <p className="categories__total" role="status" data-ok={total === 100 || undefined}>
          Total: {total}% {total === 100 ? '' : '(the weights must add up to 100%)'}
        </p>
      )}
      {problem && total === 100 && (
        <Notice tone="warning">{problem.replace(/^body\.categories /, 'Categories: ')}</Notice>
      )}
      {rows.length > 0 && uncategorized > 0 && (
        <Notice tone="info">
          {uncategorized === 1 ? '1 assignment is' : `${uncategorized} assignments are`} in no category and
          will not count in the weighted total: choose a category in each one's Edit form.
        </Notice>
      )}
    </FormModal>
  );
}
