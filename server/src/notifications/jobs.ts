import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { DUE_SOON_HOURS, NOTIFICATION_KEEP_DAYS, quietHoursEnd } from '@classwave/shared';
import { composeMail } from '../auth/mailer.js';
import type { Tx } from '../db/client.js';
import {
  assignmentExtensions,
  assignments,
  courseMembers,
  courses,
  excusals,
  jobs,
  notifications,
  submissions,
  users,
} from '../db/schema.js';
import { teacherIdsOf } from '../courses/teaching.js';
import { assignedToOne } from '../assignments/visibility.js';
import { scheduleJob, type JobContext, type JobHandler, type JobOutcome } from '../jobs/schedule.js';
import { memberInboxJobs } from './member-inbox.js';
import { DUE_SOON_STUDENT_KIND, jobKeys } from './reminders.js';
import { submissionBatchJobs } from './submission-batches.js';
import { assignmentLink, formatDue, settingsOf, storeNotifications, type NewNotification } from './store.js';

/** What each kind of notification job does when its time comes (run by jobs/runner.ts, one transaction per job). */

const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;
const RETENTION_EVERY_MS = 6 * HOUR_MS;
const DONE_JOBS_KEEP_DAYS = 7;
const DONE: JobOutcome = { done: true };

/**
 * The assignment with its course, and the active members it is for who have neither submitted it
 * nor been excused (`onlyStudent`: that one student, if so).
 */
async function assignmentAndMissing(tx: Tx, assignmentId: string, onlyStudent?: string) {
  const [row] = await tx
    .select({ assignment: assignments, course: courses })
    .from(assignments)
    .innerJoin(courses, eq(courses.id, assignments.courseId))
    .where(and(eq(assignments.id, assignmentId), isNull(assignments.deletedAt)));
  if (!row) return undefined;
  const missing = await tx
    .select({ studentId: courseMembers.studentId })
    .from(courseMembers)
    .where(
      and(
        eq(courseMembers.courseId, row.course.id),
        eq(courseMembers.status, 'active'),
        // Only the students it is for (DESIGN §20).
        assignedToOne(courseMembers.studentId, assignmentId),
        onlyStudent ? eq(courseMembers.studentId, onlyStudent) : undefined,
        // A grade for missing work is still missing work (DESIGN §17).
        sql`not exists (select 1 from ${submissions} where ${submissions.assignmentId} = ${assignmentId}
          and ${submissions.studentId} = ${courseMembers.studentId} and ${submissions.submittedAt} is not null)`,
        // An excused student owes nothing: no reminder, and not counted missing (DESIGN §13).
        sql`not exists (select 1 from ${excusals} where ${excusals.assignmentId} = ${assignmentId}
          and ${excusals.studentId} = ${courseMembers.studentId})`,
      ),
    );
  // The class as it stands: how many active members there are, and how many of them are excused.
  const [roster] = await tx
    .select({
      members: sql<number>`count(*)::int`,
      // Tables named in full: in the select list of a one-table query drizzle leaves columns
      // unqualified, and "student_id" = "student_id" would be the excusal's own column twice.
      excused: sql<number>`count(*) filter (where exists (select 1 from excusals e
        where e.assignment_id = ${assignmentId} and e.student_id = course_members.student_id))::int`,
    })
    .from(courseMembers)
    .where(
      and(
        eq(courseMembers.courseId, row.course.id),
        eq(courseMembers.status, 'active'),
        assignedToOne(courseMembers.studentId, assignmentId),
      ),
    );
  return {
    ...row,
    missing: missing.map((m) => m.studentId),
    members: roster?.members ?? 0,
    excused: roster?.excused ?? 0,
  };
}

/** The "closed" notification's second line: who is missing, or why nobody is. */
function closedBody(courseTitle: string, found: { missing: string[]; members: number; excused: number }) {
  const n = found.missing.length;
  if (found.members === 0) return `${courseTitle}: no students in this class`;
  if (n > 0) return `${courseTitle}: ${n} ${n === 1 ? 'student has' : 'students have'} not submitted`;
  return `${courseTitle}: ${found.excused === 0 ? 'every student submitted' : 'every student submitted or was excused'}`;
}

/** Stores timed notifications and queues the e-mail of those whose users asked for it (after quiet hours). */
async function storeTimed(context: JobContext, items: NewNotification[]): Promise<void> {
  const settings = await settingsOf(context.tx, [...new Set(items.map((i) => i.userId))]);
  const rows = await storeNotifications(context.tx, context.record, context.now, items, settings);
  for (const row of rows) {
    const own = settings.get(row.userId);
    if (!own?.email) continue;
    await scheduleJob(context.tx, {
      kind: 'email',
      key: jobKeys.email(row.id),
      runAt: quietHoursEnd(context.now, own),
      payload: { notificationId: row.id },
    });
  }
}

/**
 * The Message-ID of a notification's e-mail: its id and version (a refreshed reminder, e.g. after
 * the due date moved, is a new message), at the app's host.
 */
export const notificationMessageId = (notification: { id: string; updatedAt: Date }, appOrigin: string) =>
  `<notification-${notification.id}.${notification.updatedAt.getTime()}@${new URL(appOrigin).hostname}>`;

const handlers: Record<string, JobHandler> = {
  /** Each active member who has not submitted, 24 h before the due time. */
  async due_soon(job, context) {
    const found = await assignmentAndMissing(context.tx, String(job.payload.assignmentId));
    if (!found) return DONE;
    const due = found.assignment.dueDate;
    const at = new Date(due.getTime() - DUE_SOON_HOURS * HOUR_MS);
    // The due date moved later than the job knew: wait for the new time.
    if (context.now < at) return { runAt: at };
    if (context.now >= due) return DONE;
    // A student with an extension is reminded on their own date (due_soon_student).
    const extended = new Set(
      (
        await context.tx
          .select({ studentId: assignmentExtensions.studentId })
          .from(assignmentExtensions)
          .where(eq(assignmentExtensions.assignmentId, found.assignment.id))
      ).map((x) => x.studentId),
    );
    const missing = found.missing.filter((id) => !extended.has(id));
    const settings = await settingsOf(context.tx, missing);
    await storeTimed(
      context,
      missing.map((userId) => ({
        userId,
        kind: 'due_soon' as const,
        title: `Due soon in ${found.course.title}: ${found.assignment.title}`,
        body: `Due ${formatDue(due, settings.get(userId)!.quietHours.timeZone)}`,
        link: assignmentLink(found.assignment.id),
        courseId: found.course.id,
        assignmentId: found.assignment.id,
      })),
    );
    return DONE;
  },

  /** One student's "due soon" on their extension's date (DESIGN §20), if they still owe the work. */
  async [DUE_SOON_STUDENT_KIND](job, context) {
    const assignmentId = String(job.payload.assignmentId);
    const studentId = String(job.payload.studentId);
    const [extension] = await context.tx
      .select({ dueDate: assignmentExtensions.dueDate })
      .from(assignmentExtensions)
      .where(
        and(
          eq(assignmentExtensions.assignmentId, assignmentId),
          eq(assignmentExtensions.studentId, studentId),
        ),
      );
    if (!extension) return DONE;
    const due = extension.dueDate;
    const at = new Date(due.getTime() - DUE_SOON_HOURS * HOUR_MS);
    if (context.now < at) return { runAt: at };
    if (context.now >= due) return DONE;
    const found = await assignmentAndMissing(context.tx, assignmentId, studentId);
    if (!found || found.missing.length === 0) return DONE;
    const settings = await settingsOf(context.tx, [studentId]);
    await storeTimed(context, [
      {
        userId: studentId,
        kind: 'due_soon' as const,
        title: `Due soon in ${found.course.title}: ${found.assignment.title}`,
        body: `Due ${formatDue(due, settings.get(studentId)!.quietHours.timeZone)}`,
        link: assignmentLink(assignmentId),
        courseId: found.course.id,
        assignmentId,
      },
    ]);
    return DONE;
  },

  /** The course's teachers, at the due time: how many active members have not submitted. */
  async assignment_closed(job, context) {
    const found = await assignmentAndMissing(context.tx, String(job.payload.assignmentId));
    if (!found) return DONE;
    if (context.now < found.assignment.dueDate) return { runAt: found.assignment.dueDate };
    // A student whose own due date is still ahead (an extension, DESIGN §20) is not missing yet.
    const later = new Set(
      (
        await context.tx
          .select({ studentId: assignmentExtensions.studentId })
          .from(assignmentExtensions)
          .where(
            and(
              eq(assignmentExtensions.assignmentId, found.assignment.id),
              gt(assignmentExtensions.dueDate, context.now),
            ),
          )
      ).map((x) => x.studentId),
    );
    found.missing = found.missing.filter((id) => !later.has(id));
    const n = found.missing.length;
    // Every teacher of the course (DESIGN §20), each with their own entry.
    const teacherIds = await teacherIdsOf(context.tx, found.course.id);
    await storeTimed(
      context,
      teacherIds.map((userId) => ({
        userId,
        kind: 'assignment_closed' as const,
        title: `Closed: ${n} missing — ${found.assignment.title}`,
        body: closedBody(found.course.title, found),
        link: assignmentLink(found.assignment.id),
        courseId: found.course.id,
        assignmentId: found.assignment.id,
        count: n,
      })),
    );
    return DONE;
  },

  /**
   * A timed notification by e-mail, once the user's quiet hours are over (and if they still want
   * e-mail). At least once: the mail goes out inside the claiming transaction, just before it
   * commits, so a crash between the two sends it again on the next run. The repeat carries the same
   * Message-ID (one per notification and version), so a mail server or client can drop it.
   */
  async email(job, context) {
    const [row] = await context.tx
      .select({ notification: notifications, email: users.email })
      .from(notifications)
      .innerJoin(users, eq(users.id, notifications.userId))
      .where(eq(notifications.id, String(job.payload.notificationId)));
    if (!row) return DONE;
    const settings = (await settingsOf(context.tx, [row.notification.userId])).get(row.notification.userId)!;
    if (!settings.email) return DONE;
    const end = quietHoursEnd(context.now, settings);
    if (end > context.now) return { runAt: end };
    const { notification } = row;
    await context.mailer.send({
      ...composeMail(row.email, notification.title, [notification.title, notification.body].filter(Boolean), {
        label: 'Open in Classwave',
        url: new URL(notification.link, context.appOrigin).toString(),
      }),
      messageId: notificationMessageId(notification, context.appOrigin),
    });
    return DONE;
  },

  /** Notifications are kept 90 days (DESIGN §14); this job repeats itself. */
  async retention(_job, context) {
    await context.tx
      .delete(notifications)
      .where(lt(notifications.updatedAt, new Date(context.now.getTime() - NOTIFICATION_KEEP_DAYS * DAY_MS)));
    // Done jobs are history (a submission leaves one behind, submission-batches.ts): a week of it.
    await context.tx
      .delete(jobs)
      .where(lt(jobs.doneAt, new Date(context.now.getTime() - DONE_JOBS_KEEP_DAYS * DAY_MS)));
    return { runAt: new Date(context.now.getTime() + RETENTION_EVERY_MS) };
  },
};
/** The notifications' jobs: timed ones, and the work changes leave to right after their commit. */
export const notificationJobs: Readonly<Record<string, JobHandler>> = {
  ...handlers,
  ...submissionBatchJobs,
  ...memberInboxJobs,
};
