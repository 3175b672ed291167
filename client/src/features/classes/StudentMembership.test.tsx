import type { LiveEvent } from '@classwave/shared';
import { act, screen, waitFor } from '@testing-library/react';
import { useLocation } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '../../test/appRoutes';
import { applyLiveEvent } from '../../realtime/applyLiveEvent';
import { answerConfirm } from '../../test/confirm';
import { answerApi, apiError, type Route } from '../../test/api';
import { createCourse, createMember, signedInAuth } from '../../test/factories';
import { findToast, renderWithProviders } from '../../test/renderWithProviders';
import { LEAVE_CONFIRMATION } from './LeaveClassButton';

const auth = signedInAuth({ fullName: 'Ada Lovelace', role: 'student' });
const course = createCourse({ title: 'Marine Biology' });
const me = { id: auth.profile!.id, fullName: 'Ada Lovelace', email: 'ada@example.org' };

function LocationProbe() {
  return <output data-testid="location">{useLocation().pathname}</output>;
}

/** The student's open course page; the course answers 404 once `gone()` says so. */
async function openCourse(routes: Record<string, Route> = {}) {
  let gone = false;
  const calls = answerApi({
    [`GET /api/courses/${course.id}`]: () =>
      gone ? apiError(404, 'Course not found', 'not_found') : { body: { course, assignments: [] } },
    'GET /api/courses': { body: [] },
    ...routes,
  });
  const view = renderWithProviders(
    <>
      <AppRoutes />
      <LocationProbe />
    </>,
    { route: `/courses/${course.id}`, preloadedState: { auth } },
  );
  await screen.findByRole('heading', { level: 1, name: 'Marine Biology' });
  return { ...view, calls, setGone: () => (gone = true) };
}

describe('a student removed from a class', () => {
  it('is told so, and the open course page shows that the course is gone', async () => {
    const { store, setGone } = await openCourse();
    setGone();
    const removed: LiveEvent<'member:removed'> = {
      id: 9001,
      type: 'member:removed',
      at: new Date().toISOString(),
      data: { course, member: createMember({ courseId: course.id, student: me, status: 'removed' }) },
    };
    act(() => {
      store.dispatch(applyLiveEvent(removed));
    });
    expect(await findToast('You were removed from Marine Biology')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Course not found' })).toBeInTheDocument();
  });
});

describe('leaving a class', () => {
  it('asks first, then leaves and goes back to the courses', async () => {
    const { user, calls } = await openCourse({
      [`POST /api/courses/${course.id}/leave`]: { status: 204 },
    });
    await user.click(screen.getByRole('button', { name: 'Leave class' }));
    expect(screen.getByRole('alertdialog', { name: 'Leave Marine Biology?' })).toBeInTheDocument();
    await answerConfirm(user, 'Leave class', LEAVE_CONFIRMATION);
    expect(await findToast('You left Marine Biology')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/courses'));
    expect(calls.some((c) => c.path === `/api/courses/${course.id}/leave`)).toBe(true);
  });

  it('stays when not confirmed', async () => {
    const { user, calls } = await openCourse();
    await user.click(screen.getByRole('button', { name: 'Leave class' }));
    await answerConfirm(user, 'Cancel');
    expect(calls.some((c) => c.path.endsWith('/leave'))).toBe(false);
  });
});
