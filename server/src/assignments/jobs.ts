import { eq } from 'drizzle-orm';
import { assignments, courses } from '../db/schema.js';
import type { JobHandler, JobOutcome } from '../jobs/schedule.js';
import { PUBLISH_ASSIGNMENT_KIND } from './assigning.js';
import type { AssignmentService } from './service.js';

const DONE: JobOutcome = { done: true };
/** How often a scheduled assignment of an archived course, or in the bin, looks again whether it is back. */
const ARCHIVED_RETRY_MS = 3600_000;

/**
 * A scheduled assignment published at its time (DESIGN §20), as conversations/jobs.ts publishes a
 * scheduled post: one transaction per job, and `publish` sets published_at only where it is null,
 * so two runners racing publish it once and tell its students once.
 */
export function assignmentJobs(service: AssignmentService): Record<string, JobHandler> {
  return {
    async [PUBLISH_ASSIGNMENT_KIND](job, { tx, record, now }) {
      const assignmentId = String(job.payload.assignmentId);
      const [row] = await tx
        .select({
          publishAt: assignments.publishAt,
          publishedAt: assignments.publishedAt,
          deletedAt: assignments.deletedAt,
          archivedAt: courses.archivedAt,
        })
        .from(assignments)
        .innerJoin(courses, eq(courses.id, assignments.courseId))
        .where(eq(assignments.id, assignmentId));
      // Purged from the bin, or out already (by an edit's "publish now", or an earlier run).
      if (!row || row.publishedAt) return DONE;
      // Moved later since the job was set: wait for the new time.
      if (row.publishAt && row.publishAt > now) return { runAt: row.publishAt };
      // Its course is archived, so read-only (DESIGN §20): it waits, and goes out once unarchived.
      // In the bin it waits the same way, so a restore finds it still scheduled.
      if (row.archivedAt || row.deletedAt) return { runAt: new Date(now.getTime() + ARCHIVED_RETRY_MS) };
      await service.publish(tx, record, assignmentId, now);
      return DONE;
    },
  };
}
