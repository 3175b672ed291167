import type { Notification, NotificationPage, NotificationsReadData } from '@classwave/shared';

/**
 * Pure patches of the inbox's first page (the bell's list), applied to an RTK Query draft. The
 * list is newest `updatedAt` first, as GET /api/notifications answers.
 */

const isUnread = (n: Notification) => n.readAt === null;

/** `notification:created` is an upsert by id: a batch that grew replaces its entry and moves to the top. */
export function upsertNotification(page: NotificationPage, notification: Notification): void {
  const index = page.items.findIndex((n) => n.id === notification.id);
  const wasUnread = index !== -1 && isUnread(page.items[index]!);
  if (index !== -1) page.items.splice(index, 1);
  const at = page.items.findIndex((n) => n.updatedAt <= notification.updatedAt);
  page.items.splice(at === -1 ? page.items.length : at, 0, notification);
  page.unreadCount = Math.max(0, page.unreadCount + (isUnread(notification) ? 1 : 0) - (wasUnread ? 1 : 0));
}

/** Marks `ids` (or every entry) read at `readAt`; the count is the server's when it sent one. */
export function markNotificationsRead(
  page: NotificationPage,
  { ids, readAt, unreadCount }: Omit<NotificationsReadData, 'unreadCount'> & { unreadCount?: number },
): void {
  let newlyRead = 0;
  for (const n of page.items) {
    if (n.readAt === null && (ids === 'all' || ids.includes(n.id))) {
      n.readAt = readAt;
      newlyRead += 1;
    }
  }
  page.unreadCount = unreadCount ?? Math.max(0, page.unreadCount - newlyRead);
}

/** Adds an older page below the loaded ones, skipping entries already shown (a batch may have moved). */
export function appendOlder(page: NotificationPage, older: NotificationPage): void {
  const known = new Set(page.items.map((n) => n.id));
  page.items.push(...older.items.filter((n) => !known.has(n.id)));
  page.nextBefore = older.nextBefore;
}
