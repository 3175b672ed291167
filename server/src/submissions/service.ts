import { and, desc, eq, sql } from 'drizzle-orm';
import { ErrorCode } from '@classwave/shared';
import type { CreateSubmissionBody, GradeBody, OwnSubmission, Submission } from '@classwave/shared';
import type { Caller } from '../auth/service.js';
import type { Clock } from '../clock.js';
import type { Db, Tx } from '../db/client.js';
import type { Outbox } from '../realtime/outbox.js';
import { audience } from '../realtime/rooms.js';
import { PG, pgCode } from '../db/errors.js';
import { assignments, courseMembers, courses, profiles, submissions } from '../db/schema.js';
import { AppError, badRequest, conflict } from '../http/errors.js';
import { found, requireStudent } from '../policies.js';
import { requireOwnerOf } from '../classes/visibility.js';

const ALREADY_SUBMITTED = 'You have already submitted this assignment.';
const NOT_A_MEMBER = 'You are no longer a member of this course, so you cannot submit to it.';

type SubmissionRow = typeof submissions.$inferSelect;
const toSubmission = (row: SubmissionRow, studentName: string): Submission => ({
  id: row.id,
  assignmentId: row.assignmentId,
  studentId: row.studentId,
  content: row.content,
  submittedAt: row.submittedAt.toISOString(),
  grade: row.grade,
  feedback: row.feedback,
  gradedAt: row.gradedAt?.toISOString() ?? null,
  student: { id: row.studentId, fullName: studentName },
});

export function createSubmissionService({ db, clock, outbox }: { db: Db; clock: Clock; outbox: Outbox }) {
  /** The assignment with its course, for permission checks. */
  async function assignmentWithCourse(tx: Db | Tx, assignmentId: string) {
    const [row] = await tx
      .select({ assignment: assignments, course: courses })
      .from(assignments)
      .innerJoin(courses, eq(courses.id, assignments.courseId))
      .where(eq(assignments.id, assignmentId));
    return found(row, 'Assignment');
  }

  return {
    /** A student's one submission per assignment; a second (even a racing one) is a 409. */
    async submit(caller: Caller, assignmentId: string, body: CreateSubmissionBody): Promise<OwnSubmission> {
      requireStudent(caller, 'submit assignments');
      // The student's name comes with the assignment check: one round trip, outside the transaction.
      const [target] = await db
        .select({
          teacherId: courses.teacherId,
          studentName: sql<string>`(select ${profiles.fullName} from ${profiles} where ${profiles.id} = ${caller.userId})`,
          membership: courseMembers.status,
        })
        .from(assignments)
        .innerJoin(courses, eq(courses.id, assignments.courseId))
        .leftJoin(
          courseMembers,
          and(eq(courseMembers.courseId, courses.id), eq(courseMembers.studentId, caller.userId)),
        )
        .where(eq(assignments.id, assignmentId));
      // Never a member: the assignment is not there for them (404). A former member knows it is (403).
      if (!target?.membership) throw found(undefined, 'Assignment');
      if (target.membership !== 'active') throw new AppError(403, ErrorCode.notAMember, NOT_A_MEMBER);
      const { teacherId, studentName } = target;
      try {
        return await outbox.transaction(async (tx, record) => {
          const [row] = await tx
            .insert(submissions)
            .values({
              assignmentId,
              studentId: caller.userId,
              content: body.content,
              submittedAt: clock.now(),
            })
            .onConflictDoNothing({ target: [submissions.assignmentId, submissions.studentId] })
            .returning();
          if (!row) throw conflict(ALREADY_SUBMITTED);
          record(
            'submission:created',
            toSubmission(row, studentName ?? ''),
            audience.studentAndTeacher(caller.userId, teacherId),
          );
          return {
            id: row.id,
            submittedAt: row.submittedAt.toISOString(),
            grade: null,
            feedback: null,
            gradedAt: null,
          };
        });
      } catch (error) {
        // The assignment was deleted between the check and the insert.
        if (pgCode(error) === PG.foreignKeyViolation) throw found(undefined, 'Assignment');
        throw error;
      }
    },

    /** The course's teacher sees every submission, newest first, with the student's name. */
    async list(caller: Caller, assignmentId: string): Promise<Submission[]> {
      const { course } = await assignmentWithCourse(db, assignmentId);
      await requireOwnerOf(db, caller, course, 'see its submissions', 'Assignment');
      const rows = await db
        .select({ submission: submissions, studentName: profiles.fullName })
        .from(submissions)
        .innerJoin(profiles, eq(profiles.id, submissions.studentId))
        .where(eq(submissions.assignmentId, assignmentId))
        .orderBy(desc(submissions.submittedAt), desc(submissions.id));
      return rows.map((r) => toSubmission(r.submission, r.studentName));
    },

    /** The course's teacher grades (or regrades) a submission: whole points from 0 to the assignment's max. */
    async grade(caller: Caller, submissionId: string, body: GradeBody): Promise<Submission> {
      return outbox.transaction(async (tx, record) => {
        const [row] = await tx
          .select({
            submission: submissions,
            assignment: assignments,
            course: courses,
            studentName: profiles.fullName,
          })
          .from(submissions)
          .innerJoin(assignments, eq(assignments.id, submissions.assignmentId))
          .innerJoin(courses, eq(courses.id, assignments.courseId))
          .innerJoin(profiles, eq(profiles.id, submissions.studentId))
          .where(eq(submissions.id, submissionId))
          .for('update', { of: submissions });
        const { assignment, course, studentName } = found(row, 'Submission');
        await requireOwnerOf(tx, caller, course, 'grade its submissions', 'Submission');
        if (body.grade > assignment.maxPoints) {
          throw badRequest(
            `body.grade must be at most ${assignment.maxPoints}, this assignment's max points`,
          );
        }
        const feedback = body.feedback?.trim() ? body.feedback.trim() : null;
        const [updated] = await tx
          .update(submissions)
          .set({ grade: body.grade, feedback, gradedAt: clock.now() })
          .where(eq(submissions.id, submissionId))
          .returning();
        const graded = toSubmission(updated!, studentName);
        record('submission:graded', graded, audience.studentAndTeacher(graded.studentId, course.teacherId));
        return graded;
      });
    },
  };
}

export type SubmissionService = ReturnType<typeof createSubmissionService>;
