import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { SUBMISSION_BATCH_MINUTES, type SubmissionWithdrawnEvent } from '@classwave/shared';
import type { Tx } from '../db/client.js';
import { assignments, courses, notifications } from '../db/schema.js';
import type { RecordEvent } from '../events.js';
import { teacherIdsOf } from '../courses/teaching.js';
import { userRoom } from '../realtime/rooms.js';
import { toNotification } from './store.js';

/**
 * A teacher's "new submissions" notification, batched per assignment: at most one per
 * SUBMISSION_BATCH_MINUTES. A batch starts at its first submission (its createdAt is that
 * submission's time) and takes those made within the window after it. Its count is the students
 * whose submission in that window still stands: a submission taken back leaves it, and a student who
 * takes theirs back and submits again counts once. A submission reaches its batch after its commit
 * (submission-batches.ts); one taken back leaves it in the withdrawal's own transaction (below).
 */

/** A batch's window: its first submission's time and this long after. */
export const WINDOW_MS = SUBMISSION_BATCH_MINUTES * 60_000;
/** SQL: the interval of a batch's window. */
export const WINDOW = sql`make_interval(secs => ${WINDOW_MS / 1000})`;

export const submissionsTitle = (count: number, title: string) =>
  count === 0
    ? `Submission taken back: ${title}`
    : count === 1
      ? `New submission: ${title}`
      : `${count} new submissions: ${title}`;

/** `submissionsTitle` in SQL, for a write that recounts a batch in its own statement. */
export const submissionsTitleSql = (count: SQL, title: SQL) => sql`case when ${count} = 0
    then 'Submission taken back: ' || ${title}
  when ${count} = 1 then 'New submission: ' || ${title}
  else ${count} || ' new submissions: ' || ${title} end`;

/** SQL: the submission `s` is of `assignment` and inside the window of a batch that starts at `start`. */
const inWindow = (assignment: SQL, start: SQL) => sql`s.assignment_id = ${assignment}
  and s.submitted_at >= ${start}
  and s.submitted_at < ${start} + ${WINDOW}`;

/** SQL: the distinct students with a standing submission inside a window. */
const windowCount = (assignment: SQL, start: SQL) =>
  sql<number>`(select count(distinct s.student_id)::int from submissions s where ${inWindow(assignment, start)})`;

/**
 * SQL: a window's tally, as a subquery of one row for a lateral join: `n` the distinct students
 * with a standing submission in it, `latest` the name of the one whose submission is the latest.
 */
export const windowTally = (
  assignment: SQL,
  start: SQL,
) => sql`(select count(distinct s.student_id)::int as n,
    (array_agg(who.full_name order by s.submitted_at desc, s.id desc))[1] as latest
  from submissions s join profiles who on who.id = s.student_id
  where ${inWindow(assignment, start)})`;

// Plain SQL with each table named: in a select from notifications alone, drizzle writes its columns
// unqualified, and inside the subquery "assignment_id" would then be the submission's own column.
/** SQL: the distinct students with a standing submission inside a batch's window. */
const batchCount = windowCount(sql`notifications.assignment_id`, sql`notifications.created_at`);

/** The assignment, live, with its course (the withdrawal's rule reads it). */
async function assignmentOf(tx: Tx, assignmentId: string) {
  const [row] = await tx
    .select({ title: assignments.title, courseId: courses.id })
    .from(assignments)
    .innerJoin(courses, eq(courses.id, assignments.courseId))
    .where(and(eq(assignments.id, assignmentId), isNull(assignments.deletedAt)));
  return row;
}

/** Each teacher of the assignment's course (DESIGN §20) keeps their own batches, read state and quiet hours. */
async function forEachTeacher(
  tx: Tx,
  assignmentId: string,
  work: (row: { title: string; courseId: string; teacherId: string }) => Promise<void>,
): Promise<void> {
  const row = await assignmentOf(tx, assignmentId);
  if (!row) return;
  for (const teacherId of await teacherIdsOf(tx, row.courseId)) await work({ ...row, teacherId });
}

/** The transaction lock per teacher and assignment: two submissions at one moment must not both start a batch. */
export const lockText = (teacherId: string | SQL, assignmentId: string | SQL) =>
  sql`pg_advisory_xact_lock(hashtextextended('submissions:' || ${teacherId} || ':' || ${assignmentId}, 0))`;

async function lockBatch(tx: Tx, teacherId: string, assignmentId: string) {
  await tx.execute(sql`select ${lockText(sql`${teacherId}::text`, sql`${assignmentId}::text`)}`);
}

/**
 * A submission taken back: the batches of that assignment are recounted (the event does not say
 * when the submission was made; an assignment has a handful of batches). A batch that shrank is
 * re-sent with the same id but keeps its place, read state and alert: less is not news.
 */
export async function onSubmissionWithdrawn(
  tx: Tx,
  record: RecordEvent,
  withdrawn: SubmissionWithdrawnEvent,
): Promise<void> {
  await forEachTeacher(tx, withdrawn.assignmentId, (row) => onWithdrawnFor(tx, record, withdrawn, row));
}

async function onWithdrawnFor(
  tx: Tx,
  record: RecordEvent,
  withdrawn: SubmissionWithdrawnEvent,
  row: { title: string; courseId: string; teacherId: string },
): Promise<void> {
  await lockBatch(tx, row.teacherId, withdrawn.assignmentId);
  const batches = await tx
    .select({ id: notifications.id, count: notifications.count, now: batchCount })
    .from(notifications)
    .where(
      and(
        eq(notifications.userId, row.teacherId),
        eq(notifications.assignmentId, withdrawn.assignmentId),
        eq(notifications.kind, 'submissions'),
      ),
    );
  for (const batch of batches.filter((b) => b.now !== b.count)) {
    const [updated] = await tx
      .update(notifications)
      .set({ count: batch.now, title: submissionsTitle(batch.now, row.title) })
      .where(eq(notifications.id, batch.id))
      .returning();
    record('notification:created', toNotification(updated!), [userRoom(row.teacherId)]);
  }
}
