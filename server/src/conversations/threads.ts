import { randomUUID } from 'node:crypto';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import {
  ErrorCode,
  THREAD_MAIL_DELAY_MINUTES,
  inQuietHours,
  type Comment,
  type CreateCommentBody,
  type Notification,
  type NotificationSettings,
  type Thread,
  type ThreadSummary,
} from '@classwave/shared';
import type { Caller } from '../auth/caller.js';
import type { Clock } from '../clock.js';
import type { Db, Tx } from '../db/client.js';
import {
  assignments,
  comments,
  courseTeachers,
  courseMembers,
  courses,
  jobs,
  notifications,
  profiles,
  threadReads,
} from '../db/schema.js';
import { AppError, notFound } from '../http/errors.js';
import { DEFAULT_SETTINGS } from '../notifications/store.js';
import type { Outbox } from '../realtime/outbox.js';
import { audience, userRoom } from '../realtime/rooms.js';
import { assignedTo } from '../assignments/visibility.js';
import { teaches } from '../courses/teaching.js';
import { membershipOf } from './access.js';
import { commentPage } from './comments.js';
import { toComment, type CommentRow } from './views.js';

/**
 * Private comments (DESIGN §19): one thread per assignment and student, between that student and
 * the course's teacher and nobody else. Every request re-reads the student's membership, and a
 * write share-locks it, so its event goes to the student's own room only while they are an active
 * member (a removal commits before or after, never during). Notifications and the delayed e-mail
 * name who wrote and where, never what: a comment's text lives only in the thread, so deleting it
 * takes it out of everything (scrub.ts).
 */

/** The job that e-mails a private reply still unread after THREAD_MAIL_DELAY_MINUTES (jobs.ts). */
export const THREAD_MAIL_KIND = 'thread_mail';
const MAIL_DELAY_MS = THREAD_MAIL_DELAY_MINUTES * 60_000;
/** The newest comments a thread answers with (a thread is a conversation, not an archive). */
const THREAD_MAX = 500;

/** A private comment's live audience: the student and all the course's teachers, their own rooms (membership checked). */
export const threadAudience = (studentId: string, courseId: string, ownerId: string) =>
  audience.studentAndTeachers(studentId, courseId, ownerId);

export const threadLink = (assignmentId: string, studentId: string) =>
  `/assignments?open=${assignmentId}&thread=${studentId}`;

interface RawSettings {
  quiet_enabled: boolean;
  quiet_start: string;
  quiet_end: string;
  time_zone: string;
  email: boolean;
}
/** A teacher of the course and their notification settings (none stored: the defaults). */
interface TeacherSettings {
  id: string;
  settings: RawSettings | null;
}
/** A json column as the driver gives it: parsed (node-postgres, PGlite) or as text. */
const jsonOf = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);
const settingsFrom = (raw: RawSettings | string | null): NotificationSettings => {
  const row = typeof raw === 'string' ? (JSON.parse(raw) as RawSettings) : raw;
  return row
    ? {
        quietHours: {
          enabled: row.quiet_enabled,
          start: row.quiet_start,
          end: row.quiet_end,
          timeZone: row.time_zone,
        },
        email: row.email,
      }
    : DEFAULT_SETTINGS;
};

/**
 * The thread's assignment and course, the student's membership, the names, the caller's read mark
 * and the other side's notification settings: everything a read or a write needs, in one query.
 */
async function threadStanding(
  db: Db | Tx,
  caller: Caller,
  assignmentId: string,
  studentId: string,
  lock: boolean,
) {
  const query = db
    .select({
      assignmentTitle: assignments.title,
      courseId: courses.id,
      courseTitle: courses.title,
      teacherId: courses.teacherId,
      teaches: sql<boolean>`${teaches(caller.userId)}`,
      membership: membershipOf(studentId, lock),
      /** The assignment is published and for the thread's student (DESIGN §20). */
      assigned: sql<boolean>`${assignedTo(studentId)}`,
      studentName: sql<
        string | null
      >`(select ${profiles.fullName} from ${profiles} where ${profiles.id} = ${studentId})`,
      callerName: sql<string>`(select ${profiles.fullName} from ${profiles} where ${profiles.id} = ${caller.userId})`,
      readAt:
        sql<Date | null>`(select ${threadReads.readAt} from ${threadReads} where ${threadReads.assignmentId} = ${assignments.id}
        and ${threadReads.studentId} = ${studentId} and ${threadReads.userId} = ${caller.userId})`.mapWith(
          threadReads.readAt,
        ),
      // The student's, for a teacher's reply; each teacher's (the owner first), for a student's comment.
      studentSettings: sql<RawSettings | string | null>`(select row_to_json(ns) from notification_settings ns
        where ns.user_id = ${studentId}::uuid)`,
      teacherSettings: sql<TeacherSettings[] | string>`(select json_agg(json_build_object('id', t.id,
          'settings', (select row_to_json(ns) from notification_settings ns where ns.user_id = t.id)) order by t.rank, t.at)
        from (select ${courses.teacherId} as id, 0 as rank, null::timestamptz as at
          union all select ${courseTeachers.teacherId}, 1, ${courseTeachers.createdAt} from ${courseTeachers}
          where ${courseTeachers.courseId} = ${courses.id}) t)`,
    })
    .from(assignments)
    .innerJoin(courses, and(eq(courses.id, assignments.courseId), isNull(courses.deletedAt)))
    .where(and(eq(assignments.id, assignmentId), isNull(assignments.deletedAt)));
  const [row] = await query;
  return row;
}
type Standing = NonNullable<Awaited<ReturnType<typeof threadStanding>>>;

/**
 * The student themself while an active member, or the course's teacher while the student is in
 * the course (reading: ever was; writing: is). Anyone else: 404, so a thread's existence does not
 * leak; a former member writing to their own thread hears 403 not_a_member.
 */
function requireParty(
  caller: Caller,
  studentId: string,
  row: Standing | undefined,
  write: boolean,
): asserts row is Standing {
  if (!row) throw notFound('Assignment not found.');
  if (caller.userId === studentId && caller.role === 'student') {
    // Scheduled, or not for them (DESIGN §20): to them it does not exist.
    if (!row.assigned) throw notFound('Assignment not found.');
    if (row.membership === 'active') return;
    if (write && row.membership !== null)
      throw new AppError(
        403,
        ErrorCode.notAMember,
        'You are no longer a member of this course, so you cannot write to its teacher here.',
      );
    throw notFound('Assignment not found.');
  }
  if (caller.role === 'teacher' && row.teaches) {
    // A student who cannot see the assignment is not written to about it.
    if (write && !row.assigned) throw notFound('Student not found in this course.');
    if (row.membership === 'active' || (!write && row.membership !== null)) return;
    throw notFound('Student not found in this course.');
  }
  throw notFound('Thread not found.');
}

const threadOf = (assignmentId: string, studentId: string) =>
  and(eq(comments.assignmentId, assignmentId), eq(comments.threadStudentId, studentId))!;

export function createThreadService({ db, outbox, clock }: { db: Db; outbox: Outbox; clock: Clock }) {
  return {
    /** The thread, newest THREAD_MAX oldest first, with what was unread; reading marks it read. */
    async get(caller: Caller, assignmentId: string, studentId: string): Promise<Thread> {
      const row = await threadStanding(db, caller, assignmentId, studentId, false);
      requireParty(caller, studentId, row, false);
      const { items } = await commentPage(db, threadOf(assignmentId, studentId), { limit: THREAD_MAX });
      const readAt = row.readAt ? row.readAt.getTime() : -Infinity;
      const unreadCount = items.filter(
        (c) => !c.deleted && c.author.id !== caller.userId && new Date(c.createdAt).getTime() > readAt,
      ).length;
      const now = clock.now();
      await db
        .insert(threadReads)
        .values({ assignmentId, studentId, userId: caller.userId, readAt: now })
        .onConflictDoUpdate({
          target: [threadReads.assignmentId, threadReads.studentId, threadReads.userId],
          set: { readAt: now },
        });
      return {
        assignmentId,
        courseId: row.courseId,
        student: { id: studentId, fullName: row.studentName ?? '' },
        items,
        unreadCount,
      };
    },

    /**
     * A private comment, with the other side's notification (quiet hours decide its alert) and, if
     * they take e-mail, the job that mails it should it stay unread. Three statements: the
     * standing, one that writes the comment, the notification, the writer's read mark and the job,
     * and the outbox's events.
     */
    async create(
      caller: Caller,
      assignmentId: string,
      studentId: string,
      body: CreateCommentBody,
    ): Promise<Comment> {
      return outbox.transaction(async (tx, record) => {
        const row = await threadStanding(tx, caller, assignmentId, studentId, true);
        requireParty(caller, studentId, row, true);
        const now = clock.now();
        const comment: CommentRow = {
          id: randomUUID(),
          courseId: row.courseId,
          postId: null,
          assignmentId,
          threadStudentId: studentId,
          authorId: caller.userId,
          text: body.text,
          createdAt: now,
          deletedAt: null,
          deletedBy: null,
        };
        const fromStudent = caller.userId === studentId;
        // A student writes to all the course's teachers (DESIGN §20); a teacher's reply goes to the student.
        const recipients: Array<[string, NotificationSettings]> = fromStudent
          ? jsonOf(row.teacherSettings).map((t) => [t.id, settingsFrom(t.settings)])
          : [[studentId, settingsFrom(row.studentSettings)]];
        const noteFor = (settings: NotificationSettings): Notification => ({
          id: randomUUID(),
          kind: 'thread_comment',
          title: fromStudent
            ? `${row.callerName} wrote to you privately about ${row.assignmentTitle}`
            : `${row.callerName} replied privately about ${row.assignmentTitle}`,
          body: row.courseTitle,
          link: threadLink(assignmentId, studentId),
          courseId: row.courseId,
          assignmentId,
          count: 1,
          createdAt: now.toISOString(),
          updatedAt: now.toISOString(),
          readAt: null,
          alert: !inQuietHours(now, settings.quietHours),
        });
        const notes = recipients.map(([recipient, settings]): [string, Notification, boolean] => [
          recipient,
          noteFor(settings),
          settings.email,
        ]);
        const mailed = notes.filter(([, , email]) => email);
        const mail =
          mailed.length > 0
            ? sql`, mail as ${tx
                .insert(jobs)
                .values(
                  mailed.map(([recipientId, note]) => ({
                    kind: THREAD_MAIL_KIND,
                    key: `thread-mail:${comment.id}:${recipientId}`,
                    runAt: new Date(now.getTime() + MAIL_DELAY_MS),
                    payload: { commentId: comment.id, recipientId, notificationId: note.id },
                  })),
                )
                .onConflictDoNothing()}`
            : sql``;
        // One statement; Drizzle puts each embedded insert in parentheses itself.
        await tx.execute(sql`with c as ${tx.insert(comments).values(comment)},
          n as ${tx.insert(notifications).values(
            notes.map(([userId, note]) => ({
              ...note,
              userId,
              createdAt: now,
              updatedAt: now,
              readAt: null,
            })),
          )}${mail}
          ${tx
            .insert(threadReads)
            .values({ assignmentId, studentId, userId: caller.userId, readAt: now })
            .onConflictDoUpdate({
              target: [threadReads.assignmentId, threadReads.studentId, threadReads.userId],
              set: { readAt: now },
            })
            .getSQL()}`);
        const view = toComment(comment, row.callerName);
        record('thread:comment', view, threadAudience(studentId, row.courseId, row.teacherId));
        for (const [recipient, note] of notes) record('notification:created', note, [userRoom(recipient)]);
        return view;
      });
    },

    /** An assignment's threads with comments: every student's for the teacher, a student's own. */
    async list(caller: Caller, assignmentId: string): Promise<ThreadSummary[]> {
      const [row] = await db
        .select({
          teaches: sql<boolean>`${teaches(caller.userId)}`,
          membership: courseMembers.status,
          assigned: sql<boolean>`${assignedTo(caller.userId)}`,
        })
        .from(assignments)
        .innerJoin(courses, and(eq(courses.id, assignments.courseId), isNull(courses.deletedAt)))
        .leftJoin(
          courseMembers,
          and(eq(courseMembers.courseId, courses.id), eq(courseMembers.studentId, caller.userId)),
        )
        .where(and(eq(assignments.id, assignmentId), isNull(assignments.deletedAt)));
      const teacher = caller.role === 'teacher' && row?.teaches === true;
      if (!row || !(teacher || (row.membership === 'active' && row.assigned)))
        throw notFound('Assignment not found.');
      const rows = await db
        .select({
          studentId: comments.threadStudentId,
          fullName: profiles.fullName,
          commentCount: sql<number>`count(*)::int`,
          unreadCount: sql<number>`(count(*) filter (where ${comments.authorId} <> ${caller.userId}
            and ${comments.deletedAt} is null and ${comments.createdAt} > coalesce(${threadReads.readAt}, '-infinity')))::int`,
          lastCommentAt: sql<Date>`max(${comments.createdAt})`.mapWith(comments.createdAt),
        })
        .from(comments)
        .innerJoin(profiles, eq(profiles.id, comments.threadStudentId))
        .leftJoin(
          threadReads,
          and(
            eq(threadReads.assignmentId, comments.assignmentId),
            eq(threadReads.studentId, comments.threadStudentId),
            eq(threadReads.userId, caller.userId),
          ),
        )
        .where(
          and(
            eq(comments.assignmentId, assignmentId),
            teacher ? undefined : eq(comments.threadStudentId, caller.userId),
          ),
        )
        .groupBy(comments.threadStudentId, profiles.fullName, threadReads.readAt)
        .orderBy(desc(sql`max(${comments.createdAt})`));
      return rows.map((r) => ({
        student: { id: r.studentId!, fullName: r.fullName },
        commentCount: r.commentCount,
        unreadCount: r.unreadCount,
        lastCommentAt: r.lastCommentAt.toISOString(),
      }));
    },
  };
}
export type ThreadService = ReturnType<typeof createThreadService>;

/** For the delayed e-mail (jobs.ts): the comment, whether its reader has read it, and where to write. */
export async function unreadReply(tx: Tx, commentId: string, recipientId: string) {
  const [row] = await tx
    .select({
      comment: comments,
      recipientTeaches: sql<boolean>`${teaches(recipientId)}`,
      assignmentTitle: assignments.title,
      membership: sql<string | null>`(select ${courseMembers.status} from ${courseMembers}
        where ${courseMembers.courseId} = ${courses.id} and ${courseMembers.studentId} = ${recipientId})`,
      assigned: sql<boolean>`${assignedTo(recipientId)}`,
      readAt: sql<Date | null>`(select ${threadReads.readAt} from ${threadReads}
        where ${threadReads.assignmentId} = ${comments.assignmentId} and ${threadReads.studentId} = ${comments.threadStudentId}
        and ${threadReads.userId} = ${recipientId})`.mapWith(threadReads.readAt),
    })
    .from(comments)
    .innerJoin(courses, and(eq(courses.id, comments.courseId), isNull(courses.deletedAt)))
    .innerJoin(assignments, and(eq(assignments.id, comments.assignmentId), isNull(assignments.deletedAt)))
    .where(eq(comments.id, commentId));
  if (!row || row.comment.deletedAt) return undefined;
  // The reader may still read it: a teacher of the course, or the student while an active member.
  if (
    !row.recipientTeaches &&
    !(recipientId === row.comment.threadStudentId && row.membership === 'active' && row.assigned)
  )
    return undefined;
  if (row.readAt && row.readAt.getTime() >= row.comment.createdAt.getTime()) return undefined;
  return row;
}

/** Where "typing" in a thread goes: its two sides, if the caller may write there now (typing.ts). */
export async function threadTypingAudience(db: Db, caller: Caller, assignmentId: string, studentId: string) {
  const row = await threadStanding(db, caller, assignmentId, studentId, false);
  requireParty(caller, studentId, row, true);
  return {
    courseId: row.courseId,
    callerName: row.callerName,
    rooms: threadAudience(studentId, row.courseId, row.teacherId),
  };
}
