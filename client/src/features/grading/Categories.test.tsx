import type { CategoriesResponse, Gradebook } from '@classwave/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { nextId } from '../../test/factories';
import { renderRoute } from '../../test/renderRoute';

/** A course with Ada: 9/10 on homework and 50/100 on a test. */
function buildGradebook(categories: Gradebook['categories'] = []): Gradebook {
  const courseId = nextId();
  const ada = { id: nextId(), fullName: 'Ada Lovelace', email: 'ada@example.org' };
  const homework = categories[0]?.id ?? null;
  const tests = categories[1]?.id ?? null;
  const assignment = (title: string, maxPoints: number, categoryId: string | null) => ({
    id: nextId(),
    title,
    dueDate: '2026-03-01T12:00:00.000Z',
    maxPoints,
    gradeRelease: 'auto' as const,
    categoryId,
  });
  const sheet = assignment('Worksheet', 10, homework);
  const test = assignment('Test', 100, tests);
  const cell = (assignmentId: string, grade: number) => ({
    assignmentId,
    studentId: ada.id,
    submissionId: nextId(),
    grade,
    version: 1,
    status: 'returned' as const,
    late: null,
    returnedAt: '2026-03-02T12:00:00.000Z',
  });
  return {
    course: { id: courseId, title: 'Biology', code: 'BIO1', missingCountsAsZero: true },
    students: [ada],
    assignments: [sheet, test],
    cells: [cell(sheet.id, 9), cell(test.id, 50)],
    categories,
  };
}

describe('Categories & weights', () => {
  it('writes the categories with a running total, and refuses to save weights that do not add up to 100', async () => {
    const gradebook = buildGradebook();
    const saved: CategoriesResponse = {
      courseId: gradebook.course.id,
      categories: [
        { id: nextId(), name: 'Homework', weight: 30 },
        { id: nextId(), name: 'Tests', weight: 70 },
      ],
    };
    const { user, calls } = renderRoute(`/courses/${gradebook.course.id}/gradebook`, 'teacher', {
      [`GET /api/courses/${gradebook.course.id}/gradebook`]: { body: gradebook },
      [`PUT /api/courses/${gradebook.course.id}/categories`]: { body: saved },
    });
    const table = await screen.findByRole('grid');
    // Unweighted: points over possible.
    expect(within(table).getByRole('row', { name: /Ada Lovelace/ })).toHaveTextContent('59/110 (53.6%)');

    await user.click(screen.getByRole('button', { name: 'Categories & weights' }));
    const dialog = await screen.findByRole('dialog', { name: 'Categories & weights' });
    await user.click(within(dialog).getByRole('button', { name: 'Add category' }));
    await user.type(within(dialog).getByLabelText('Category 1'), 'Homework');
    await user.clear(within(dialog).getByLabelText('Weight (%)'));
    await user.type(within(dialog).getByLabelText('Weight (%)'), '30');
    expect(within(dialog).getByText(/Total: 30%/)).toHaveTextContent('must add up to 100%');
    expect(within(dialog).getByRole('button', { name: 'Save categories' })).toBeDisabled();
    // A new row starts with what is left of 100.
    await user.click(within(dialog).getByRole('button', { name: 'Add category' }));
    await user.type(within(dialog).getByLabelText('Category 2'), 'Tests');
    expect(within(dialog).getAllByLabelText('Weight (%)')[1]).toHaveValue(70);
    expect(within(dialog).getByText(/2 assignments are in no category/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Save categories' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      categories: [
        { name: 'Homework', weight: 30 },
        { name: 'Tests', weight: 70 },
      ],
    });
  });

  it('shows each column’s category and a weighted total', async () => {
    const gradebook = buildGradebook([
      { id: nextId(), name: 'Homework', weight: 30 },
      { id: nextId(), name: 'Tests', weight: 70 },
    ]);
    renderRoute(`/courses/${gradebook.course.id}/gradebook`, 'teacher', {
      [`GET /api/courses/${gradebook.course.id}/gradebook`]: { body: gradebook },
    });
    const table = await screen.findByRole('grid');
    expect(within(table).getByRole('columnheader', { name: /Test\/100\s*Tests/ })).toBeInTheDocument();
    // 0.3 · 90 % + 0.7 · 50 % = 62 %.
    expect(within(table).getByRole('row', { name: /Ada Lovelace/ })).toHaveTextContent('62% (59/110 pts)');
    expect(screen.getByText(/Totals weighted by category: Homework 30% · Tests 70%/)).toBeInTheDocument();
  });
});
