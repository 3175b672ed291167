import { randomBytes } from 'node:crypto';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import ical from 'ical-generator';
import { workStatus, type CalendarItem, type CalendarQuery } from '@classwave/shared';
import type { Caller } from '../auth/caller.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/client.js';
import {
  assignmentRevisions,
  assignments,
  courses,
  excusals,
  notificationSettings,
  profiles,
  submissions,
} from '../db/schema.js';
import { visibleAssignment } from '../classes/visibility.js';
import { effectiveDue } from '../assignments/visibility.js';
import { badRequest, notFound } from '../http/errors.js';

/** The calendar (GET /api/calendar) and the personal ICS feed (DESIGN §14). */

const DAY_MS = 24 * 3600_000;
/** The longest range GET /api/calendar answers (CalendarQuery). */
const CALENDAR_MAX_DAYS = 400;
/** The ICS feed: due dates from this long ago, and every later one. */
const FEED_PAST_DAYS = 180;
/** How often subscribed calendars should fetch the feed again (REFRESH-INTERVAL). */
const FEED_REFRESH_SECONDS = 3600;
const FEED_TOKEN_BYTES = 32;
/** base64url of 32 bytes: 43 characters. */
const FEED_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function createCalendarService({ db, clock, appOrigin }: { db: Db; clock: Clock; appOrigin: string }) {
  const feedUrl = (token: string) => `${appOrigin}/api/calendar/${token}.ics`;

  /** Visible assignments due in [from, to) with what the caller needs of each (status, or ungraded count). */
  async function calendarRows(userId: string, role: 'student' | 'teacher', from: Date, to?: Date) {
    const isStudent = role === 'student';
    // A student's own due date: their extension's, else the class's (DESIGN §20).
    const due = (isStudent ? effectiveDue(userId) : sql<Date>`${assignments.dueDate}`).mapWith(
      assignments.dueDate,
    );
    return db
      .select({
        assignment: assignments,
        due,
        courseTitle: courses.title,
        // A student's status counts the grade they were given, not a changed one held again (DESIGN §17).
        grade: submissions.returnedGrade,
        submissionId: submissions.id,
        submittedAt: submissions.submittedAt,
        returnedAt: submissions.returnedAt,
        excused: isStudent
          ? sql<boolean>`exists (select 1 from ${excusals} e where e.assignment_id = ${assignments.id} and e.student_id = ${userId})`
          : sql<boolean>`false`,
        needsGrading: isStudent
          ? sql<number | null>`null::int`
          : sql<number>`(select count(*)::int from ${submissions} s where s.assignment_id = ${assignments.id} and s.grade is null)`,
        sequence: sql<number>`coalesce(${assignmentRevisions.sequence}, 0)`,
      })
      .from(assignments)
      .innerJoin(courses, eq(courses.id, assignments.courseId))
      .leftJoin(
        submissions,
        and(
          eq(submissions.assignmentId, assignments.id),
          isStudent ? eq(submissions.studentId, userId) : sql`false`,
        ),
      )
      .leftJoin(assignmentRevisions, eq(assignmentRevisions.assignmentId, assignments.id))
      .where(
        and(
          visibleAssignment(userId, role),
          // An archived course leaves the calendar and the feed (DESIGN §20).
          isNull(courses.archivedAt),
          sql`${due} >= ${from.toISOString()}::timestamptz`,
          to ? sql`${due} < ${to.toISOString()}::timestamptz` : undefined,
        ),
      )
      .orderBy(asc(due), asc(assignments.id));
  }

  return {
    async calendar(caller: Caller, query: CalendarQuery): Promise<{ items: CalendarItem[] }> {
      const from = new Date(query.from);
      const to = new Date(query.to);
      if (Number.isNaN(from.getTime())) throw badRequest('querystring.from must be a valid date-time');
      if (Number.isNaN(to.getTime())) throw badRequest('querystring.to must be a valid date-time');
      if (to <= from) throw badRequest('querystring.to must be after querystring.from');
      if (to.getTime() - from.getTime() > CALENDAR_MAX_DAYS * DAY_MS)
        throw badRequest(`querystring.to must be at most ${CALENDAR_MAX_DAYS} days after querystring.from`);
      const now = clock.now();
      const rows = await calendarRows(caller.userId, caller.role, from, to);
      return {
        items: rows.map((r) => ({
          assignmentId: r.assignment.id,
          title: r.assignment.title,
          courseId: r.assignment.courseId,
          courseTitle: r.courseTitle,
          dueDate: r.due.toISOString(),
          maxPoints: r.assignment.maxPoints,
          status:
            caller.role === 'student'
              ? workStatus(
                  {
                    dueDate: r.due,
                    excused: r.excused,
                    // A returned grade for missing work reads returned; a held one, missing (DESIGN §17).
                    submission: r.submissionId
                      ? { submittedAt: r.submittedAt, grade: r.grade, returnedAt: r.returnedAt }
                      : null,
                  },
                  now,
                  'student',
                )
              : null,
          needsGrading: caller.role === 'teacher' ? r.needsGrading : null,
        })),
      };
    },

    async feed(caller: Caller): Promise<{ url: string | null }> {
      const [row] = await db
        .select({ token: notificationSettings.calendarToken })
        .from(notificationSettings)
        .where(eq(notificationSettings.userId, caller.userId));
      return { url: row?.token ? feedUrl(row.token) : null };
    },

    /** A new feed token; the old URL stops at once (it is the only secret of the feed). */
    async resetFeed(caller: Caller): Promise<{ url: string }> {
      const token = randomBytes(FEED_TOKEN_BYTES).toString('base64url');
      await db
        .insert(notificationSettings)
        .values({ userId: caller.userId, calendarToken: token })
        .onConflictDoUpdate({ target: notificationSettings.userId, set: { calendarToken: token } });
      return { url: feedUrl(token) };
    },

    /** The feed's ICS text for a token; 404 for an unknown or reset one. */
    async ics(token: string): Promise<string> {
      if (!FEED_TOKEN_PATTERN.test(token)) throw notFound('No calendar feed has this address.');
      const [owner] = await db
        .select({ userId: notificationSettings.userId, role: profiles.role, fullName: profiles.fullName })
        .from(notificationSettings)
        .innerJoin(profiles, eq(profiles.id, notificationSettings.userId))
        .where(eq(notificationSettings.calendarToken, token));
      if (!owner) throw notFound('No calendar feed has this address.');
      const now = clock.now();
      const rows = await calendarRows(
        owner.userId,
        owner.role,
        new Date(now.getTime() - FEED_PAST_DAYS * DAY_MS),
      );
      const calendar = ical({
        name: 'Classwave due dates',
        prodId: { company: 'Classwave', product: 'Due dates', language: 'EN' },
        ttl: FEED_REFRESH_SECONDS,
      });
      for (const r of rows) {
        const url = `${appOrigin}/assignments?open=${r.assignment.id}`;
        calendar.createEvent({
          id: `assignment-${r.assignment.id}@classwave`,
          sequence: r.sequence,
          stamp: now,
          // No DTEND: a due date is an instant, and RFC 5545 (§3.6.1) reads a VEVENT with a
          // date-time DTSTART alone as ending when it starts; a DTEND equal to DTSTART is invalid
          // (§3.8.2.2: it must be later), and any later one would invent a length.
          start: r.due,
          summary: `Due: ${r.assignment.title} (${r.courseTitle})`,
          description: `${r.assignment.maxPoints} points. ${url}`,
          url,
        });
      }
      return calendar.toString();
    },
  };
}
export type CalendarService = ReturnType<typeof createCalendarService>;
