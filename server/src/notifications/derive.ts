import { eq } from 'drizzle-orm';
import type { LiveEventData, LiveEventType } from '@classwave/shared';
import type { Clock } from '../clock.js';
import type { Tx } from '../db/client.js';
import { assignments, courses } from '../db/schema.js';
import type { PendingEvent, RecordEvent } from '../realtime/outbox.js';
import { courseRoom, userRoom } from '../realtime/rooms.js';
import { cancelAssignment, rescheduleAssignment, scheduleAssignment } from './schedule.js';
import { onSubmissionWithdrawn } from './batch.js';
import { scheduleBatchUpdate } from './submission-batches.js';
import { bumpCourseSequences } from './revisions.js';
import { scheduleMemberInbox } from './member-inbox.js';
import { assignmentLink, storeNotifications } from './store.js';

interface DeriveContext {
  tx: Tx;
  record: RecordEvent;
  now: Date;
  /** The rooms the domain event went to. */
  audience: string[];
  /** Run this scheduled job right after the commit, not at its time (outbox.ts). */
  soon: (jobKey: string) => void;
}
type Rule<T extends LiveEventType> = (data: LiveEventData[T], context: DeriveContext) => Promise<void>;
type Rules = { [T in LiveEventType]?: Rule<T> };

/**
 * Notifications derived from the domain events (DESIGN §14), one small rule per event type; a new
 * event type plugs in with a new entry. Rules run inside the transaction that made the change, so a
 * notification exists exactly when its change committed; work that grows with the class is a job
 * of that transaction run right after it commits (once, by the poller if the process died).
 */
const rules: Rules = {
  /**
   * Each active member of the course, in one statement and with no event of its own: the members'
   * tabs hear this `assignment:created` and load their inbox a moment later. The reminders are
   * scheduled for the due date.
   */
  async 'assignment:created'(assignment, { tx, now, audience, soon }) {
    // The teacher's view (with counts) is a separate event of the same change: act on the members' one.
    if (!audience.includes(courseRoom(assignment.courseId))) return;
    // A row per member, right after the commit: the class hears the assignment without waiting
    // for them (member-inbox.ts).
    soon(await scheduleMemberInbox(tx, assignment.id, now));
    await scheduleAssignment(tx, assignment.id, new Date(assignment.dueDate), now);
  },

  async 'assignment:deleted'({ id }, { tx }) {
    await cancelAssignment(tx, id);
  },

  /**
   * An edit (DESIGN §13): its reminders follow the due date and its calendar SEQUENCE grows, in the
   * edit's own transaction. Only the members' view counts (an excusal's one-student view is not an edit).
   */
  async 'assignment:updated'(assignment, { tx, now, audience }) {
    if (!audience.includes(courseRoom(assignment.courseId))) return;
    await rescheduleAssignment(tx, assignment.id, now);
  },

  /**
   * A course edit as its members see it (a rename changes every assignment's SUMMARY in the feed):
   * their SEQUENCE grows. The teacher's own view of the same edit, and a join-code reset, go to the
   * teacher alone and change nothing in the feed.
   */
  async 'course:updated'(course, { tx, audience }) {
    if (!audience.includes(courseRoom(course.id))) return;
    await bumpCourseSequences(tx, course.id);
  },

  /**
   * The student, when the grade reaches them: only the event addressed to their own room counts.
   * By that convention a held grade reaches them only on return, and a former member never (the
   * outbox has already resolved the audience's membership room, member-rooms.ts).
   */
  async 'submission:graded'(submission, { tx, record, now, audience }) {
    if (!audience.includes(userRoom(submission.studentId))) return;
    const [row] = await tx
      .select({ title: assignments.title, courseId: courses.id, courseTitle: courses.title })
      .from(assignments)
      .innerJoin(courses, eq(courses.id, assignments.courseId))
      .where(eq(assignments.id, submission.assignmentId));
    if (!row) return;
    await storeNotifications(tx, record, now, [
      {
        userId: submission.studentId,
        kind: 'grade_returned',
        title: `Grade returned: ${row.title}`,
        body: `${row.courseTitle}${submission.grade === null ? '' : ` · ${submission.grade} points`}`,
        link: assignmentLink(submission.assignmentId),
        courseId: row.courseId,
        assignmentId: submission.assignmentId,
      },
    ]);
  },

  async 'member:removed'({ course, member }, { tx, record, now }) {
    await storeNotifications(tx, record, now, [
      {
        userId: member.student.id,
        kind: 'removed_from_course',
        title: `You were removed from ${course.title}`,
        body: 'Your submissions are kept; the teacher can restore you.',
        link: '/courses',
        courseId: course.id,
      },
    ]);
  },

  /**
   * The course's teacher, batched per assignment (batch.ts), applied just after the commit: here
   * only the job that guarantees it (submission-batches.ts).
   */
  async 'submission:created'(submission, { tx, now }) {
    await scheduleBatchUpdate(tx, submission.id, now);
  },

  /** A submission taken back leaves its batch's count (batch.ts). */
  async 'submission:withdrawn'(withdrawn, { tx, record }) {
    await onSubmissionWithdrawn(tx, record, withdrawn);
  },
};

/** The outbox's deriver: runs each pending event's rule and returns the events those recorded. */
export function createDeriver(clock: Clock) {
  return async (
    tx: Tx,
    pending: readonly PendingEvent[],
    soon: (jobKey: string) => void = () => {},
  ): Promise<PendingEvent[]> => {
    const derived: PendingEvent[] = [];
    const record: RecordEvent = (type, data, audience) => void derived.push({ type, data, audience });
    const now = clock.now();
    for (const event of pending) {
      const rule = rules[event.type] as Rule<LiveEventType> | undefined;
      if (rule)
        await rule(event.data as LiveEventData[LiveEventType], {
          tx,
          record,
          now,
          audience: event.audience,
          soon,
        });
    }
    return derived;
  };
}
export type Deriver = ReturnType<typeof createDeriver>;
