import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import {
  DEFAULT_QUIET_HOURS,
  inQuietHours,
  type Notification,
  type NotificationKind,
  type NotificationSettings,
} from '@classwave/shared';
import type { Db, Tx } from '../db/client.js';
import { courseMembers, notificationSettings, notifications } from '../db/schema.js';
import { assignedToOne } from '../assignments/visibility.js';
import type { RecordEvent } from '../events.js';
import { userRoom } from '../realtime/rooms.js';

type NotificationRow = typeof notifications.$inferSelect;
type SettingsRow = typeof notificationSettings.$inferSelect;

export const toNotification = (row: NotificationRow): Notification => ({
  id: row.id,
  kind: row.kind as NotificationKind,
  title: row.title,
  body: row.body,
  link: row.link,
  courseId: row.courseId,
  assignmentId: row.assignmentId,
  count: row.count,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
  readAt: row.readAt?.toISOString() ?? null,
  alert: row.alert,
});

/** What a user who never opened Settings has: quiet hours off (opt-in, DESIGN §14), no e-mail. */
export const DEFAULT_SETTINGS: NotificationSettings = {
  quietHours: { enabled: false, ...DEFAULT_QUIET_HOURS, timeZone: 'UTC' },
  email: false,
};

export const toSettings = (row: SettingsRow | undefined): NotificationSettings =>
  row
    ? {
        quietHours: {
          enabled: row.quietEnabled,
          start: row.quietStart,
          end: row.quietEnd,
          timeZone: row.timeZone,
        },
        email: row.email,
      }
    : DEFAULT_SETTINGS;

/** Each user's settings (defaults for those without a row), in one query. */
export async function settingsOf(tx: Db | Tx, userIds: string[]): Promise<Map<string, NotificationSettings>> {
  const rows =
    userIds.length === 0
      ? []
      : await tx.select().from(notificationSettings).where(inArray(notificationSettings.userId, userIds));
  const byUser = new Map(rows.map((r) => [r.userId, r]));
  return new Map(userIds.map((id) => [id, toSettings(byUser.get(id))]));
}

/** SQL: a user's settings as json text for settingsFromJson (null: none stored), for a write's standing query. */
export const settingsColumn = (userId: SQL) =>
  sql`(select json_build_object('quietEnabled', ns.quiet_enabled, 'quietStart', ns.quiet_start,
      'quietEnd', ns.quiet_end, 'timeZone', ns.time_zone, 'email', ns.email)::text
    from notification_settings ns where ns.user_id = ${userId})`;

export const settingsFromJson = (text: string | null): NotificationSettings =>
  toSettings(text === null ? undefined : (JSON.parse(text) as SettingsRow));

/** A notifications row as `row_to_json` writes it, as the API sends it. */
export function notificationFromJson(text: string): Notification {
  const j = JSON.parse(text) as Record<string, unknown>;
  const iso = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string).toISOString());
  return {
    id: j.id as string,
    kind: j.kind as NotificationKind,
    title: j.title as string,
    body: j.body as string,
    link: j.link as string,
    courseId: (j.course_id as string | null) ?? null,
    assignmentId: (j.assignment_id as string | null) ?? null,
    count: j.count as number,
    createdAt: iso(j.created_at)!,
    updatedAt: iso(j.updated_at)!,
    readAt: iso(j.read_at),
    alert: j.alert as boolean,
  };
}

export interface NewNotification {
  userId: string;
  kind: NotificationKind;
  title: string;
  body?: string;
  link: string;
  courseId?: string | null;
  assignmentId?: string | null;
  count?: number;
}

/**
 * Stores notifications and records `notification:created` to each user's tabs. Inside a user's
 * quiet hours the entry is stored at once (the inbox never waits) with alert=false. Timed kinds
 * are unique per user and assignment: a second one refreshes the first, never doubles it. Returns the stored rows.
 */
export async function storeNotifications(
  tx: Tx,
  record: RecordEvent,
  now: Date,
  items: NewNotification[],
  settings?: Map<string, NotificationSettings>,
): Promise<NotificationRow[]> {
  if (items.length === 0) return [];
  const byUser = settings ?? (await settingsOf(tx, [...new Set(items.map((i) => i.userId))]));
  const rows = await tx
    .insert(notifications)
    .values(
      items.map((item) => ({
        userId: item.userId,
        kind: item.kind,
        title: item.title,
        body: item.body ?? '',
        link: item.link,
        courseId: item.courseId ?? null,
        assignmentId: item.assignmentId ?? null,
        count: item.count ?? 1,
        createdAt: now,
        updatedAt: now,
        alert: !inQuietHours(now, (byUser.get(item.userId) ?? DEFAULT_SETTINGS).quietHours),
      })),
    )
    .onConflictDoUpdate({
      // Timed kinds only (the partial unique index): a reminder run again because the due date
      // moved refreshes the one entry — new text, unread, on top — and is sent again with its id.
      target: [notifications.userId, notifications.kind, notifications.assignmentId],
      targetWhere: sql`${notifications.kind} in ('due_soon', 'assignment_closed')`,
      set: {
        title: sql`excluded.title`,
        body: sql`excluded.body`,
        count: sql`excluded.count`,
        updatedAt: sql`excluded.updated_at`,
        alert: sql`excluded.alert`,
        readAt: null,
      },
    })
    .returning();
  for (const row of rows) record('notification:created', toNotification(row), [userRoom(row.userId)]);
  return rows;
}

/**
 * One formatter per time zone, made once: making one costs far more than using it, and a new
 * assignment formats its due date for every member (it was an eighth of S3's CPU).
 */
const dueFormats = new Map<string, Intl.DateTimeFormat>();
function dueFormat(timeZone: string): Intl.DateTimeFormat {
  let format = dueFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      month: 'short',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
    });
    // Zones are a few hundred names at most; a bound all the same, as they come from users' settings.
    if (dueFormats.size >= 1000) dueFormats.clear();
    dueFormats.set(timeZone, format);
  }
  return format;
}

/**
 * "Nov 24, 11:59 PM" in the reader's zone. In UTC — the fallback for a user whose browser never
 * reported a zone, or one who chose it — the text says "UTC": a bare time there would read as local.
 */
export function formatDue(due: Date, timeZone: string): string {
  const format = dueFormat(timeZone);
  const text = format.format(due);
  // Intl names every alias of UTC (Etc/UTC, GMT, Zulu…) "UTC".
  return format.resolvedOptions().timeZone === 'UTC' ? `${text} UTC` : text;
}

export const assignmentLink = (assignmentId: string) => `/assignments?open=${assignmentId}`;

/** A distinct notification setting among the members a notification goes to (defaults filled in). */
export interface MemberSetting {
  enabled: boolean;
  start: string;
  end: string;
  timeZone: string;
}

const d = DEFAULT_SETTINGS.quietHours;
// A member's settings with the defaults filled in, as SQL: the same wherever members are told.
const enabledOf = sql`coalesce(${notificationSettings.quietEnabled}, ${d.enabled})`;
const startOf = sql`coalesce(${notificationSettings.quietStart}, ${d.start})`;
const endOf = sql`coalesce(${notificationSettings.quietEnd}, ${d.end})`;
const zoneOf = sql`coalesce(${notificationSettings.timeZone}, ${d.timeZone})`;

/**
 * SQL: the distinct settings (MemberSetting, defaults filled in) of the students `studentIds`
 * selects, as the text of a JSON array (null when there are none), for a write's standing query
 * that then stores their notifications in its write (`insertForMembers`).
 */
export function memberSettingsColumn(studentIds: SQL): SQL<string | null> {
  return sql<string | null>`(select jsonb_agg(distinct jsonb_build_object('enabled', ${enabledOf},
      'start', ${startOf}, 'end', ${endOf}, 'timeZone', ${zoneOf}))::text
    from (${studentIds}) as told(student_id)
    left join ${notificationSettings} on ${notificationSettings.userId} = told.student_id)`;
}

/**
 * SQL: the insert of one notification for each member `roster` selects (a condition over
 * `course_members`), with no event per member. The text may depend on the reader's zone (`bodyIn`)
 * and the alert on their quiet hours: both are worked out once for each of `kinds`, the distinct
 * settings read before; a member whose setting is not among them (one who joined since) gets the
 * defaults. A statement of its own, or a CTE of a write's.
 */
export function insertForMembers(
  now: Date,
  item: Omit<NewNotification, 'userId' | 'body' | 'count'>,
  bodyIn: (timeZone: string) => string,
  kinds: readonly MemberSetting[],
  roster: SQL,
): SQL {
  const at = now.toISOString();
  const values =
    kinds.length === 0
      ? sql`(select null::boolean, null::text, null::text, null::text, null::text, null::boolean where false)`
      : sql`(values ${sql.join(
          kinds.map(
            (k) =>
              sql`(${k.enabled}::boolean, ${k.start}::text, ${k.end}::text, ${k.timeZone}::text, ${bodyIn(k.timeZone)}::text, ${!inQuietHours(now, k)}::boolean)`,
          ),
          sql`, `,
        )})`;
  return sql`insert into ${notifications} (user_id, kind, title, body, link, course_id, assignment_id, count, created_at, updated_at, alert)
    select ${courseMembers.studentId}, ${item.kind}, ${item.title}, coalesce(v.body, ${bodyIn(d.timeZone)}),
           ${item.link}, ${item.courseId ?? null}::uuid, ${item.assignmentId ?? null}::uuid, 1, ${at}::timestamptz, ${at}::timestamptz, coalesce(v.alert, true)
    from ${courseMembers}
    left join ${notificationSettings} on ${notificationSettings.userId} = ${courseMembers.studentId}
    left join ${values} as v(enabled, quiet_start, quiet_end, time_zone, body, alert)
      on v.enabled = ${enabledOf} and v.quiet_start = ${startOf} and v.quiet_end = ${endOf} and v.time_zone = ${zoneOf}
    where ${roster}`;
}

/**
 * One notification for each active member of a course, stored by the database in one statement
 * (`INSERT … SELECT` over the roster), with no event per member: the members' tabs already hear
 * the domain event itself (e.g. `assignment:created` in the course room) and load their inbox from
 * it. A class of 1,000 is then two statements and one event, not 1,000 rows sent from here and
 * 1,000 events. The text may depend on the reader's zone (`bodyIn`) and the alert on their quiet
 * hours: both are worked out once per distinct setting in the class, usually one or two.
 */
export async function storeForMembers(
  tx: Tx,
  now: Date,
  courseId: string,
  item: Omit<NewNotification, 'userId' | 'body' | 'count'>,
  bodyIn: (timeZone: string) => string,
): Promise<void> {
  const roster = and(
    eq(courseMembers.courseId, courseId),
    eq(courseMembers.status, 'active'),
    // About an assignment: only the members it is for (DESIGN §20).
    item.assignmentId ? assignedToOne(courseMembers.studentId, item.assignmentId) : undefined,
  )!;
  const kinds = await tx
    .selectDistinct({
      enabled: sql<boolean>`${enabledOf}`,
      start: sql<string>`${startOf}`,
      end: sql<string>`${endOf}`,
      timeZone: sql<string>`${zoneOf}`,
    })
    .from(courseMembers)
    .leftJoin(notificationSettings, eq(notificationSettings.userId, courseMembers.studentId))
    .where(roster);
  if (kinds.length === 0) return;
  await tx.execute(insertForMembers(now, item, bodyIn, kinds, roster));
}
