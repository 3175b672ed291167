import type { CourseTeachers, LiveEvent } from '@classwave/shared';
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { applyLiveEvent } from '../../realtime/applyLiveEvent';
import { AppRoutes } from '../../test/appRoutes';
import { answerApi, apiError, type Route } from '../../test/api';
import { answerConfirm } from '../../test/confirm';
import { createCourse, signedInAuth } from '../../test/factories';
import { findToast, renderWithProviders } from '../../test/renderWithProviders';

const ownerAuth = signedInAuth({ fullName: 'Rachel Carson', role: 'teacher' });
const coAuth = signedInAuth({ fullName: 'Grace Hopper', role: 'teacher' });
const course = createCourse({
  title: 'Marine Biology',
  joinCode: 'ABCD-EFGH',
  teacher: { id: ownerAuth.profile!.id, fullName: 'Rachel Carson' },
});
const owner = {
  id: ownerAuth.profile!.id,
  fullName: 'Rachel Carson',
  email: 'rachel@school.org',
  role: 'owner' as const,
  since: '2026-01-01T00:00:00.000Z',
};
const grace = {
  id: coAuth.profile!.id,
  fullName: 'Grace Hopper',
  email: 'grace@school.org',
  role: 'co_teacher' as const,
  since: '2026-02-01T00:00:00.000Z',
};
const list = (over: Partial<CourseTeachers> = {}): CourseTeachers => ({
  courseId: course.id,
  teachers: [owner, grace],
  invites: [],
  maxCoTeachers: 20,
  ...over,
});

async function openCourse(auth: typeof ownerAuth, routes: Record<string, Route> = {}) {
  const calls = answerApi({
    [`GET /api/courses/${course.id}`]: { body: { course, assignments: [] } },
    [`GET /api/courses/${course.id}/members`]: { body: [] },
    [`GET /api/courses/${course.id}/teachers`]: { body: list() },
    ...routes,
  });
  const view = renderWithProviders(<AppRoutes />, {
    route: `/courses/${course.id}`,
    preloadedState: { auth },
  });
  await screen.findByRole('heading', { level: 1, name: 'Marine Biology' });
  const region = screen.getByRole('region', { name: 'Teachers' });
  await within(region).findByRole('listitem', { name: 'Grace Hopper' });
  return { ...view, calls, region };
}

describe('the Teachers section', () => {
  it('lets the owner invite by e-mail and shows the invitation waiting', async () => {
    const { user, calls, region } = await openCourse(ownerAuth, {
      [`POST /api/courses/${course.id}/teachers`]: ({ body }) => ({
        status: 201,
        body: list({
          invites: [
            {
              id: 'b0000000-0000-4000-8000-000000000001',
              email: (body as { email: string }).email,
              invitedAt: '2026-03-01T10:00:00.000Z',
              expiresAt: '2099-03-08T10:00:00.000Z',
            },
          ],
        }),
      }),
    });
    expect(within(region).getByRole('listitem', { name: 'Rachel Carson' })).toHaveTextContent('Owner');
    expect(within(region).getByRole('listitem', { name: 'Grace Hopper' })).toHaveTextContent('Co-teacher');

    await user.type(within(region).getByLabelText('Invite a co-teacher'), ' alan@school.org ');
    await user.click(within(region).getByRole('button', { name: 'Send invitation' }));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ email: 'alan@school.org' });
    expect(
      await within(region).findByRole('listitem', { name: 'Invited: alan@school.org' }),
    ).toHaveTextContent('Invited');
    expect(await findToast('Invitation sent to alan@school.org')).toBeInTheDocument();
    expect(within(region).getByLabelText('Invite a co-teacher')).toHaveValue('');
  });

  it("shows the server's reason when an invitation is refused", async () => {
    const { user, region } = await openCourse(ownerAuth, {
      [`POST /api/courses/${course.id}/teachers`]: apiError(
        409,
        'grace@school.org already teaches this course.',
      ),
    });
    await user.type(within(region).getByLabelText('Invite a co-teacher'), 'grace@school.org');
    await user.click(within(region).getByRole('button', { name: 'Send invitation' }));
    expect(
      await within(region).findByText('grace@school.org already teaches this course.'),
    ).toBeInTheDocument();
    expect(within(region).getByLabelText('Invite a co-teacher')).toHaveAttribute('aria-invalid', 'true');
  });

  it('lets the owner remove a co-teacher after confirming, never the owner', async () => {
    const { user, calls, region } = await openCourse(ownerAuth, {
      [`DELETE /api/courses/${course.id}/teachers/${grace.id}`]: { body: list({ teachers: [owner] }) },
    });
    expect(within(region).queryByRole('button', { name: 'Remove Rachel Carson' })).not.toBeInTheDocument();
    await user.click(within(region).getByRole('button', { name: 'Remove Grace Hopper' }));
    await answerConfirm(user, 'Remove co-teacher');
    await waitFor(() =>
      expect(within(region).queryByRole('listitem', { name: 'Grace Hopper' })).not.toBeInTheDocument(),
    );
    expect(calls.some((c) => c.method === 'DELETE')).toBe(true);
  });

  it('shows a co-teacher the list, live, without inviting or removing; the page is theirs to teach', async () => {
    const { store, region } = await openCourse(coAuth);
    expect(within(region).queryByLabelText('Invite a co-teacher')).not.toBeInTheDocument();
    expect(within(region).queryByRole('button', { name: /^Remove/ })).not.toBeInTheDocument();
    // Teaching tools a co-teacher shares with the owner (DESIGN §20).
    expect(screen.getByRole('button', { name: 'Edit course' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Gradebook' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Roster' })).toBeInTheDocument();

    const alan = { ...grace, id: 'c0000000-0000-4000-8000-00000000000a', fullName: 'Alan Turing' };
    const event: LiveEvent<'course:teachers'> = {
      id: 9001,
      type: 'course:teachers',
      at: new Date().toISOString(),
      data: list({ teachers: [owner, grace, alan] }),
    };
    act(() => {
      store.dispatch(applyLiveEvent(event));
    });
    expect(await within(region).findByRole('listitem', { name: 'Alan Turing' })).toBeInTheDocument();
  });
});

describe('cancelling an invitation and leaving', () => {
  const pending = {
    id: 'b0000000-0000-4000-8000-000000000002',
    email: 'ada@school.org',
    invitedAt: '2026-03-01T10:00:00.000Z',
    expiresAt: '2099-03-08T10:00:00.000Z',
  };

  it('lets the owner cancel a pending invitation after confirming', async () => {
    const { user, calls, region } = await openCourse(ownerAuth, {
      [`GET /api/courses/${course.id}/teachers`]: { body: list({ invites: [pending] }) },
      [`DELETE /api/courses/${course.id}/teacher-invites/${pending.id}`]: { body: list() },
    });
    await user.click(
      await within(region).findByRole('button', { name: 'Cancel the invitation to ada@school.org' }),
    );
    await answerConfirm(user, 'Cancel invitation');
    await waitFor(() =>
      expect(
        within(region).queryByRole('listitem', { name: 'Invited: ada@school.org' }),
      ).not.toBeInTheDocument(),
    );
    expect(
      calls.some((c) => c.method === 'DELETE' && c.path.endsWith(`/teacher-invites/${pending.id}`)),
    ).toBe(true);
    expect(await findToast('The invitation to ada@school.org is cancelled')).toBeInTheDocument();
  });

  it('shows a co-teacher the invitations without Cancel, and lets them leave after confirming', async () => {
    const { user, calls, region } = await openCourse(coAuth, {
      [`GET /api/courses/${course.id}/teachers`]: { body: list({ invites: [pending] }) },
      [`DELETE /api/courses/${course.id}/teachers/${grace.id}`]: { status: 204 },
      'GET /api/courses': { body: [] },
    });
    await within(region).findByRole('listitem', { name: 'Invited: ada@school.org' });
    expect(within(region).queryByRole('button', { name: /^Cancel the invitation/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Leave this course' }));
    await answerConfirm(user, 'Leave course');
    expect(await findToast('You no longer teach Marine Biology')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE' && c.path.endsWith(`/teachers/${grace.id}`))).toBe(true);
    expect(await screen.findByRole('heading', { level: 1, name: 'Courses' })).toBeInTheDocument();
  });

  it('offers the owner no Leave (the owner archives or deletes instead)', async () => {
    await openCourse(ownerAuth);
    expect(screen.queryByRole('button', { name: 'Leave this course' })).not.toBeInTheDocument();
  });
});

describe('the course list', () => {
  it('marks a co-taught course, and offers its delete to the owner only', async () => {
    const mine = createCourse({
      title: 'My Own',
      teacher: { id: coAuth.profile!.id, fullName: 'Grace Hopper' },
    });
    answerApi({ 'GET /api/courses': { body: [course, mine] } });
    renderWithProviders(<AppRoutes />, { route: '/courses', preloadedState: { auth: coAuth } });
    const coTaught = (await screen.findByRole('heading', { level: 2, name: 'Marine Biology' })).closest(
      'article',
    )!;
    const own = screen.getByRole('heading', { level: 2, name: 'My Own' }).closest('article')!;
    expect(within(coTaught as HTMLElement).getByText('Co-teaching')).toBeInTheDocument();
    expect(
      within(coTaught as HTMLElement).queryByRole('button', { name: 'Delete course' }),
    ).not.toBeInTheDocument();
    expect(within(coTaught as HTMLElement).getByRole('button', { name: 'Edit course' })).toBeInTheDocument();
    expect(within(own as HTMLElement).queryByText('Co-teaching')).not.toBeInTheDocument();
    expect(within(own as HTMLElement).getByRole('button', { name: 'Delete course' })).toBeInTheDocument();
  });
});
