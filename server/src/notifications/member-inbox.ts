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
 *
 * A new assignment for at most INBOX_IN_THE_WRITE students writes their entries in its own write
 * instead (assignments/create.ts; issue 30, DESIGN §22: a write in three round trips, with its
 * audience's inbox rows): a class's few rows cost its event less than this job's own transaction
 * after the commit costs the teacher's answer. Publishing a scheduled one still goes through the job.
 */

export const MEMBER_INBOX_KIND = 'member_inbox';
/**
 * The most students a new assignment tells in its own write (a class is about 28, DESIGN §22);
 * beyond, the job after the commit, so a lecture of thousands (bench S3) does not hold its event.
 */
export const INBOX_IN_THE_WRITE = 100;
/** When the poller takes over a job this process did not run right after the commit. */
const NET_MS = 60_000;

/**
 * A new assignment's inbox entry, as each of its students reads it: the due date in their own
 * zone (`bodyIn`). Written by this job, or by a new assignment's own write for a class up to
 * INBOX_IN_THE_WRITE (assignments/create.ts).
 */
export function newAssignmentEntry(
  row: { id: string; title: string; dueDate: Date; courseId: string },
  courseTitle: string,
) {
  return {
    item: {
      kind: 'assignment_created' as const,
      title: `New assignment in ${courseTitle}: ${row.title}`,
      link: assignmentLink(row.id),
      courseId: row.courseId,
      assignmentId: row.id,
    },
    bodyIn: (timeZone: string) => `Due ${formatDue(row.dueDate, timeZone)}`,
  };
}

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
    const { item, bodyIn } = newAssignmentEntry({ id: assignmentId, ...row }, row.courseTitle);
    await storeForMembers(tx, now, row.courseId, item, bodyIn);
    return { done: true };
  },
};
