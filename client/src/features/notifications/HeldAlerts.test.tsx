import type { LiveEvent, NotificationPage, NotificationSettings } from '@classwave/shared';
import { act, cleanup, screen } from '@testing-library/react';
import { toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '../../test/appRoutes';
import { applyLiveEvent } from '../../realtime/applyLiveEvent';
import { answerApi } from '../../test/api';
import { createNotification, signedInAuth } from '../../test/factories';
import { findToast, renderWithProviders } from '../../test/renderWithProviders';

const HOUR = 3_600_000;
const quiet: NotificationSettings = {
  quietHours: { enabled: true, start: '21:00', end: '07:00', timeZone: 'UTC' },
  email: false,
};
const at = (iso: string) => new Date(iso).toISOString();
const summary = (text: string) => screen.queryByText(text, { selector: '[data-sonner-toast] *' });

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  localStorage.clear();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

// One user for the whole file: what was summarized is remembered per user.
const auth = signedInAuth({ role: 'student' });

function renderApp(page: NotificationPage) {
  answerApi({
    'GET /api/courses': { body: [] },
    'GET /api/notifications': { body: page },
    'GET /api/me/notification-settings': { body: quiet },
  });
  return renderWithProviders(<AppRoutes />, { route: '/courses', preloadedState: { auth } });
}

describe('HeldAlerts', () => {
  it('holds what arrives in quiet hours, then shows one summary toast when they end in an open tab', async () => {
    vi.setSystemTime(new Date('2026-11-23T23:00:00Z'));
    // Newest first, as GET /api/notifications answers.
    const held = [
      createNotification({
        title: 'Grade returned: Quiz',
        alert: false,
        updatedAt: at('2026-11-23T22:20:00Z'),
      }),
      createNotification({ title: 'Due soon: Essay', alert: false, updatedAt: at('2026-11-23T22:10:00Z') }),
    ];
    // Read in the night already, or alerted before quiet hours: neither is news in the morning.
    const read = createNotification({
      alert: false,
      readAt: at('2026-11-23T22:40:00Z'),
      updatedAt: at('2026-11-23T22:30:00Z'),
    });
    const alerted = createNotification({ updatedAt: at('2026-11-23T20:00:00Z') });
    const { store } = renderApp({ items: [...held, read, alerted], unreadCount: 3, nextBefore: null });
    await screen.findByRole('button', { name: 'Notifications, 3 unread' });

    // One more arrives live in the night: into the inbox at once, no toast.
    const live = createNotification({ title: 'New submission: Poem', alert: false });
    const event: LiveEvent<'notification:created'> = {
      id: 1,
      type: 'notification:created',
      at: new Date().toISOString(),
      data: live,
    };
    act(() => void store.dispatch(applyLiveEvent(event)));
    await screen.findByRole('button', { name: 'Notifications, 4 unread' });
    expect(summary('New submission: Poem')).toBeNull();

    await act(async () => void vi.advanceTimersByTime(8 * HOUR - 60_000));
    expect(summary('While quiet hours were on: 3 notifications')).toBeNull();

    await act(async () => void vi.advanceTimersByTime(60_000));
    expect(await findToast('While quiet hours were on: 3 notifications')).toBeInTheDocument();
    // Newest first, as the inbox lists them.
    expect(await findToast('New submission: Poem · Grade returned: Quiz and 1 more')).toBeInTheDocument();
  });

  it('shows the summary on the first load after quiet hours ended, and never twice', async () => {
    vi.setSystemTime(new Date('2026-11-24T08:00:00Z'));
    const page: NotificationPage = {
      items: [
        createNotification({ title: 'Due soon: Lab', alert: false, updatedAt: at('2026-11-24T02:00:00Z') }),
      ],
      unreadCount: 1,
      nextBefore: null,
    };
    renderApp(page);
    expect(await findToast('While quiet hours were on: 1 notification')).toBeInTheDocument();

    // A reload: the old page's toasts are gone (sonner would replay active ones to a new toaster).
    cleanup();
    toast.dismiss();
    renderApp(page);
    await screen.findByRole('button', { name: 'Notifications, 1 unread' });
    await act(async () => void vi.advanceTimersByTime(1000));
    expect(summary('While quiet hours were on: 1 notification')).toBeNull();
  });

  it('says "or more" when the whole first page of the inbox was held and older pages exist', async () => {
    vi.setSystemTime(new Date('2026-11-26T08:00:00Z'));
    const items = Array.from({ length: 20 }, (_, i) =>
      createNotification({
        title: `Due soon: Task ${20 - i}`,
        alert: false,
        updatedAt: new Date(Date.parse('2026-11-26T06:00:00Z') - i * 60_000).toISOString(),
      }),
    );
    renderApp({ items, unreadCount: 31, nextBefore: items[19]!.updatedAt });
    expect(await findToast('While quiet hours were on: 20 or more notifications')).toBeInTheDocument();
  });
});
