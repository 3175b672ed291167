import { sql, type SQL } from 'drizzle-orm';
import { ErrorCode, type Assignees } from '@classwave/shared';
import type { Caller } from '../auth/caller.js';
import type { Tx } from '../db/client.js';
import { rowsOf } from '../db/rows.js';
import type { assignments } from '../db/schema.js';
import { AppError, badRequest, notFound } from '../http/errors.js';
import { requireTeacher } from '../policies.js';
import { courseArchived } from '../archive/rules.js';
import { teaches } from '../courses/teaching.js';
import { upsertJobsSql, type NewJob } from '../jobs/schedule.js';
import { INBOX_IN_THE_WRITE, newAssignmentEntry } from '../notifications/member-inbox.js';
import { newReminders } from '../notifications/reminders.js';
import { insertForMembers, memberSettingsColumn, type MemberSetting } from '../notifications/store.js';
import { PUBLISH_ASSIGNMENT_KIND, publishJobKey } from './assigning.js';

/**
 * A new assignment in three statements (issue 30, DESIGN §22): its standing, its write (the row,
 * its jobs and its students' inbox entries) and the outbox's events. The rules it answers by are
 * those of requireTeacherOf, requireCategoryOf and requireAssignees, read in the one standing.
 */

type AssignmentRow = typeof assignments.$inferSelect;

/** A uuid[] parameter (the ids are uuids: the route's schema has checked them). */
const uuids = (ids: readonly string[]) => sql`${`{${ids.join(',')}}`}::uuid[]`;

/** What a new assignment's standing found: its course, and the students it is for now. */
export interface CreateStanding {
  course: { id: string; title: string; teacherId: string };
  /** The named students (each an active member, share-locked to the commit); null: the whole class. */
  assignees: string[] | null;
  /**
   * The students it is for once published now: how many (counted up to INBOX_IN_THE_WRITE + 1), and
   * their distinct notification settings when they are few enough for the write to store their
   * inbox entries.
   */
  told: { count: number; settings: MemberSetting[] | null } | null;
}

/**
 * The standing of a new assignment, in one statement: the course (binned, archived, who teaches it,
 * the caller's membership), the category (key-share-locked, so a category deleted meanwhile waits
 * for this write, as requireCategoryOf does), the named students (active members of the course,
 * share-locked as the outbox locks an event's audience) and, when it is published at once, the
 * students it is for with their settings. Answers as the archive guard, requireTeacher,
 * requireTeacherOf, requireCategoryOf and requireAssignees would, in that order.
 */
export async function createStanding(
  tx: Tx,
  caller: Caller,
  body: { courseId: string; categoryId?: string | null; assignees?: Assignees },
  published: boolean,
): Promise<CreateStanding> {
  const named = Array.isArray(body.assignees) ? [...new Set(body.assignees)] : null;
  const courseId = sql`${body.courseId}::uuid`;
  const ctes: SQL[] = [];
  const columns: SQL[] = [];
  if (named) {
    ctes.push(sql`named as (select m.student_id from course_members m
      where m.course_id = ${courseId} and m.status = 'active' and m.student_id = any(${uuids(named)})
      for share)`);
    columns.push(sql`(select coalesce(json_agg(student_id), '[]')::text from named) as named`);
  }
  if (body.categoryId) {
    ctes.push(sql`category as (select g.id from grade_categories g
      where g.id = ${body.categoryId}::uuid and g.course_id = ${courseId} for key share)`);
    columns.push(sql`exists (select 1 from category) as category_found`);
  }
  if (published) {
    ctes.push(
      named
        ? sql`told as (select student_id from named)`
        : sql`told as (select m.student_id from course_members m
            where m.course_id = ${courseId} and m.status = 'active')`,
    );
    // Counted only as far as the write's limit: a lecture of thousands is not read here twice.
    const few = sql`(select count(*) from (select 1 from told limit ${INBOX_IN_THE_WRITE + 1}) n)`;
    columns.push(sql`${few}::int as told`);
    columns.push(sql`case when ${few} <= ${INBOX_IN_THE_WRITE}
      then ${memberSettingsColumn(sql`select student_id from told`)} end as settings`);
  }
  const [row] = rowsOf<{
    title: string;
    teacher_id: string;
    deleted: boolean;
    archived: boolean;
    teaches: boolean;
    membership: string | null;
    named?: string;
    category_found?: boolean;
    told?: number;
    settings?: string | null;
  }>(
    await tx.execute(sql`${ctes.length > 0 ? sql`with ${sql.join(ctes, sql`, `)} ` : sql``}select
        courses.title, courses.teacher_id, courses.deleted_at is not null as deleted,
        courses.archived_at is not null as archived, ${teaches(caller.userId)} as teaches,
        (select m.status from course_members m
          where m.course_id = courses.id and m.student_id = ${caller.userId}::uuid) as membership
        ${sql.join(
          columns.map((c) => sql`, ${c}`),
          sql``,
        )}
      from courses where courses.id = ${courseId}`),
  );
  // An archived course is read-only to those who see it (DESIGN §20), before any other answer, as
  // the archive guard answers it (archive/guard.ts).
  if (row && !row.deleted && row.archived && (row.teaches || row.membership === 'active'))
    throw courseArchived();
  requireTeacher(caller, 'create assignments');
  // A binned course is changed only by restoring it (DESIGN §17); one the caller does not teach is not there for them.
  if (!row || row.deleted || !row.teaches) throw notFound('Course not found.');
  if (body.categoryId && !row.category_found)
    throw badRequest("body.categoryId must be one of this course's grade categories");
  const members = named ? (JSON.parse(row.named ?? '[]') as string[]) : null;
  const missing = named ? named.length - members!.length : 0;
  if (missing > 0)
    throw new AppError(
      422,
      ErrorCode.assigneeNotMember,
      `${missing} of the students named ${missing === 1 ? 'is' : 'are'} not in this class.`,
    );
  return {
    course: { id: body.courseId, title: row.title, teacherId: row.teacher_id },
    assignees: named,
    told: published
      ? {
          count: row.told ?? 0,
          settings:
            row.settings === undefined || row.settings === null
              ? (row.told ?? 0) === 0
                ? []
                : null
              : (JSON.parse(row.settings) as MemberSetting[]),
        }
      : null,
  };
}

/** Whether the write stores the students' inbox entries itself (a class), or leaves them to the job after the commit. */
export const inboxInTheWrite = (standing: CreateStanding) => standing.told?.settings != null;

/**
 * The write of a new assignment, in one statement: the row; its publication job when scheduled;
 * when published to a class of at most INBOX_IN_THE_WRITE, its reminders and each student's "new
 * assignment" entry (what the `assignment:created` rule and the member-inbox job do for a larger
 * one: notifications/rules.ts, member-inbox.ts).
 */
export async function writeNewAssignment(
  tx: Tx,
  row: AssignmentRow,
  standing: CreateStanding,
  now: Date,
): Promise<void> {
  const iso = (at: Date | null) => (at ? sql`${at.toISOString()}::timestamptz` : sql`null::timestamptz`);
  const jobsToSchedule: NewJob[] = [];
  if (row.publishAt && !row.publishedAt)
    jobsToSchedule.push({
      kind: PUBLISH_ASSIGNMENT_KIND,
      key: publishJobKey(row.id),
      runAt: row.publishAt,
      payload: { assignmentId: row.id },
    });
  const ctes = [
    sql`a as (insert into assignments (id, title, description, due_date, max_points, course_id, created_at,
        grade_release, closes_at_due, category_id, assignees, publish_at, published_at)
      values (${row.id}::uuid, ${row.title}, ${row.description}, ${iso(row.dueDate)}, ${row.maxPoints},
        ${row.courseId}::uuid, ${iso(row.createdAt)}, ${row.gradeRelease}, ${row.closesAtDue},
        ${row.categoryId}::uuid, ${row.assignees ? uuids(row.assignees) : sql`null::uuid[]`},
        ${iso(row.publishAt)}, ${iso(row.publishedAt)}))`,
  ];
  const settings = standing.told?.settings;
  if (settings) {
    jobsToSchedule.push(...newReminders(row.id, row.dueDate, now));
    const { item, bodyIn } = newAssignmentEntry(row, standing.course.title);
    // The students it is for: published, and the whole class or those named (DESIGN §20; nobody
    // has handed work in to a new one). The assignment's row is this statement's, so the roster
    // says it here rather than through assignedTo, which reads the table.
    const roster = sql`course_members.course_id = ${row.courseId}::uuid and course_members.status = 'active'
      ${row.assignees ? sql`and course_members.student_id = any(${uuids(row.assignees)})` : sql``}`;
    ctes.push(sql`n as (${insertForMembers(now, item, bodyIn, settings, roster)})`);
  }
  if (jobsToSchedule.length > 0) ctes.push(sql`j as (${upsertJobsSql(jobsToSchedule)})`);
  await tx.execute(sql`with ${sql.join(ctes, sql`, `)} select 1`);
}
