import { and, count, desc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import {
  NOTIFICATIONS_PAGE_SIZE,
  type NotificationPage,
  type ReadNotificationsBody,
} from '@classwave/shared';
import type { Caller } from '../auth/caller.js';
import type { Clock } from '../clock.js';
import type { Db, Tx } from '../db/client.js';
import { assignments, courses, notifications } from '../db/schema.js';
import type { Outbox } from '../realtime/outbox.js';
import { userRoom } from '../realtime/rooms.js';
import { toNotification } from './store.js';

/**
 * Entries about a binned assignment or course stay out of the inbox and its count until it is
 * restored (DESIGN §17): a student must not read of work the teacher took away.
 */
export const notBinned = sql`not exists (select 1 from ${assignments} where ${assignments.id} = ${notifications.assignmentId}
    and ${assignments.deletedAt} is not null)
  and not exists (select 1 from ${courses} where ${courses.id} = ${notifications.courseId}
    and ${courses.deletedAt} is not null)`;

/** The inbox (DESIGN §14): a page of notifications with the unread count, and marking them read. */
export function createNotificationService({ db, clock, outbox }: { db: Db; clock: Clock; outbox: Outbox }) {
  const unreadCount = async (tx: Db | Tx, userId: string) => {
    const [row] = await tx
      .select({ n: count() })
      .from(notifications)
      .where(and(eq(notifications.userId, userId), isNull(notifications.readAt), notBinned));
    return row?.n ?? 0;
  };

  return {
    /** The caller's inbox, newest change first, a page at a time (`before` = the last page's nextBefore). */
    async list(caller: Caller, before?: string): Promise<NotificationPage> {
      const rows = await db
        .select()
        .from(notifications)
        .where(
          and(
            eq(notifications.userId, caller.userId),
            before ? lt(notifications.updatedAt, new Date(before)) : undefined,
            notBinned,
          ),
        )
        .orderBy(desc(notifications.updatedAt), desc(notifications.id))
        .limit(NOTIFICATIONS_PAGE_SIZE + 1);
      const page = rows.slice(0, NOTIFICATIONS_PAGE_SIZE);
      return {
        items: page.map(toNotification),
        unreadCount: await unreadCount(db, caller.userId),
        nextBefore: rows.length > NOTIFICATIONS_PAGE_SIZE ? page.at(-1)!.updatedAt.toISOString() : null,
      };
    },

    /** Marks some (ids of someone else's are ignored) or all of the caller's notifications read; their other tabs hear it. */
    async markRead(caller: Caller, body: ReadNotificationsBody): Promise<{ unreadCount: number }> {
      return outbox.transaction(async (tx, record) => {
        const readAt = clock.now();
        const ids = 'ids' in body ? body.ids : 'all';
        await tx
          .update(notifications)
          .set({ readAt })
          .where(
            and(
              eq(notifications.userId, caller.userId),
              isNull(notifications.readAt),
              ids === 'all' ? undefined : inArray(notifications.id, ids),
            ),
          );
        const unread = await unreadCount(tx, caller.userId);
        record('notifications:read', { ids, readAt: readAt.toISOString(), unreadCount: unread }, [
          userRoom(caller.userId),
        ]);
        return { unreadCount: unread };
      });
    },
  };
}
export type NotificationService = ReturnType<typeof createNotificationService>;
