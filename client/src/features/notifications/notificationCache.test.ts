import type { NotificationPage } from '@classwave/shared';
import { describe, expect, it } from 'vitest';
import { createNotification } from '../../test/factories';
import { appendOlder, markNotificationsRead, upsertNotification } from './notificationCache';

const at = (minute: number) => `2026-11-23T10:${String(minute).padStart(2, '0')}:00.000Z`;

describe('notificationCache', () => {
  it('puts a new notification in updatedAt order and counts it when unread', () => {
    const page: NotificationPage = {
      items: [createNotification({ updatedAt: at(30) }), createNotification({ updatedAt: at(10) })],
      unreadCount: 2,
      nextBefore: null,
    };
    const middle = createNotification({ updatedAt: at(20) });
    upsertNotification(page, middle);
    expect(page.items.map((n) => n.updatedAt)).toEqual([at(30), at(20), at(10)]);
    expect(page.unreadCount).toBe(3);
  });

  it('replaces a grown batch by id without counting it twice, and moves it to the top', () => {
    const batch = createNotification({ updatedAt: at(1), count: 1 });
    const page: NotificationPage = {
      items: [createNotification({ updatedAt: at(5) }), batch],
      unreadCount: 2,
      nextBefore: null,
    };
    upsertNotification(page, { ...batch, count: 4, updatedAt: at(9) });
    expect(page.items[0]).toMatchObject({ id: batch.id, count: 4 });
    expect(page.items).toHaveLength(2);
    expect(page.unreadCount).toBe(2);
  });

  it('marks only the named ids read and keeps the count the server sent', () => {
    const [a, b] = [createNotification(), createNotification()];
    const page: NotificationPage = { items: [a, b], unreadCount: 7, nextBefore: null };
    markNotificationsRead(page, { ids: [a.id], readAt: at(0), unreadCount: 6 });
    expect(page.items.map((n) => n.readAt)).toEqual([at(0), null]);
    expect(page.unreadCount).toBe(6);
    markNotificationsRead(page, { ids: 'all', readAt: at(1) });
    expect(page.items.map((n) => n.readAt)).toEqual([at(0), at(1)]);
    expect(page.unreadCount).toBe(5);
  });

  it('appends an older page without repeating an entry already shown', () => {
    const shown = createNotification();
    const page: NotificationPage = { items: [shown], unreadCount: 1, nextBefore: at(0) };
    appendOlder(page, {
      items: [shown, createNotification({ title: 'Old' })],
      unreadCount: 1,
      nextBefore: null,
    });
    expect(page.items.map((n) => n.title)).toEqual([shown.title, 'Old']);
    expect(page.nextBefore).toBeNull();
  });
});
