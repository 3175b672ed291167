import { RETURN_UNDO_SECONDS } from '@classwave/shared';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LiveEvent } from '@classwave/shared';
import { applyLiveEvent } from '../../realtime/applyLiveEvent';
import { apiError, type Route } from '../../test/api';
import { createAssignment, createSubmission, nextId } from '../../test/factories';
import { renderAssignments } from '../../test/renderRoute';
import { findToast } from '../../test/renderWithProviders';

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

async function openManual(undo: Route = { status: 204 }) {
  const assignment = createAssignment({
    title: 'Essay',
    maxPoints: 20,
    gradeRelease: 'manual',
    submissionCount: 3,
  });
  const graded = createSubmission({
    assignmentId: assignment.id,
    grade: 15,
    version: 1,
    student: { id: '50000000-0000-4000-8000-000000000001', fullName: 'Ada Lovelace' },
  });
  const other = createSubmission({
    assignmentId: assignment.id,
    grade: 12,
    version: 1,
    student: { id: '50000000-0000-4000-8000-000000000002', fullName: 'Alan Turing' },
  });
  const returned = createSubmission({
    assignmentId: assignment.id,
    grade: 18,
    version: 2,
    returnedAt: new Date().toISOString(),
    student: { id: '50000000-0000-4000-8000-000000000003', fullName: 'Grace Hopper' },
  });
  const returnId = nextId();
  const view = renderAssignments('teacher', {
    'GET /api/assignments': { body: [assignment] },
    [`GET /api/assignments/${assignment.id}/submissions`]: { body: [graded, other, returned] },
    // The server holds exactly the ids it was sent that are still held, for the undo window.
    [`POST /api/assignments/${assignment.id}/return`]: ({ body }) => ({
      status: 202,
      body: {
        id: returnId,
        assignmentId: assignment.id,
        submissionIds: (body as { submissionIds: string[] }).submissionIds,
        runAt: new Date(Date.now() + RETURN_UNDO_SECONDS * 1000).toISOString(),
      },
    }),
    [`DELETE /api/returns/${returnId}`]: undo,
  });
  const card = await screen.findByRole('article', { name: 'Essay' });
  await view.user.click(within(card).getByRole('button', { name: /View Submissions/ }));
  const dialog = screen.getByRole('dialog', { name: 'Submissions for Essay' });
  await within(dialog).findAllByRole('listitem');
  return { ...view, dialog, assignment, graded, other, returnId };
}

const sent = (calls: { method: string; path: string; body: unknown }[]) =>
  calls.filter(
    (c) => (c.method === 'POST' && c.path.endsWith('/return')) || c.path.startsWith('/api/returns/'),
  );

describe('Return grades', () => {
  it('shows held and returned per submission', async () => {
    const { dialog } = await openManual();
    const items = within(dialog).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('Held');
    expect(items[2]).toHaveTextContent('Returned');
    expect(within(dialog).getByText('2 held: students see them only once returned.')).toBeInTheDocument();
  });

  it('asks the server to hold exactly the grades held now, and Undo cancels it there', async () => {
    const { dialog, user, calls, graded, other, returnId } = await openManual();
    await user.click(within(dialog).getByRole('button', { name: 'Return all graded (2)' }));
    expect(await findToast(`Returning 2 grades in ${RETURN_UNDO_SECONDS} s`)).toBeInTheDocument();
    expect(sent(calls).map((c) => c.body)).toEqual([
      { submissionIds: [graded.id, other.id], undoable: true },
    ]);
    act(() => {
      vi.advanceTimersByTime(3000);
    });
    expect(await findToast(`Returning 2 grades in ${RETURN_UNDO_SECONDS - 3} s`)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(await findToast('Return undone: nothing was sent')).toBeInTheDocument();
    expect(sent(calls).map((c) => `${c.method} ${c.path}`)).toEqual([
      expect.stringMatching(/^POST /),
      `DELETE /api/returns/${returnId}`,
    ]);
  });

  it('says so when Undo comes too late', async () => {
    const { dialog, user } = await openManual(
      apiError(409, 'Too late to undo: these grades have already been returned.', 'return_already_sent'),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Return all graded (2)' }));
    await user.click(await screen.findByRole('button', { name: 'Undo' }));
    expect(await findToast('Too late to undo: these grades have already been returned.')).toBeInTheDocument();
  });

  it('sends nothing more from the tab at the end of the window, and confirms once the grades come back returned', async () => {
    const { dialog, user, calls, graded, store } = await openManual();
    const first = within(dialog).getAllByRole('listitem')[0]!;
    await user.click(within(first).getByRole('checkbox', { name: 'Select to return' }));
    await user.click(within(dialog).getByRole('button', { name: 'Return 1 selected' }));
    await findToast(`Returning 1 grade in ${RETURN_UNDO_SECONDS} s`);
    act(() => {
      vi.advanceTimersByTime(RETURN_UNDO_SECONDS * 1000);
    });
    expect(await findToast('Sending 1 grade to students…')).toBeInTheDocument();
    expect(sent(calls)).toHaveLength(1);
    // The server's Return reaches the teacher's tabs as a live event.
    const event: LiveEvent<'submission:graded'> = {
      id: 7,
      type: 'submission:graded',
      at: new Date().toISOString(),
      data: { ...graded, returnedAt: new Date().toISOString(), held: false },
    };
    act(() => {
      store.dispatch(applyLiveEvent(event));
    });
    expect(await findToast('1 grade returned to students')).toBeInTheDocument();
    await waitFor(() => expect(within(dialog).getAllByRole('listitem')[0]).toHaveTextContent('Returned'));
  });
});
