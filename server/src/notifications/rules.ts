import { and, eq, isNull } from 'drizzle-orm';
import { assignments, courses } from '../db/schema.js';
import { restoredNow } from '../bin/store.js';
import type { OutboxRules } from '../realtime/outbox.js';
import { coTeachersRoom, toItsStudents, userRoom } from '../realtime/rooms.js';
import { onSubmissionWithdrawn } from './batch.js';
import { scheduleMemberInbox } from './member-inbox.js';
import { cancelReminders, rescheduleReminders, scheduleReminders } from './reminders.js';
import { storeGradeNotification } from './grade-notes.js';
import { assignmentLink, storeNotifications } from './store.js';

/**
 * Notifications derived from the domain events (DESIGN §14), one small rule per event type; a new
 * event type plugs in with a new entry. Rules run inside the transaction that made the change, so a
 * notification exists exactly when its change committed; work that grows with the class is a job
 * of that transaction, run right after it commits by the module's bus subscriber (module.ts), and
 * by the poller if the process died first.
 */
export const notificationRules: OutboxRules = {
  /**
   * Each active member of the course, in one statement and with no event of its own: the members'
   * tabs hear this `assignment:created` and load their inbox a moment later. The reminders are
   * scheduled for the due date.
   */
  async 'assignment:created'(assignment, { tx, now, audience }) {
    // The teacher's view (with counts) is a separate event of the same change: act on the members' one.
    if (!toItsStudents(assignment, audience)) return;
    // A restore from the bin (DESIGN §17) tells nobody it is new: the class was told when it was
    // made. Its reminders, cancelled when it was binned, are scheduled again below.
    // A row per member, right after the commit: the class hears the assignment without waiting
    // for them (member-inbox.ts).
    if (!(await restoredNow(tx, 'assignment', assignment.id)))
      await scheduleMemberInbox(tx, assignment.id, now);
    await scheduleReminders(tx, assignment.id, new Date(assignment.dueDate), now);
  },

  async 'assignment:deleted'({ id, courseId }, { tx, audience }) {
    // The deletion its teachers hear, not a student left out by an edit (DESIGN §20).
    if (!audience.includes(coTeachersRoom(courseId))) return;
    await cancelReminders(tx, id);
  },

  /**
   * An edit (DESIGN §13): its reminders follow the due date, in the edit's own transaction. Only
   * the members' view counts (an excusal's one-student view is not an edit).
   */
  async 'assignment:updated'(assignment, { tx, now, audience }) {
    if (!toItsStudents(assignment, audience)) return;
    await rescheduleReminders(tx, assignment.id, now);
  },

  /**
   * The student, when the grade reaches them: only the event addressed to their own room counts.
   * By that convention a held grade reaches them only on return, and a former member never (the
   * outbox has already resolved the audience's membership room, member-rooms.ts).
   */
  async 'submission:graded'(submission, { tx, record, now, audience }) {
    if (!audience.includes(userRoom(submission.studentId))) return;
    const [row] = await tx
      .select({
        title: assignments.title,
        maxPoints: assignments.maxPoints,
        courseId: courses.id,
        courseTitle: courses.title,
      })
      .from(assignments)
      .innerJoin(courses, eq(courses.id, assignments.courseId))
      .where(and(eq(assignments.id, submission.assignmentId), isNull(assignments.deletedAt)));
    if (!row) return;
    const points = submission.grade === null ? '' : ` · ${submission.grade} points out of ${row.maxPoints}`;
    await storeGradeNotification(tx, record, now, {
      userId: submission.studentId,
      title: row.title,
      body: `${row.courseTitle}${points}`,
      link: assignmentLink(submission.assignmentId),
      courseId: row.courseId,
      assignmentId: submission.assignmentId,
    });
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

  // 'submission:created': the course's teachers hear it batched per assignment (batch.ts), applied
  // just after the commit; the job that guarantees it is written by the submit's own statement
  // (batchUpdateJob, submission-batches.ts), not by a rule here: a round trip less (issue 30).

  /** A submission taken back leaves its batch's count (batch.ts). */
  async 'submission:withdrawn'(withdrawn, { tx, record }) {
    await onSubmissionWithdrawn(tx, record, withdrawn);
  },
};
