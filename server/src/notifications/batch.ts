import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import { inQuietHours, SUBMISSION_BATCH_MINUTES, type SubmissionWithdrawnEvent } from '@classwave/shared';
import type { Tx } from '../db/client.js';
import { assignments, courses, notifications } from '../db/schema.js';
import type { RecordEvent } from '../events.js';
import { teacherIdsOf } from '../courses/teaching.js';
import { userRoom } from '../realtime/rooms.js';
import { assignmentLink, settingsOf, storeNotifications, toNotification } from './store.js';

/**
 * A teacher's "new submissions" notification, batched per assignment: at most one per
 * SUBMISSION_BATCH_MINUTES. A batch starts at its first submission (its createdAt is that
 * submission's time) and takes those made within the window after it. Its count is the students
 * whose submission in that window still stands: a submission taken back leaves it, and a student who
 * takes theirs back and submits again counts once.
 */

const WINDOW_MS = SUBMISSION_BATCH_MINUTES * 60_000;

export const submissionsTitle = (count: number, title: string) =>
  count === 0
    ? `Submission taken back: ${title}`
    : count === 1
      ? `New submission: ${title}`
      : `${count} new submissions: ${title}`;

// Plain SQL with each table named: in a select from notifications alone, drizzle writes its columns
// unqualified, and inside the subquery "assignment_id" would then be the submission's own column.
const WINDOW_SQL = sql`s.assignment_id = notifications.assignment_id
  and s.submitted_at >= notifications.created_at
  and s.submitted_at < notifications.created_at + make_interval(secs => ${WINDOW_MS / 1000})`;

/** SQL: the distinct students with a standing submission inside a batch's window. */
const batchCount = sql<number>`(select count(distinct s.student_id)::int from submissions s where ${WINDOW_SQL})`;

/** SQL: the student whose standing submission is the latest inside a batch's window. */
const batchLatest = sql<string | null>`(select p.full_name from submissions s
  join profiles p on p.id = s.student_id
  where ${WINDOW_SQL}
  order by s.submitted_at desc, s.id desc limit 1)`;

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

/** Two submissions at one moment must not both start a batch: a transaction lock per teacher and assignment. */
async function lockBatch(tx: Tx, teacherId: string, assignmentId: string) {
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`submissions:${teacherId}:${assignmentId}`}, 0))`,
  );
}

/**
 * A submission: it joins the open batch (recounted; when that grows it is news again — unread, on
 * top, alerting unless in the teacher's quiet hours — and re-sent with the same id), or starts one.
 */
export async function onSubmissionCreated(
  tx: Tx,
  record: RecordEvent,
  now: Date,
  submission: { assignmentId: string; submittedAt: string; student: { fullName: string } },
): Promise<void> {
  await forEachTeacher(tx, submission.assignmentId, (row) =>
    onSubmissionFor(tx, record, now, submission, row),
  );
}

async function onSubmissionFor(
  tx: Tx,
  record: RecordEvent,
  now: Date,
  submission: { assignmentId: string; submittedAt: string; student: { fullName: string } },
  row: { title: string; courseId: string; teacherId: string },
): Promise<void> {
  await lockBatch(tx, row.teacherId, submission.assignmentId);
  const submittedAt = new Date(submission.submittedAt);
  const [found] = await tx
    .select({ id: notifications.id, createdAt: notifications.createdAt })
    .from(notifications)
    .where(
      and(
        eq(notifications.userId, row.teacherId),
        eq(notifications.assignmentId, submission.assignmentId),
        eq(notifications.kind, 'submissions'),
        gt(notifications.createdAt, new Date(submittedAt.getTime() - WINDOW_MS)),
      ),
    )
    .orderBy(desc(notifications.createdAt))
    .limit(1);
  // Submissions commit in any order: one stamped before the batch's start (it was made first, and
  // committed after the one that started the batch) moves the start back, so the window holds it.
  if (found && submittedAt < found.createdAt)
    await tx.update(notifications).set({ createdAt: submittedAt }).where(eq(notifications.id, found.id));
  const [open] = found
    ? await tx
        .select({
          id: notifications.id,
          count: notifications.count,
          body: notifications.body,
          now: batchCount,
          latest: batchLatest,
        })
        .from(notifications)
        .where(eq(notifications.id, found.id))
    : [];
  if (open) {
    const grew = open.now > open.count;
    // The entry names the latest submission in its window, whichever run applies it: submissions
    // are applied after they commit (submission-batches.ts), so one run's recount may already hold
    // the next one's submission, and a job applied twice (a crash between) finds nothing new.
    const body = `Latest: ${open.latest ?? submission.student.fullName}`;
    // Nothing changed: no new version to send (a tab would see the same entry twice).
    if (open.now === open.count && body === open.body) return;
    const settings = (await settingsOf(tx, [row.teacherId])).get(row.teacherId)!;
    const [updated] = await tx
      .update(notifications)
      .set({
        count: open.now,
        title: submissionsTitle(open.now, row.title),
        body,
        ...(grew ? { updatedAt: now, readAt: null, alert: !inQuietHours(now, settings.quietHours) } : {}),
      })
      .where(eq(notifications.id, open.id))
      .returning();
    record('notification:created', toNotification(updated!), [userRoom(row.teacherId)]);
    return;
  }
  // The batch's createdAt is its first submission's time, so the window's count includes it.
  await storeNotifications(tx, record, submittedAt, [
    {
      userId: row.teacherId,
      kind: 'submissions',
      title: submissionsTitle(1, row.title),
      body: `Latest: ${submission.student.fullName}`,
      link: assignmentLink(submission.assignmentId),
      courseId: row.courseId,
      assignmentId: submission.assignmentId,
    },
  ]);
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
