import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { FileSummary, Notification } from '@classwave/shared';
import { isoText, type Tx } from '../db/client.js';
import { rowsOf } from '../db/rows.js';
import { notifications, submissions, type assignments } from '../db/schema.js';
import type { RecordEvent } from '../events.js';
import { releasedFeedbackColumn } from '../files/service.js';
import {
  lastGradeNoteColumn,
  lastGradeNoteFrom,
  planGradeNotification,
} from '../notifications/grade-notes.js';
import {
  assignmentLink,
  notificationFromJson,
  settingsColumn,
  settingsFromJson,
} from '../notifications/store.js';
import { userRoom } from '../realtime/rooms.js';
import { submissionFromJson, type SubmissionJson } from '../submissions/rules.js';
import { effectiveDueOn } from '../assignments/visibility.js';
import { gradedAudienceOf, heldSql, toSubmission } from '../submissions/views.js';

type AssignmentRow = typeof assignments.$inferSelect;
type SubmissionRow = typeof submissions.$inferSelect;

/**
 * Releases an assignment's held grades (graded and not yet returned, or changed since): all of them, or those among
 * `submissionIds`. Each one released is a `submission:graded` to its student and the teacher's tabs,
 * recorded in the caller's transaction, so the student's "grade returned" notification is derived
 * with it. Every way a held grade leaves (Return now, a scheduled Return falling due, switching the
 * assignment to automatic release) goes through here, so they cannot drift apart.
 */
export async function releaseHeld(
  tx: Tx,
  record: RecordEvent,
  target: { assignment: Pick<AssignmentRow, 'id' | 'courseId'>; teacherId: string },
  now: Date,
  submissionIds?: readonly string[],
): Promise<number> {
  const { assignment, teacherId } = target;
  if (submissionIds?.length === 0) return 0;
  const held = await heldToRelease(tx, assignment.id, now, submissionIds);
  if (held.length === 0) return 0;
  const course = { id: assignment.courseId, teacherId };
  // The "grade returned" entry of each active member, as the notifications rule would write it.
  const notes = held
    .filter((h) => h.studentActive)
    .map((h) => ({
      held: h,
      plan: planGradeNotification(h.reach.last, h.reach.settings, now, {
        userId: h.row.studentId,
        title: h.reach.assignmentTitle,
        body: `${h.reach.courseTitle}${h.row.grade === null ? '' : ` · ${h.row.grade} points out of ${h.reach.maxPoints}`}`,
        link: assignmentLink(assignment.id),
        courseId: course.id,
        assignmentId: assignment.id,
      }),
    }));
  const { released, written } = await writeRelease(tx, held, notes, now);
  const byId = new Map(released.map((r) => [r.id, r]));
  // Each one released is its student's to see now; the events in the order the rules would record them.
  for (const h of held) {
    const shown = toSubmission(byId.get(h.row.id)!, h.studentName, h.dueDate, h.graderName);
    record('submission:graded', shown, gradedAudienceOf(shown, course, h.studentActive), { derived: true });
  }
  for (const h of held) {
    if (!h.studentActive) continue;
    const student = userRoom(h.row.studentId);
    for (const { file, courseId } of h.reach.feedback)
      record(
        'file:ready',
        { file, purpose: 'feedback', assignmentId: assignment.id, courseId, studentId: h.row.studentId },
        [student],
      );
    const note = written.get(h.row.studentId);
    if (note) record('notification:created', note, [student]);
  }
  return released.length;
}

/**
 * One statement: the held grades to release (all, or those among `submissionIds`), locked, in id
 * order, each with what its release writes and tells (issue 30: a Return in three round trips, not
 * five more per student): the student's own due date, the names, the student's membership (share-locked: a removal waits, or is
 * seen), their notification settings and latest "grade returned" entry, and their feedback files.
 */
async function heldToRelease(tx: Tx, assignmentId: string, now: Date, submissionIds?: readonly string[]) {
  const only = submissionIds
    ? sql`and s.id = any(array(select jsonb_array_elements_text(${JSON.stringify([...submissionIds])}::jsonb))::uuid[])`
    : sql``;
  const rows = rowsOf<{
    sub: string;
    due_date: string;
    student_name: string | null;
    grader_name: string | null;
    membership: string | null;
    assignment_title: string;
    max_points: number;
    course_title: string;
    settings: string | null;
    last_note: string | null;
    feedback: string | null;
  }>(
    await tx.execute(sql`select row_to_json(s)::text as sub,
        ${effectiveDueOn('a', sql`s.student_id`, isoText)} as due_date,
        (select p.full_name from profiles p where p.id = s.student_id) as student_name,
        (select p.full_name from profiles p where p.id = s.graded_by) as grader_name,
        (select m.status from course_members m where m.course_id = a.course_id
          and m.student_id = s.student_id for share) as membership,
        a.title as assignment_title, a.max_points,
        (select c.title from courses c where c.id = a.course_id) as course_title,
        ${settingsColumn(sql`s.student_id`)} as settings,
        ${lastGradeNoteColumn(sql`s.student_id`, sql`a.id`)} as last_note,
        ${releasedFeedbackColumn(sql`a.id`, sql`s.student_id`, now)} as feedback
      from submissions s join assignments a on a.id = s.assignment_id
      where s.assignment_id = ${assignmentId}::uuid and ${heldText} ${only}
      order by s.id
      for update of s`),
  );
  return rows.map((r) => ({
    row: submissionFromJson(JSON.parse(r.sub) as SubmissionJson),
    /** The student's own due date (DESIGN §20): their lateness is measured against it. */
    dueDate: new Date(r.due_date),
    studentName: r.student_name ?? '',
    graderName: r.grader_name,
    studentActive: r.membership === 'active',
    reach: {
      assignmentTitle: r.assignment_title,
      maxPoints: Number(r.max_points),
      courseTitle: r.course_title,
      settings: settingsFromJson(r.settings),
      last: lastGradeNoteFrom(r.last_note),
      feedback: JSON.parse(r.feedback ?? '[]') as Array<{ file: FileSummary; courseId: string }>,
    },
  }));
}

/** `heldSql` over the alias `s`. */
const heldText = sql.raw(`(s.grade is not null and (s.returned_at is null
  or s.grade is distinct from s.returned_grade or s.feedback is distinct from s.returned_feedback
  or s.rubric_scores is distinct from s.returned_rubric_scores))`);

type Held = Awaited<ReturnType<typeof heldToRelease>>[number];
type NotePlan = ReturnType<typeof planGradeNotification>;

/**
 * One statement: the grades returned (what the student sees from now on is the grade as it stands,
 * DESIGN §17) and each student's "grade returned" entry, new or the one of the burst brought up to date.
 */
async function writeRelease(
  tx: Tx,
  held: readonly Held[],
  notes: ReadonlyArray<{ held: Held; plan: NotePlan }>,
  now: Date,
): Promise<{ released: SubmissionRow[]; written: Map<string, Notification> }> {
  const ids = JSON.stringify(held.map((h) => h.row.id));
  const inserts = notes.flatMap(({ plan }) => ('insert' in plan ? [plan.insert] : []));
  const updates = notes.flatMap(({ plan }) =>
    'update' in plan
      ? [
          {
            id: plan.update.id,
            since: plan.update.since.toISOString(),
            body: plan.update.set.body,
            bump: plan.update.set.updatedAt !== undefined,
            title: plan.update.set.title ?? null,
            alert: plan.update.set.alert ?? null,
          },
        ]
      : [],
  );
  const at = now.toISOString();
  const inserted =
    inserts.length > 0 ? sql`, n as ${tx.insert(notifications).values(inserts).returning()}` : sql``;
  // Inside the burst: the body always; title, time, unread and alert only when the entry was read.
  const updated =
    updates.length > 0
      ? sql`, u as (update notifications set body = v.body,
            title = case when v.bump then v.title else notifications.title end,
            updated_at = case when v.bump then ${at}::timestamptz else notifications.updated_at end,
            read_at = case when v.bump then null else notifications.read_at end,
            alert = case when v.bump then v.alert else notifications.alert end
          from jsonb_to_recordset(${JSON.stringify(updates)}::jsonb)
            as v(id uuid, since timestamptz, body text, bump boolean, title text, alert boolean)
          where notifications.id = v.id and notifications.updated_at > v.since
          returning notifications.*)`
      : sql``;
  const [result] = rowsOf<{ r: string; n: string | null; u: string | null }>(
    await tx.execute(sql`with r as (update submissions set returned_at = ${at}::timestamptz,
          returned_grade = grade, returned_feedback = feedback, returned_graded_at = graded_at,
          returned_rubric_scores = rubric_scores
        where id = any(array(select jsonb_array_elements_text(${ids}::jsonb))::uuid[])
        returning *)${inserted}${updated}
      select (select json_agg(row_to_json(r))::text from r) as r,
        ${inserts.length > 0 ? sql`(select json_agg(row_to_json(n))::text from n)` : sql`null`} as n,
        ${updates.length > 0 ? sql`(select json_agg(row_to_json(u))::text from u)` : sql`null`} as u`),
  );
  const released = (JSON.parse(result?.r ?? '[]') as SubmissionJson[]).map(submissionFromJson);
  const written = new Map<string, Notification>();
  for (const text of [result?.n, result?.u])
    for (const row of JSON.parse(text ?? '[]') as object[]) {
      const note = notificationFromJson(JSON.stringify(row));
      written.set((row as { user_id: string }).user_id, note);
    }
  return { released, written };
}

/** The ids of an assignment's held grades now (all, or those among `submissionIds`), in id order. */
export async function heldIds(
  tx: Tx,
  assignmentId: string,
  submissionIds?: readonly string[],
): Promise<string[]> {
  const rows = await tx
    .select({ id: submissions.id })
    .from(submissions)
    .where(
      and(
        eq(submissions.assignmentId, assignmentId),
        heldSql,
        submissionIds ? inArray(submissions.id, [...submissionIds]) : undefined,
      ),
    )
    .orderBy(asc(submissions.id));
  return rows.map((r) => r.id);
}
