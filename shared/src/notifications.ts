import { Type, type Static } from 'typebox';
import { WorkStatus } from './grading.js';

/**
 * Notifications, to-do and calendar (DESIGN §14). A notification is stored per user for 90 days;
 * the inbox never depends on the time of day, quiet hours only hold the alert (toast, sound, e-mail).
 */

const Uuid = Type.String({ format: 'uuid' });
const Timestamp = Type.String({ format: 'date-time' });

export const NOTIFICATION_KEEP_DAYS = 90;
/** New submissions to one assignment make at most one notification per this window; later ones update its count. */
export const SUBMISSION_BATCH_MINUTES = 10;
/** "Due soon" fires this long before the due time, for students who have not submitted. */
export const DUE_SOON_HOURS = 24;
export const NOTIFICATIONS_PAGE_SIZE = 20;

export const NOTIFICATION_KINDS = [
  'assignment_created',
  'due_soon',
  'grade_returned',
  'removed_from_course',
  'submissions',
  'assignment_closed',
  'thread_comment',
] as const;
export const NotificationKind = Type.Union([
  Type.Literal('assignment_created'),
  Type.Literal('due_soon'),
  Type.Literal('grade_returned'),
  Type.Literal('removed_from_course'),
  /** Teachers: new submissions to one assignment, batched (`count`). */
  Type.Literal('submissions'),
  /** Teachers: the due time passed; `count` students are missing. */
  Type.Literal('assignment_closed'),
  /** A private comment on an assignment (DESIGN §19): to the student, or to the course's teacher. */
  Type.Literal('thread_comment'),
]);
export type NotificationKind = Static<typeof NotificationKind>;

export const Notification = Type.Object(
  {
    id: Uuid,
    kind: NotificationKind,
    /** One line, e.g. "New assignment in Biology: Lab report". */
    title: Type.String(),
    /** Optional second line, e.g. "Due Nov 24, 11:59 PM". */
    body: Type.String(),
    /** An in-app path to open on click, e.g. `/assignments?open=<id>` or `/courses/<id>`. */
    link: Type.String(),
    courseId: Type.Union([Uuid, Type.Null()]),
    assignmentId: Type.Union([Uuid, Type.Null()]),
    /** Batched kinds: how many things it stands for (submissions, missing students); else 1. */
    count: Type.Integer(),
    createdAt: Timestamp,
    /** When it last changed (a batch grew): the inbox is ordered by this. */
    updatedAt: Timestamp,
    readAt: Type.Union([Timestamp, Type.Null()]),
    /** Whether an open tab may alert (toast) for it now: false inside the user's quiet hours. */
    alert: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type Notification = Static<typeof Notification>;

export const NotificationsQuery = Type.Object(
  {
    before: Type.Optional(
      Type.String({ format: 'date-time', description: 'Older than this updatedAt (the next page).' }),
    ),
  },
  { additionalProperties: false },
);
export type NotificationsQuery = Static<typeof NotificationsQuery>;

export const NotificationPage = Type.Object(
  {
    items: Type.Array(Notification),
    unreadCount: Type.Integer(),
    /** Pass as `before` for the next page; null on the last. */
    nextBefore: Type.Union([Timestamp, Type.Null()]),
  },
  { additionalProperties: false },
);
export type NotificationPage = Static<typeof NotificationPage>;

export const ReadNotificationsBody = Type.Union([
  Type.Object(
    { ids: Type.Array(Uuid, { minItems: 1, maxItems: 200, uniqueItems: true }) },
    { additionalProperties: false },
  ),
  Type.Object({ all: Type.Literal(true) }, { additionalProperties: false }),
]);
export type ReadNotificationsBody = Static<typeof ReadNotificationsBody>;

export const ReadNotificationsResponse = Type.Object(
  { unreadCount: Type.Integer() },
  { additionalProperties: false },
);
export type ReadNotificationsResponse = Static<typeof ReadNotificationsResponse>;

/** What `notifications:read` carries to the user's other tabs. */
export interface NotificationsReadData {
  ids: string[] | 'all';
  readAt: string;
  unreadCount: number;
}

// Quiet hours (Settings)

const ClockTime = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'HH:MM, 24-hour.' });

export const NotificationSettings = Type.Object(
  {
    quietHours: Type.Object(
      {
        /** Opt-in (DESIGN §14). */
        enabled: Type.Boolean(),
        start: ClockTime,
        end: ClockTime,
        /** IANA zone the hours are read in. */
        timeZone: Type.String({ minLength: 1, maxLength: 64 }),
      },
      { additionalProperties: false },
    ),
    /** Send timed notifications (due soon, closed) by e-mail too, outside quiet hours. */
    email: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type NotificationSettings = Static<typeof NotificationSettings>;
export const DEFAULT_QUIET_HOURS = { start: '21:00', end: '07:00' } as const;

/**
 * PUT /api/me/time-zone: the zone the browser reports (`Intl.DateTimeFormat().resolvedOptions()`),
 * sent at each sign-in so reminders are written in the reader's time. Recorded unless the user chose
 * a zone in Settings; the answer is the settings as they stand.
 */
export const DetectedTimeZoneBody = Type.Object(
  { timeZone: Type.String({ minLength: 1, maxLength: 64, description: 'An IANA zone, e.g. Europe/Paris.' }) },
  { additionalProperties: false },
);
export type DetectedTimeZoneBody = Static<typeof DetectedTimeZoneBody>;

/** Whether `now` falls inside quiet hours `start`–`end` (which may wrap midnight) in `timeZone`. */
export function inQuietHours(
  now: Date,
  hours: { enabled: boolean; start: string; end: string; timeZone: string },
): boolean {
  if (!hours.enabled) return false;
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: hours.timeZone,
    hourCycle: 'h23',
    hour: 'numeric',
    minute: 'numeric',
  }).formatToParts(now);
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const minutes = n('hour') * 60 + n('minute');
  const toMinutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
  const start = toMinutes(hours.start);
  const end = toMinutes(hours.end);
  if (start === end) return false;
  return start < end ? minutes >= start && minutes < end : minutes >= start || minutes < end;
}

/**
 * When quiet hours that hold at `now` end (`now` itself when they do not hold): the next local end
 * time. The server holds e-mail until then; an open tab holds its toasts until then (DESIGN §14).
 */
export function quietHoursEnd(now: Date, settings: Pick<NotificationSettings, 'quietHours'>): Date {
  const hours = settings.quietHours;
  if (!inQuietHours(now, hours)) return now;
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: hours.timeZone,
    hourCycle: 'h23',
    hour: 'numeric',
    minute: 'numeric',
  }).formatToParts(now);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const local = part('hour') * 60 + part('minute');
  const end = Number(hours.end.slice(0, 2)) * 60 + Number(hours.end.slice(3, 5));
  const minutes = (end - local + 24 * 60) % (24 * 60) || 24 * 60;
  const at = new Date(now.getTime() + minutes * 60_000);
  at.setUTCSeconds(0, 0);
  // A daylight-saving change in between moves the local end by an hour: take the first of the
  // nearby minutes at which quiet hours really end.
  for (const shift of [-1, 0, 1, 2]) {
    const candidate = new Date(at.getTime() + shift * 3600_000);
    if (
      candidate > now &&
      !inQuietHours(candidate, hours) &&
      inQuietHours(new Date(candidate.getTime() - 60_000), hours)
    )
      return candidate;
  }
  return at;
}

// To-do

export const TodoItem = Type.Object(
  {
    assignmentId: Uuid,
    title: Type.String(),
    courseId: Uuid,
    courseTitle: Type.String(),
    dueDate: Timestamp,
    /** Teachers' lists: how many submissions it stands for; students: 1. */
    count: Type.Integer(),
  },
  { additionalProperties: false },
);
export type TodoItem = Static<typeof TodoItem>;

/**
 * GET /api/todo. Students: `work` is every visible assignment they have not submitted (nor been
 * excused from) that still takes submissions and was due at most TODO_OVERDUE_DAYS ago, by due
 * date; the client buckets it with `todoBucket` in the viewer's zone.
 * Teachers: `toGrade` (submitted, ungraded) and `toReturn` (graded, held).
 */
export const Todo = Type.Object(
  {
    work: Type.Array(TodoItem),
    toGrade: Type.Array(TodoItem),
    toReturn: Type.Array(TodoItem),
  },
  { additionalProperties: false },
);
export type Todo = Static<typeof Todo>;

/**
 * A student's to-do keeps overdue work this many days past its due time, and never work that closed
 * at its due time (it takes no submission any more): older work is on the Assignments page.
 */
export const TODO_OVERDUE_DAYS = 14;

export type TodoBucket = 'overdue' | 'today' | 'week' | 'later';
export const TODO_BUCKET_LABELS: Record<TodoBucket, string> = {
  overdue: 'Overdue',
  today: 'Today',
  week: 'This week',
  later: 'Later',
};

/** Overdue when past; today until the viewer's midnight; this week within the next 7 days; else later. */
export function todoBucket(dueDate: string | Date, now: Date): TodoBucket {
  const due = new Date(dueDate);
  if (due.getTime() < now.getTime()) return 'overdue';
  const endOfToday = new Date(now);
  endOfToday.setHours(24, 0, 0, 0);
  if (due < endOfToday) return 'today';
  const endOfWeek = new Date(endOfToday);
  endOfWeek.setDate(endOfWeek.getDate() + 6);
  return due < endOfWeek ? 'week' : 'later';
}

// Calendar

export const CalendarQuery = Type.Object(
  {
    from: Type.String({ format: 'date-time' }),
    to: Type.String({ format: 'date-time', description: 'At most 400 days after from.' }),
  },
  { additionalProperties: false },
);
export type CalendarQuery = Static<typeof CalendarQuery>;

export const CalendarItem = Type.Object(
  {
    assignmentId: Uuid,
    title: Type.String(),
    courseId: Uuid,
    courseTitle: Type.String(),
    dueDate: Timestamp,
    maxPoints: Type.Integer(),
    /** Students: where their work stands (DESIGN §13; never `graded`); teachers: null. */
    status: Type.Union([WorkStatus, Type.Null()]),
    /** Teachers: submissions not yet graded; students: null. */
    needsGrading: Type.Union([Type.Integer(), Type.Null()]),
  },
  { additionalProperties: false },
);
export type CalendarItem = Static<typeof CalendarItem>;
export const CalendarItems = Type.Object(
  { items: Type.Array(CalendarItem) },
  { additionalProperties: false },
);
export type CalendarItems = Static<typeof CalendarItems>;

/** POST /api/calendar/feed (a new token; the old one answers 404 at once) and GET /api/calendar/feed. */
export const CalendarFeed = Type.Object(
  { url: Type.Union([Type.String(), Type.Null()]) },
  { additionalProperties: false },
);
export type CalendarFeed = Static<typeof CalendarFeed>;
/** Minimum random characters in a feed token (DESIGN §14). */
export const CALENDAR_TOKEN_MIN_LENGTH = 32;
