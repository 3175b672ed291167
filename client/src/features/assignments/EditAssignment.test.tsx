import type { Assignment, LiveEvent } from '@classwave/shared';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatListDate } from '../../components/dates';
import { applyLiveEvent } from '../../realtime/applyLiveEvent';
import { apiError } from '../../test/api';
import { createAssignment, nextId } from '../../test/factories';
import { renderAssignments } from '../../test/renderRoute';
import { findToast } from '../../test/renderWithProviders';
import { toLocalInput } from './ReleaseFields';

afterEach(() => {
  vi.unstubAllGlobals();
});

async function openEdit(assignment: Assignment, patch: Parameters<typeof renderAssignments>[1] = {}) {
  const view = renderAssignments('teacher', {
    'GET /api/assignments': { body: [assignment] },
    ...(patch as object),
  });
  const card = await screen.findByRole('article', { name: assignment.title });
  await view.user.click(within(card).getByRole('button', { name: 'Edit assignment' }));
  return { ...view, dialog: screen.getByRole('dialog', { name: 'Edit Assignment' }) };
}

describe('Edit assignment', () => {
  it('opens filled in, in the viewer’s time zone, and sends only what changed', async () => {
    const assignment = createAssignment({
      title: 'Essay',
      maxPoints: 20,
      dueDate: '2026-12-01T09:30:00.000Z',
    });
    const { dialog, user, calls } = await openEdit(assignment, {
      [`PATCH /api/assignments/${assignment.id}`]: ({ body }) => ({
        body: { ...assignment, ...(body as object) },
      }),
    });
    expect(within(dialog).getByLabelText('Title')).toHaveValue('Essay');
    expect(within(dialog).getByLabelText('Due Date')).toHaveValue(toLocalInput(assignment.dueDate));
    expect(within(dialog).getByText(/Your time \(/)).toBeInTheDocument();
    expect(within(dialog).getByRole('radio', { name: 'Automatically, when I grade' })).toBeChecked();

    await user.click(within(dialog).getByRole('radio', { name: 'When I return them' }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Close submissions at the due time' }));
    await user.clear(within(dialog).getByLabelText('Max Points'));
    await user.type(within(dialog).getByLabelText('Max Points'), '25');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));

    expect(await findToast('Assignment updated')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({
      maxPoints: 25,
      gradeRelease: 'manual',
      closesAtDue: true,
    });
    const card = screen.getByRole('article', { name: 'Essay' });
    await waitFor(() => expect(card).toHaveTextContent('25 points'));
  });

  it('offers the course’s grade categories and moves the assignment into one', async () => {
    const assignment = createAssignment({ title: 'Worksheet' });
    const homework = { id: nextId(), name: 'Homework', weight: 40 };
    const { dialog, user, calls } = await openEdit(assignment, {
      [`GET /api/courses/${assignment.courseId}/categories`]: {
        body: {
          courseId: assignment.courseId,
          categories: [homework, { id: nextId(), name: 'Tests', weight: 60 }],
        },
      },
      [`PATCH /api/assignments/${assignment.id}`]: ({ body }) => ({
        body: { ...assignment, ...(body as object) },
      }),
    });
    const category = await within(dialog).findByRole('combobox', { name: 'Grade category' });
    expect(category).toHaveValue('');
    expect(within(dialog).getByText(/does not count in the weighted total/)).toBeInTheDocument();
    await user.selectOptions(category, 'Homework (40%)');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await findToast('Assignment updated')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ categoryId: homework.id });
  });

  it('shows 409 points_below_grade at the Max Points field', async () => {
    const assignment = createAssignment({ title: 'Essay', maxPoints: 20 });
    const { dialog, user } = await openEdit(assignment, {
      [`PATCH /api/assignments/${assignment.id}`]: apiError(
        409,
        'A grade of 18 has already been given: max points cannot go below it.',
        'points_below_grade',
      ),
    });
    const points = within(dialog).getByLabelText('Max Points');
    await user.clear(points);
    await user.type(points, '10');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() =>
      expect(points).toHaveAccessibleDescription(
        expect.stringContaining('A grade of 18 has already been given') as unknown as string,
      ),
    );
    expect(points).toHaveFocus();
    expect(screen.getByRole('dialog', { name: 'Edit Assignment' })).toBeInTheDocument();
  });
});

describe('A student’s open assignment', () => {
  it('says "Due date moved" with the old and new dates when the teacher moves it', async () => {
    const assignment = createAssignment({
      title: 'Essay',
      dueDate: '2026-12-01T09:30:00.000Z',
      status: 'not_submitted',
    });
    const { user, store } = renderAssignments('student', {
      'GET /api/assignments': { body: [assignment] },
    });
    const card = await screen.findByRole('article', { name: 'Essay' });
    await user.click(within(card).getByRole('button', { name: 'Submit' }));
    const dialog = screen.getByRole('dialog', { name: 'Submit Assignment' });
    expect(within(dialog).queryByText('Due date moved')).not.toBeInTheDocument();

    const moved = { ...assignment, dueDate: '2026-12-03T15:00:00.000Z' };
    const event: LiveEvent<'assignment:updated'> = {
      id: 1,
      type: 'assignment:updated',
      at: new Date().toISOString(),
      data: moved,
    };
    act(() => {
      store.dispatch(applyLiveEvent(event));
    });
    const notice = await within(dialog).findByRole('alert');
    expect(notice).toHaveTextContent('Due date moved');
    expect(notice).toHaveTextContent(
      `Was ${formatListDate(assignment.dueDate)}, now ${formatListDate(moved.dueDate)}`,
    );
    // One sentence, one paragraph: the notice's column layout put each fragment on a line of its own.
    expect(within(notice).getByText(/^Was /).tagName).toBe('P');
    expect(within(notice).getByText(/^Was /)).toContainElement(
      within(notice).getByText(formatListDate(moved.dueDate)),
    );
    expect(card).toHaveTextContent(`Due ${formatListDate(moved.dueDate)}`);
  });
});
