import type { Notification } from '@classwave/shared';
import { toast } from 'sonner';

/**
 * Alerts held by quiet hours (DESIGN §14): the server stores what arrives inside them at once,
 * with `alert: false`, and no toast is shown. When quiet hours end — in this tab if it is still
 * open, or on the next load after — the user gets one summary toast of what is still unread.
 * What was summarized is remembered per user (localStorage), so neither a reload nor a second tab
 * shows it again.
 */

/** Without a record of the last summary, entries held within this long are summarized. */
const FIRST_LOOK_MS = 24 * 3600_000;

const storageKey = (userId: string) => `classwave:held-alerts:${userId}`;

function lastSummary(userId: string): number | null {
  try {
    const value = Number(localStorage.getItem(storageKey(userId)));
    return Number.isFinite(value) && value > 0 ? value : null;
  } catch {
    return null;
  }
}

function remember(userId: string, at: number): void {
  try {
    localStorage.setItem(storageKey(userId), String(at));
  } catch {
    // Storage refused (private mode, full): the summary may come once more, nothing is lost.
  }
}

/** The held entries a summary at `now` stands for: unread, alert held, changed since the last summary. */
export function heldSince(items: readonly Notification[], since: number, now: number): Notification[] {
  return items.filter((n) => {
    const at = Date.parse(n.updatedAt);
    return !n.alert && n.readAt === null && at > since && at <= now;
  });
}

/**
 * "While quiet hours were on: 3 notifications"; "… 20 or more notifications" when the inbox's first
 * page is held all through and older pages may hold more (the summary reads that page only).
 */
export const heldSummaryTitle = (count: number, orMore = false) =>
  `While quiet hours were on: ${count}${orMore ? ' or more' : ''} ${count === 1 && !orMore ? 'notification' : 'notifications'}`;

/** The inbox's first page as the summary sees it. */
export interface InboxPage {
  items: readonly Notification[];
  /** Older entries exist beyond this page. */
  more: boolean;
}

function summarize(userId: string, page: InboxPage, now: number): void {
  const since = lastSummary(userId) ?? now - FIRST_LOOK_MS;
  const held = heldSince(page.items, since, now);
  remember(userId, now);
  if (held.length === 0) return;
  const titles = held.slice(0, 2).map((n) => n.title);
  const more = held.length - titles.length;
  toast(heldSummaryTitle(held.length, page.more && held.length === page.items.length), {
    // Its own id per summary: one never replaces (or revives) an earlier one.
    id: `held-alerts:${now}`,
    description: titles.join(' · ') + (more > 0 ? ` and ${more} more` : ''),
  });
}

/**
 * Shows the summary now, once for all tabs: where the browser has Web Locks, two tabs whose quiet
 * hours end at the same moment take turns, and the second finds nothing left since the first.
 */
export function releaseHeldAlerts(userId: string, page: () => InboxPage): Promise<void> {
  const run = () => summarize(userId, page(), Date.now());
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (!locks) {
    run();
    return Promise.resolve();
  }
  return locks
    .request(storageKey(userId), () => run())
    .then(
      () => undefined,
      () => run(),
    );
}
