import type { LiveEvent, LiveEventData, LiveEventType, NotificationPage } from '@classwave/shared';
import { act, screen, waitFor, within } from '@testing-library/react';
import { useLocation } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '../../test/appRoutes';
import { applyLiveEvent } from '../../realtime/applyLiveEvent';
import { ASSIGNMENT_ENTRY_WAIT } from './notificationsApi';
import { answerApi, type Route } from '../../test/api';
import { createAssignment, createNotification, signedInAuth } from '../../test/factories';
import { findToast, renderWithProviders } from '../../test/renderWithProviders';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

let nextEventId = 0;
const event = <T extends LiveEventType>(type: T, data: LiveEventData[T]): LiveEvent<T> => ({
  id: ++nextEventId,
  type,
  at: new Date().toISOString(),
  data,
});

function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.pathname + location.search}</output>;
}

function renderCourses(page: NotificationPage, routes: Record<string, Route> = {}) {
  const calls = answerApi({
    'GET /api/courses': { body: [] },
    'GET /api/notifications': ({ url }) =>
      url.searchParams.has('before') ? (routes['GET older'] as never) : { body: page },
    ...routes,
  });
  const view = renderWithProviders(
    <>
      <AppRoutes />
      <Where />
    </>,
    { route: '/courses', preloadedState: { auth: signedInAuth({ role: 'student' }) } },
  );
  return { ...view, calls };
}

const page = (items: NotificationPage['items'], nextBefore: string | null = null): NotificationPage => ({
  items,
  unreadCount: items.filter((n) => n.readAt === null).length,
  nextBefore,
});

describe('NotificationBell', () => {
  it('names the unread count on a page other than the dashboard', async () => {
    renderCourses(page([createNotification(), createNotification(), createNotification()]));
    expect(await screen.findByRole('button', { name: 'Notifications, 3 unread' })).toBeInTheDocument();
    expect(screen.getByTestId('bell-count')).toHaveTextContent('3');
  });

  it('opens the inbox, marks an item read on click and goes to its link', async () => {
    const graded = createNotification({ title: 'Graded: Lab report', link: '/assignments?open=abc' });
    const old = createNotification({ title: 'New assignment: Essay', readAt: new Date().toISOString() });
    const { user, calls } = renderCourses(page([graded, old]), {
      'POST /api/notifications/read': { body: { unreadCount: 0 } },
    });
    const bell = await screen.findByRole('button', { name: 'Notifications, 1 unread' });
    await user.click(bell);
    const panel = screen.getByRole('dialog', { name: 'Notifications' });
    expect(bell).toHaveAttribute('aria-expanded', 'true');
    const unreadLink = within(panel).getByRole('link', { name: /Unread:\s*Graded: Lab report/ });
    expect(within(panel).getByRole('link', { name: /New assignment: Essay/ })).not.toHaveAccessibleName(
      /Unread/,
    );
    await user.click(unreadLink);
    expect(screen.getByTestId('where')).toHaveTextContent('/assignments?open=abc');
    expect(calls.find((c) => c.path === '/api/notifications/read')?.body).toEqual({ ids: [graded.id] });
    expect(await screen.findByRole('button', { name: 'Notifications' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('closes on Escape and gives focus back to the bell', async () => {
    const { user } = renderCourses(page([createNotification()]));
    const bell = await screen.findByRole('button', { name: 'Notifications, 1 unread' });
    await user.click(bell);
    expect(screen.getByRole('dialog', { name: 'Notifications' })).toContainElement(
      document.activeElement as HTMLElement,
    );
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(bell).toHaveFocus();
  });

  it('marks everything read', async () => {
    const { user, calls } = renderCourses(page([createNotification(), createNotification()]), {
      'POST /api/notifications/read': { body: { unreadCount: 0 } },
    });
    await user.click(await screen.findByRole('button', { name: 'Notifications, 2 unread' }));
    await user.click(screen.getByRole('button', { name: 'Mark all read' }));
    expect(await screen.findByRole('button', { name: 'Notifications' })).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/api/notifications/read')?.body).toEqual({ all: true });
    expect(screen.queryByRole('link', { name: /Unread:/ })).not.toBeInTheDocument();
  });

  it('loads older notifications with the page cursor', async () => {
    const cursor = '2026-11-01T10:00:00.000Z';
    const { user, calls } = renderCourses(page([createNotification({ title: 'Newest' })], cursor), {
      'GET older': { body: page([createNotification({ title: 'Oldest', updatedAt: cursor })]) },
    });
    await user.click(await screen.findByRole('button', { name: /^Notifications/ }));
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByRole('link', { name: /Oldest/ })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('link', { name: /Oldest/ })).toHaveFocus());
    expect(screen.getByRole('link', { name: /Newest/ })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(calls.some((c) => c.path === '/api/notifications')).toBe(true);
  });

  it('counts a live notification, replaces a grown batch, and toasts only when alert is true', async () => {
    const { store } = renderCourses(page([]));
    await screen.findByRole('button', { name: 'Notifications' });
    const batch = createNotification({ kind: 'submissions', title: '2 new submissions: Essay' });
    act(() => void store.dispatch(applyLiveEvent(event('notification:created', batch))));
    expect(await screen.findByRole('button', { name: 'Notifications, 1 unread' })).toBeInTheDocument();
    expect(await findToast('2 new submissions: Essay')).toBeInTheDocument();

    const grown = { ...batch, title: '3 new submissions: Essay', updatedAt: new Date().toISOString() };
    act(() => void store.dispatch(applyLiveEvent(event('notification:created', grown))));
    expect(screen.getByRole('button', { name: 'Notifications, 1 unread' })).toBeInTheDocument();

    const quiet = createNotification({ title: 'Due tomorrow: Essay', alert: false });
    act(() => void store.dispatch(applyLiveEvent(event('notification:created', quiet))));
    expect(await screen.findByRole('button', { name: 'Notifications, 2 unread' })).toBeInTheDocument();
    expect(screen.queryByText('Due tomorrow: Essay', { selector: '[data-sonner-toast] *' })).toBeNull();
  });

  it('clears the toasts when the inbox opens, and toasts nothing over it while it is open', async () => {
    const { store, user } = renderCourses(page([]));
    await screen.findByRole('button', { name: 'Notifications' });
    const first = createNotification({ title: 'Grade returned: Quiz' });
    act(() => void store.dispatch(applyLiveEvent(event('notification:created', first))));
    expect(await findToast('Grade returned: Quiz')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Notifications, 1 unread' }));
    const inbox = await screen.findByRole('dialog', { name: 'Notifications' });
    await waitFor(() =>
      expect(screen.queryByText('Grade returned: Quiz', { selector: '[data-sonner-toast] *' })).toBeNull(),
    );
    const second = createNotification({ title: 'Due soon: Essay' });
    act(() => void store.dispatch(applyLiveEvent(event('notification:created', second))));
    expect(await within(inbox).findByText('Due soon: Essay')).toBeInTheDocument();
    expect(screen.queryByText('Due soon: Essay', { selector: '[data-sonner-toast] *' })).toBeNull();
  });

  it('does not toast a batch re-sent without moving (recounted after a take-back); toasts it when it grows', async () => {
    const batch = createNotification({ kind: 'submissions', count: 2, title: '2 new submissions: Essay' });
    const { store } = renderCourses(page([batch]));
    await screen.findByRole('button', { name: 'Notifications, 1 unread' });
    const shrunk = { ...batch, count: 1, title: 'New submission: Essay' };
    act(() => void store.dispatch(applyLiveEvent(event('notification:created', shrunk))));
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(screen.queryByText('New submission: Essay', { selector: '[data-sonner-toast] *' })).toBeNull();
    const grown = { ...batch, count: 2, updatedAt: new Date(Date.now() + 1000).toISOString() };
    act(() => void store.dispatch(applyLiveEvent(event('notification:created', grown))));
    expect(await findToast('2 new submissions: Essay')).toBeInTheDocument();
  });

  it('a new assignment in a class loads the inbox again and toasts its entry (the server sends no event per member)', async () => {
    let current = page([]);
    const { store } = renderCourses(page([]), {
      'GET /api/notifications': () => ({ body: current }),
    });
    await screen.findByRole('button', { name: 'Notifications' });
    // As the class's view is sent: a new assignment, nothing submitted (a restored one has no status).
    const assignment = createAssignment({ title: 'Essay', status: 'not_submitted' });
    const entry = createNotification({
      kind: 'assignment_created',
      title: 'New assignment in Biology: Essay',
      body: 'Due Jan 15, 2:30 PM',
      assignmentId: assignment.id,
    });
    current = page([entry]);
    act(() => void store.dispatch(applyLiveEvent(event('assignment:created', assignment))));
    // A moment later (each tab its own), as the server writes the class's entries after the event.
    const later = { timeout: ASSIGNMENT_ENTRY_WAIT.firstMs + ASSIGNMENT_ENTRY_WAIT.spreadMs + 1000 };
    expect(await screen.findByRole('button', { name: 'Notifications, 1 unread' }, later)).toBeInTheDocument();
    expect(await findToast('New assignment in Biology: Essay')).toBeInTheDocument();
  });

  it("clears what another tab read (notifications:read) and takes the server's count", async () => {
    const first = createNotification();
    const second = createNotification();
    const { store, user } = renderCourses(page([first, second]));
    await user.click(await screen.findByRole('button', { name: 'Notifications, 2 unread' }));
    const readAt = new Date().toISOString();
    act(
      () =>
        void store.dispatch(
          applyLiveEvent(event('notifications:read', { ids: [first.id], readAt, unreadCount: 1 })),
        ),
    );
    expect(await screen.findByRole('button', { name: 'Notifications, 1 unread' })).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: /Unread:/ })).toHaveLength(1);
    act(
      () =>
        void store.dispatch(
          applyLiveEvent(event('notifications:read', { ids: 'all', readAt, unreadCount: 0 })),
        ),
    );
    expect(await screen.findByRole('button', { name: 'Notifications' })).toBeInTheDocument();
    expect(screen.queryAllByRole('link', { name: /Unread:/ })).toHaveLength(0);
  });
});
