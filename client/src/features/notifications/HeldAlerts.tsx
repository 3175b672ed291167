import { inQuietHours, quietHoursEnd } from '@classwave/shared';
import { useEffect, useRef } from 'react';
import { useAppSelector } from '../../app/hooks';
import { releaseHeldAlerts, type InboxPage } from './heldAlerts';
import { useGetNotificationSettingsQuery, useGetNotificationsQuery } from './notificationsApi';

/**
 * Shows what quiet hours held as one toast when they end (heldAlerts.ts): by a timer set to their
 * end while they hold, or once on the first look outside them (the first load after a night with
 * the tab closed, or quiet hours just turned off). Not on every inbox change outside them: an entry
 * held by the server's clock a moment before this tab's saw the end waits for the next load.
 */
export function HeldAlerts() {
  const userId = useAppSelector((state) => state.auth.profile?.id);
  const { data: page } = useGetNotificationsQuery();
  const { data: settings } = useGetNotificationSettingsQuery();
  // The inbox as it is when the timer fires, not as it was when it was set.
  const inbox = useRef<InboxPage>({ items: [], more: false });
  inbox.current = { items: page?.items ?? [], more: Boolean(page?.nextBefore) };
  // The user whose held alerts were last released outside quiet hours by this tab.
  const releasedFor = useRef<string | null>(null);

  useEffect(() => {
    if (!userId || !page || !settings) return;
    const release = () => {
      releasedFor.current = userId;
      void releaseHeldAlerts(userId, () => inbox.current);
    };
    const now = new Date();
    if (!inQuietHours(now, settings.quietHours)) {
      if (releasedFor.current !== userId) release();
      return;
    }
    releasedFor.current = null;
    const timer = setTimeout(release, quietHoursEnd(now, settings).getTime() - now.getTime());
    return () => clearTimeout(timer);
  }, [userId, page, settings]);

  return null;
}
