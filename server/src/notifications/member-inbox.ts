import { and, eq, isNull } from 'drizzle-orm';
import type { Tx } from '../db/client.js';
import { assignments, courses } from '../db/schema.js';
import { scheduleJob, type JobHandler } from '../jobs/schedule.js';
import { assignmentLink, formatDue, storeForMembers } from './store.js';

/**
 * A new assignment's inbox entry for every member of its class (DESIGN §14), written right after
 * the assignment commits rather than inside it (issue 15): one row per member made the teacher's
 * transaction, and so the class's `assignment:created`, wait for the whole roster (about 230 ms for
 * a class of 4,950 in bench S8, most of S3's event latency). The assignment's transaction schedules
 * this job, and the notifications module's bus subscriber runs it once committed (module.ts); the
 * poller runs it a minute later if the process died first. Claimed with SKIP LOCKED and marked done with the rows it
 * writes, it writes them once.
 */

export const MEMBER_INBOX_KIND = 'member_inbox';
/** When the poller takes over a job this process did not run right after the commit. */
const NET_MS = 60_000;

/** The job's key: one per assignment. */
export const memberInboxKey = (assignmentId: string) => `${MEMBER_INBOX_KIND}:${assignmentId}`;

/** In the assignment's transaction: the job, run right after the commit. */
export async function scheduleMemberInbox(tx: Tx, assignmentId: string, now: Date): Promise<void> {
  await scheduleJob(tx, {
    kind: MEMBER_INBOX_KIND,
    key: memberInboxKey(assignmentId),
    runAt: new Date(now.getTime() + NET_MS),
    payload: { assignmentId },
  });
}

export const memberInboxJobs: Readonly<Record<string, JobHandler>> = {
  async [MEMBER_INBOX_KIND](job, { tx, now }) {
    const assignmentId = (job.payload as { assignmentId?: unknown }).assignmentId;
    if (typeof assignmentId !== 'string') return { done: true };
    const [row] = await tx
      .select({
        title: assignments.title,
        dueDate: assignments.dueDate,
        courseId: courses.id,
        courseTitle: courses.title,
      })
      .from(assignments)
      .innerJoin(courses, eq(courses.id, assignments.courseId))
      .where(and(eq(assignments.id, assignmentId), isNull(assignments.deletedAt)));
    if (!row) return { done: true }; // deleted before its entries were written: none are due
    await storeForMembers(
      tx,
      now,
      row.courseId,
      {
        kind: 'assignment_created',
        title: `New assignment in ${row.courseTitle}: ${row.title}`,
        link: assignmentLink(assignmentId),
        courseId: row.courseId,
        assignmentId,
      },
      (timeZone) => `Due ${formatDue(row.dueDate, timeZone)}`,
    );
    return { done: true };
  },
};
