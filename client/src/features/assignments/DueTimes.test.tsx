import type { Assignment, LiveEvent } from '@classwave/shared';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { formatListDate } from '../../components/dates';
import { applyLiveEvent } from '../../realtime/applyLiveEvent';
import { createAssignment, createSubmission } from '../../test/factories';
import { renderAssignments } from '../../test/renderRoute';
import { findToast } from '../../test/renderWithProviders';

/**
 * Due times typed and read in the viewer's own zone (DESIGN §13), here New York's, where the clocks
 * go forward on 14 March 2027 at 02:00 and back on 7 November 2027 at 02:00.
 */
const zoneBefore = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'America/New_York';
});
afterAll(() => {
  // Assigning undefined would set the text "undefined", a zone that does not exist, for the next file.
  if (zoneBefore === undefined) delete process.env.TZ;
  else process.env.TZ = zoneBefore;
});
afterEach(() => {
  vi.unstubAllGlobals();
});

async function openEdit(assignment: Assignment, extra: Parameters<typeof renderAssignments>[1] = {}) {
  const view = renderAssignments('teacher', {
    'GET /api/assignments': { body: [assignment] },
    [`PATCH /api/assignments/${assignment.id}`]: ({ body }) => ({
      body: { ...assignment, ...(body as object) },
    }),
    ...(extra as object),
  });
  const card = await screen.findByRole('article', { name: assignment.title });
  await view.user.click(within(card).getByRole('button', { name: 'Edit assignment' }));
  return { ...view, dialog: screen.getByRole('dialog', { name: 'Edit Assignment' }) };
}

describe('a due time the clocks skip or repeat', () => {
  it.each([
    {
      typed: '2027-03-14T02:30',
      says: "This time doesn't exist on that day (clocks change in America/New_York): it will be saved as 3:30 AM EDT.",
      saved: '2027-03-14T07:30:00.000Z',
    },
    {
      typed: '2027-11-07T01:30',
      says: 'This time happens twice on that day (clocks change in America/New_York): it will be saved as the first, 1:30 AM EDT, not 1:30 AM EST.',
      saved: '2027-11-07T05:30:00.000Z',
    },
  ])('says so for $typed, and saves the time it names', async ({ typed, says, saved }) => {
    const assignment = createAssignment({ title: 'Essay', dueDate: '2027-02-01T17:00:00.000Z' });
    const { dialog, user, calls } = await openEdit(assignment);
    const due = within(dialog).getByLabelText('Due Date');
    fireEvent.change(due, { target: { value: typed } });
    expect(due).toHaveAccessibleDescription(expect.stringContaining(says) as unknown as string);
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await findToast('Assignment updated')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ dueDate: saved });
  });

  it('names the zone, and summer or winter time, when a due date moves across a clock change', async () => {
    const assignment = createAssignment({
      title: 'Essay',
      dueDate: '2027-03-01T04:59:00.000Z',
      status: 'not_submitted',
    });
    const { user, store } = renderAssignments('student', { 'GET /api/assignments': { body: [assignment] } });
    const card = await screen.findByRole('article', { name: 'Essay' });
    await user.click(within(card).getByRole('button', { name: 'Submit' }));
    const dialog = screen.getByRole('dialog', { name: 'Submit Assignment' });
    // 11:59 PM on each side of the change: Feb 28 in winter time, Mar 15 in summer time.
    const moved = '2027-03-16T03:59:00.000Z';
    expect(formatListDate(assignment.dueDate)).toMatch(/^Feb 28, (2027, )?11:59 PM$/);
    const event: LiveEvent<'assignment:updated'> = {
      id: 1,
      type: 'assignment:updated',
      at: new Date().toISOString(),
      data: { ...assignment, dueDate: moved, status: null },
    };
    act(() => {
      store.dispatch(applyLiveEvent(event));
    });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      `Was ${formatListDate(assignment.dueDate)} EST, now ${formatListDate(moved)} EDT (America/New_York).`,
    );
  });
});

describe('switching to automatic release', () => {
  it('says how many held grades will be returned when the edit is saved', async () => {
    const assignment = createAssignment({ title: 'Essay', gradeRelease: 'manual' });
    const held = [1, 2].map(() =>
      createSubmission({ assignmentId: assignment.id, grade: 7, version: 1, returnedAt: null }),
    );
    const returned = createSubmission({
      assignmentId: assignment.id,
      grade: 9,
      returnedAt: '2027-01-01T00:00:00Z',
    });
    const { dialog, user } = await openEdit(assignment, {
      [`GET /api/assignments/${assignment.id}/submissions`]: { body: [...held, returned] },
    });
    expect(within(dialog).queryByText(/will be returned now/)).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('radio', { name: 'Automatically, when I grade' }));
    await waitFor(() =>
      expect(within(dialog).getByRole('alert')).toHaveTextContent('2 held grades will be returned now'),
    );
    // Back to "when I return them": nothing would be returned.
    await user.click(within(dialog).getByRole('radio', { name: 'When I return them' }));
    expect(within(dialog).queryByText(/will be returned now/)).not.toBeInTheDocument();
  });
});
