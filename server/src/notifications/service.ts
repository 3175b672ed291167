import { and, asc, count, desc, eq, gte, inArray, isNotNull, isNull, lt, sql, type SQL } from 'drizzle-orm';
import {
  isTimeZone,
  NOTIFICATIONS_PAGE_SIZE,
  TODO_OVERDUE_DAYS,
  type NotificationPage,
  type NotificationSettings,
  type ReadNotificationsBody,
  type Todo,
  type TodoItem,
} from '@classwave/shared';
import type { Caller } from '../auth/service.js';
import type { Clock } from '../clock.js';
import type { Db, Tx } from '../db/client.js';
import {
  assignments,
  courses,
  excusals,
  notificationSettings,
  notifications,
  submissions,
} from '../db/schema.js';
import { badRequest } from '../http/errors.js';
import type { Outbox } from '../realtime/outbox.js';
import { userRoom } from '../realtime/rooms.js';
import { createCalendarService, visibleAssignment } from './calendar.js';
import { DEFAULT_SETTINGS, toNotification, toSettings } from './store.js';

const DAY_MS = 24 * 3600_000;

export function createNotificationService({
  db,
  clock,
  outbox,
  appOrigin,
}: {
  db: Db;
  clock: Clock;
  outbox: Outbox;
  appOrigin: string;
}) {
  const unreadCount = async (tx: Db | Tx, userId: string) => {
    const [row] = await tx
      .select({ n: count() })
      .from(notifications)
      .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
    return row?.n ?? 0;
  };
  const settingsOf = async (userId: string) => {
    const [row] = await db.select().from(notificationSettings).where(eq(notificationSettings.userId, userId));
    return toSettings(row);
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

    async settings(caller: Caller): Promise<NotificationSettings> {
      return settingsOf(caller.userId);
    },

    /**
     * Settings saved by hand. Changing the zone from the one stored (the browser's, once it was
     * reported) makes it the user's choice, which a browser's report no longer replaces.
     */
    async updateSettings(caller: Caller, body: NotificationSettings): Promise<NotificationSettings> {
      const { quietHours, email } = body;
      if (!isTimeZone(quietHours.timeZone))
        throw badRequest('body.quietHours.timeZone must be an IANA time zone such as Europe/Paris');
      const values = {
        quietEnabled: quietHours.enabled,
        quietStart: quietHours.start,
        quietEnd: quietHours.end,
        timeZone: quietHours.timeZone,
        email,
      };
      const [row] = await db
        .insert(notificationSettings)
        .values({
          userId: caller.userId,
          ...values,
          timeZoneChosen: quietHours.timeZone !== DEFAULT_SETTINGS.quietHours.timeZone,
        })
        .onConflictDoUpdate({
          target: notificationSettings.userId,
          set: {
            ...values,
            timeZoneChosen: sql`${notificationSettings.timeZoneChosen} or ${notificationSettings.timeZone} <> excluded.time_zone`,
          },
        })
        .returning();
      return toSettings(row);
    },

    /** The zone the user's browser reports, stored unless they chose one by hand (DetectedTimeZoneBody). */
    async recordTimeZone(caller: Caller, timeZone: string): Promise<NotificationSettings> {
      if (!isTimeZone(timeZone))
        throw badRequest('body.timeZone must be an IANA time zone such as Europe/Paris');
      const [row] = await db
        .insert(notificationSettings)
        .values({ userId: caller.userId, timeZone })
        .onConflictDoUpdate({
          target: notificationSettings.userId,
          set: { timeZone },
          setWhere: sql`not ${notificationSettings.timeZoneChosen}`,
        })
        .returning();
      // A chosen zone left the row as it was (nothing returned): answer it as it stands.
      return row ? toSettings(row) : settingsOf(caller.userId);
    },

    /**
     * Students: every visible assignment they have not submitted, by due date; overdue ones only
     * while they still take submissions and for TODO_OVERDUE_DAYS (a list that only grows is one
     * nobody reads; the Assignments page keeps the rest).
     * Teachers: per assignment, the submissions still to grade and the graded ones held (not returned).
     * Excused work is no one's to-do.
     */
    async todo(caller: Caller): Promise<Todo> {
      const item = (r: {
        id: string;
        title: string;
        courseId: string;
        courseTitle: string;
        dueDate: Date;
        n: number;
      }): TodoItem => ({
        assignmentId: r.id,
        title: r.title,
        courseId: r.courseId,
        courseTitle: r.courseTitle,
        dueDate: r.dueDate.toISOString(),
        count: r.n,
      });
      const columns = {
        id: assignments.id,
        title: assignments.title,
        courseId: courses.id,
        courseTitle: courses.title,
        dueDate: assignments.dueDate,
      };
      if (caller.role === 'student') {
        const now = clock.now();
        const rows = await db
          .select({ ...columns, n: sql<number>`1` })
          .from(assignments)
          .innerJoin(courses, eq(courses.id, assignments.courseId))
          .where(
            and(
              visibleAssignment(caller.userId, 'student'),
              gte(assignments.dueDate, new Date(now.getTime() - TODO_OVERDUE_DAYS * DAY_MS)),
              // Closed at its due time: nothing left to do about it.
              sql`not (${assignments.closesAtDue} and ${assignments.dueDate} <= ${now})`,
              sql`not exists (select 1 from ${submissions} where ${submissions.assignmentId} = ${assignments.id}
                and ${submissions.studentId} = ${caller.userId})`,
              sql`not exists (select 1 from ${excusals} where ${excusals.assignmentId} = ${assignments.id}
                and ${excusals.studentId} = ${caller.userId})`,
            ),
          )
          .orderBy(asc(assignments.dueDate), asc(assignments.id));
        return { work: rows.map(item), toGrade: [], toReturn: [] };
      }
      // Per assignment: submissions to grade, and graded ones held until the teacher returns them.
      const perAssignment = (pending: SQL) =>
        db
          .select({ ...columns, n: sql<number>`count(${submissions.id})::int` })
          .from(assignments)
          .innerJoin(courses, eq(courses.id, assignments.courseId))
          .innerJoin(submissions, eq(submissions.assignmentId, assignments.id))
          .where(and(eq(courses.teacherId, caller.userId), pending))
          .groupBy(assignments.id, courses.id)
          .orderBy(asc(assignments.dueDate), asc(assignments.id));
      const [toGrade, toReturn] = await Promise.all([
        perAssignment(isNull(submissions.grade)),
        perAssignment(and(isNotNull(submissions.grade), isNull(submissions.returnedAt))!),
      ]);
      return { work: [], toGrade: toGrade.map(item), toReturn: toReturn.map(item) };
    },

    ...createCalendarService({ db, clock, appOrigin }),
  };
}
export type NotificationService = ReturnType<typeof createNotificationService>;
