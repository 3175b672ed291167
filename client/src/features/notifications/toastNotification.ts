import type { Notification } from '@classwave/shared';
import { toast } from 'sonner';
import { removedToastId } from '../classes/toastIds';

/** Older than this, a replayed event (a reconnect's catch-up) updates the list without a toast. */
const FRESH_MS = 60_000;

/** Whether this tab's inbox panel is open (NotificationBell sets it). */
let inboxOpen = false;
export function setInboxOpen(open: boolean): void {
  inboxOpen = open;
}

/**
 * Toasts a new or grown notification, unless the inbox is open (the entry shows in it, and a toast
 * would cover the list it belongs to), the server held its alert (quiet hours: HeldAlerts
 * sums those up when they end), it is already read, or it is an old event replayed after a
 * reconnect. One toast per id: a batch that grows replaces its toast instead of stacking another.
 */
export function toastNotification(notification: Notification, at: string, now = Date.now()): boolean {
  if (inboxOpen || !notification.alert || notification.readAt !== null) return false;
  if (now - new Date(at).getTime() > FRESH_MS) return false;
  // A removal is toasted by member:removed as well: the two share one toast.
  const id =
    notification.kind === 'removed_from_course' && notification.courseId
      ? removedToastId(notification.courseId)
      : `notification:${notification.id}`;
  toast(notification.title, {
    id,
    description: notification.body || undefined,
  });
  return true;
}
