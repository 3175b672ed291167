import { and, eq, inArray, sql } from 'drizzle-orm';
import { ErrorCode, type Assignees } from '@classwave/shared';
import type { Db, Tx } from '../db/client.js';
import { assignments, courseMembers } from '../db/schema.js';
import { AppError, badRequest } from '../http/errors.js';
import { scheduleJob } from '../jobs/schedule.js';
import { assignedTo } from './visibility.js';

/** Who an assignment is for and when it is published (DESIGN §20): the rules its writes share. */

export const PUBLISH_ASSIGNMENT_KIND = 'assignment_publish';
export const publishJobKey = (assignmentId: string) => `${PUBLISH_ASSIGNMENT_KIND}:${assignmentId}`;

/**
 * The stored form of `assignees`: null for 'all', else the ids, each an active member student of
 * the course (422 assignee_not_member naming how many are not). Checked in one statement.
 */
export async function requireAssignees(
  tx: Db | Tx,
  courseId: string,
  assignees: Assignees | undefined,
): Promise<string[] | null | undefined> {
  if (assignees === undefined) return undefined;
  if (assignees === 'all') return null;
  if (assignees.length === 0) return [];
  const ids = [...new Set(assignees)];
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(courseMembers)
    .where(
      and(
        eq(courseMembers.courseId, courseId),
        eq(courseMembers.status, 'active'),
        inArray(courseMembers.studentId, ids),
      ),
    );
  const missing = ids.length - (row?.n ?? 0);
  if (missing > 0)
    throw new AppError(
      422,
      ErrorCode.assigneeNotMember,
      `${missing} of the students named ${missing === 1 ? 'is' : 'are'} not in this class.`,
    );
  return ids;
}

/**
 * The publish time asked for: undefined when none was given, null for "now" (null, or a time not
 * after `now`), else the later time.
 */
export function publishTime(publishAt: string | null | undefined, now: Date): Date | null | undefined {
  if (publishAt === undefined) return undefined;
  if (publishAt === null) return null;
  const at = new Date(publishAt);
  if (Number.isNaN(at.getTime())) throw badRequest('body.publishAt must be a valid date-time');
  return at.getTime() > now.getTime() ? at : null;
}

/** In the assignment's transaction: its publication job, at `at` (moved there when it exists). */
export async function schedulePublish(tx: Tx, assignmentId: string, at: Date): Promise<void> {
  await scheduleJob(tx, {
    kind: PUBLISH_ASSIGNMENT_KIND,
    key: publishJobKey(assignmentId),
    runAt: at,
    payload: { assignmentId },
  });
}

/** The course's active members who see the assignment now (the one condition), for an edit's before/after. */
export async function assignedStudents(tx: Tx, assignmentId: string): Promise<Set<string>> {
  const rows = await tx
    .select({ id: courseMembers.studentId })
    .from(assignments)
    .innerJoin(courseMembers, eq(courseMembers.courseId, assignments.courseId))
    .where(
      and(
        eq(assignments.id, assignmentId),
        eq(courseMembers.status, 'active'),
        assignedTo(courseMembers.studentId),
      ),
    );
  return new Set(rows.map((r) => r.id));
}
