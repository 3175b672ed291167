import type { LiveEvent, LiveEventData, LiveEventType } from '@classwave/shared';
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '../../test/appRoutes';
import { applyLiveEvent } from '../../realtime/applyLiveEvent';
import { answerConfirm } from '../../test/confirm';
import { answerApi, type Route } from '../../test/api';
import { createCourse, createMember, signedInAuth } from '../../test/factories';
import { findToast, renderWithProviders } from '../../test/renderWithProviders';
import { RESET_CODE_CONFIRMATION } from './JoinCodePanel';
import type { RosterMember } from './rosterCache';
import { REMOVE_CONFIRMATION } from './RosterSection';

let nextEventId = 5000;
const event = <T extends LiveEventType>(type: T, data: LiveEventData[T]): LiveEvent<T> => ({
  id: ++nextEventId,
  type,
  at: new Date().toISOString(),
  data,
});

const auth = signedInAuth({ fullName: 'Rachel Carson', role: 'teacher' });
const course = createCourse({
  title: 'Marine Biology',
  joinCode: 'ABCD-EFGH',
  teacher: { id: auth.profile!.id, fullName: 'Rachel Carson' },
});
const ada = createMember({
  courseId: course.id,
  student: { id: 'a0000000-0000-4000-8000-00000000000a', fullName: 'Ada Lovelace', email: 'ada@example.org' },
  joinedAt: '2026-03-02T09:00:00.000Z',
  submissionCount: 3,
});

/** The owner's course page, with the roster and any other answers given. */
let roster: RosterMember[] = [];
async function openOwnCourse(members: RosterMember[], routes: Record<string, Route> = {}) {
  // What the server's roster holds; a test changes it as the server's would change.
  roster = [...members];
  const calls = answerApi({
    [`GET /api/courses/${course.id}`]: { body: { course, assignments: [] } },
    [`GET /api/courses/${course.id}/members`]: () => ({ body: roster }),
    ...routes,
  });
  const view = renderWithProviders(<AppRoutes />, {
    route: `/courses/${course.id}`,
    preloadedState: { auth },
  });
  await screen.findByRole('heading', { level: 1, name: 'Marine Biology' });
  const rosterRegion = screen.getByRole('region', { name: 'Roster' });
  return { ...view, calls, rosterRegion };
}

const rowOf = (name: string) => screen.getByRole('listitem', { name });

describe('the roster', () => {
  it('lists members with status, joined date and submissions, and adds a student who joins, live', async () => {
    const { store, rosterRegion } = await openOwnCourse([ada]);
    const row = await within(rosterRegion).findByRole('listitem', { name: 'Ada Lovelace' });
    expect(row).toHaveTextContent('ada@example.org');
    expect(row).toHaveTextContent('Active');
    expect(row).toHaveTextContent('Joined Mar 2, 2026');
    expect(row).toHaveTextContent('3 submissions');

    const grace = createMember({
      courseId: course.id,
      student: {
        id: 'a0000000-0000-4000-8000-00000000000b',
        fullName: 'Grace Hopper',
        email: 'grace@example.org',
      },
    });
    act(() => {
      store.dispatch(applyLiveEvent(event('member:joined', { course, member: grace })));
    });
    await waitFor(() =>
      expect(
        within(rosterRegion)
          .getAllByRole('listitem')
          .map((li) => li.getAttribute('aria-label')),
      ).toEqual(['Ada Lovelace', 'Grace Hopper']),
    );

    const graceLeft: RosterMember = { ...grace, status: 'left', endedAt: new Date().toISOString() };
    roster.push(graceLeft);
    act(() => {
      store.dispatch(applyLiveEvent(event('member:left', { course, member: graceLeft })));
    });
    await waitFor(() => expect(rowOf('Grace Hopper')).toHaveTextContent('Left'));
  });

  // Issue 25: a student who deleted their account stayed on the open roster until a reload.
  it('takes off a student whose account was deleted (they left, and the roster no longer has them)', async () => {
    const { store, rosterRegion, calls } = await openOwnCourse([ada]);
    await within(rosterRegion).findByRole('listitem', { name: 'Ada Lovelace' });
    const rosterLoads = () => calls.filter((c) => c.path === `/api/courses/${course.id}/members`).length;
    const before = rosterLoads();
    roster.length = 0;
    act(() => {
      store.dispatch(
        applyLiveEvent(
          event('member:left', {
            course,
            member: { ...ada, status: 'left', endedAt: new Date().toISOString(), submissionCount: 0 },
          }),
        ),
      );
    });
    await waitFor(() =>
      expect(within(rosterRegion).queryByRole('listitem', { name: 'Ada Lovelace' })).toBeNull(),
    );
    expect(rosterLoads()).toBe(before + 1);
  });

  it('removes a student after confirming, then offers to restore them', async () => {
    const { user, calls } = await openOwnCourse([ada], {
      [`DELETE /api/courses/${course.id}/members/${ada.student.id}`]: {
        body: { ...ada, status: 'removed', endedAt: new Date().toISOString() },
      },
      [`POST /api/courses/${course.id}/members/${ada.student.id}/restore`]: { body: ada },
    });
    await user.click(await screen.findByRole('button', { name: 'Remove Ada Lovelace' }));
    expect(
      screen.getByRole('alertdialog', { name: 'Remove Ada Lovelace from this class?' }),
    ).toBeInTheDocument();
    await answerConfirm(user, 'Remove student', REMOVE_CONFIRMATION);
    expect(await findToast('Ada Lovelace was removed')).toBeInTheDocument();
    // The toast can come a render before the list shows the change.
    await waitFor(() => expect(rowOf('Ada Lovelace')).toHaveTextContent('Removed'));

    await user.click(screen.getByRole('button', { name: 'Restore Ada Lovelace' }));
    expect(await findToast('Ada Lovelace is back in the class')).toBeInTheDocument();
    await waitFor(() => expect(rowOf('Ada Lovelace')).toHaveTextContent('Active'));
    expect(calls.map((c) => c.method)).toContain('DELETE');
  });

  it('does nothing when the removal is not confirmed', async () => {
    const { user, calls } = await openOwnCourse([ada]);
    await user.click(await screen.findByRole('button', { name: 'Remove Ada Lovelace' }));
    await answerConfirm(user, 'Cancel');
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    expect(rowOf('Ada Lovelace')).toHaveTextContent('Active');
  });
});

describe('the class code panel', () => {
  it('copies the code to the clipboard with a toast', async () => {
    const { user } = await openOwnCourse([]);
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(await findToast('Class code ABCD-EFGH copied')).toBeInTheDocument();
    await expect(navigator.clipboard.readText()).resolves.toBe('ABCD-EFGH');
  });

  it('presents the code, the join link and its QR code full screen; Escape closes it', async () => {
    const { user } = await openOwnCourse([]);
    await user.click(screen.getByRole('button', { name: 'Present' }));
    const present = screen.getByRole('dialog', { name: 'Marine Biology' });
    expect(within(present).getByTestId('present-code')).toHaveTextContent('ABCD-EFGH');
    const link = `${window.location.origin}/join/ABCD-EFGH`;
    expect(within(present).getByTestId('present-link')).toHaveTextContent(link);
    expect(within(present).getByTitle(`QR code of ${link}`)).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('resets the code after confirming and shows the new one', async () => {
    const { user, calls } = await openOwnCourse([], {
      [`POST /api/courses/${course.id}/join-code`]: { body: { joinCode: 'WXYZ-2345', joinEnabled: true } },
    });
    await user.click(screen.getByRole('button', { name: 'Reset' }));
    expect(screen.getByRole('alertdialog', { name: 'Reset the class code?' })).toBeInTheDocument();
    await answerConfirm(user, 'Reset code', RESET_CODE_CONFIRMATION);
    expect(await findToast('New class code: WXYZ-2345')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('join-code')).toHaveTextContent('WXYZ-2345'));
    expect(calls.find((c) => c.path.endsWith('/join-code'))?.body).toEqual({ action: 'reset' });
  });

  it('turns joining off with the switch', async () => {
    const { user, calls } = await openOwnCourse([], {
      [`POST /api/courses/${course.id}/join-code`]: { body: { joinCode: 'ABCD-EFGH', joinEnabled: false } },
    });
    const toggle = screen.getByRole('switch', { name: 'Students can join' });
    expect(toggle).toBeChecked();
    await user.click(toggle);
    expect(await findToast('Joining is turned off')).toBeInTheDocument();
    await waitFor(() => expect(toggle).not.toBeChecked());
    expect(calls.find((c) => c.path.endsWith('/join-code'))?.body).toEqual({ action: 'disable' });
  });

  it('follows a reset made in another tab (course:updated)', async () => {
    const { store } = await openOwnCourse([]);
    act(() => {
      store.dispatch(applyLiveEvent(event('course:updated', { ...course, joinCode: 'MNPQ-RSTU' })));
    });
    await waitFor(() => expect(screen.getByTestId('join-code')).toHaveTextContent('MNPQ-RSTU'));
  });

  // Issue 25: a student's new name reached only their own tabs; the roster kept the old one.
  it("shows a student's new name on the roster when they rename themselves, live", async () => {
    let renamed = false;
    const { store, rosterRegion } = await openOwnCourse([], {
      [`GET /api/courses/${course.id}/members`]: () => ({
        body: [renamed ? { ...ada, student: { ...ada.student, fullName: 'Ada King' } } : ada],
      }),
    });
    expect(await within(rosterRegion).findByText('Ada Lovelace')).toBeInTheDocument();
    renamed = true;
    act(() => {
      store.dispatch(
        applyLiveEvent(
          event('profile:updated', { id: ada.student.id, fullName: 'Ada King', role: 'student' }),
        ),
      );
    });
    expect(await within(rosterRegion).findByText('Ada King')).toBeInTheDocument();
    expect(within(rosterRegion).queryByText('Ada Lovelace')).not.toBeInTheDocument();
  });
});
