import { and, eq, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { ErrorCode, isHeld, minutesLate } from '@classwave/shared';
import type {
  CreateSubmissionBody,
  CurrentGrade,
  GradeBody,
  OwnSubmission,
  Submission,
} from '@classwave/shared';
import type { Caller } from '../auth/caller.js';
import type { Clock } from '../clock.js';
import { isoText, type Database, type Statement, type Tx } from '../db/client.js';
import type { Outbox } from '../realtime/outbox.js';
import { audience } from '../realtime/rooms.js';
import { PG, pgCode } from '../db/errors.js';
import { assignments, courseMembers, courses, profiles, submissions } from '../db/schema.js';
import { AppError, badRequest, conflict, notFound } from '../http/errors.js';
import { found, requireActiveMember, requireStudent } from '../policies.js';
import { requireOwnerOf } from '../classes/visibility.js';
import { toOwnSubmission } from '../assignments/queries.js';
import { deleteDraft, lockStudentWork } from './drafts.js';
import { recordSubmissionEvent } from './history.js';

const ALREADY_SUBMITTED = 'You have already submitted this assignment.';
const CLOSED = 'This assignment closed at its due time, so it no longer takes submissions.';

type SubmissionRow = typeof submissions.$inferSelect;

/** The grader's profile, joined beside the student's. */
export const graders = alias(profiles, 'graders');

/**
 * The grade waits for Return (DESIGN §13, §17): given and never returned, or no longer what was
 * returned (a change back to the returned grade and feedback is not held: the student has it).
 */
export const heldNow = (
  row: Pick<SubmissionRow, 'grade' | 'feedback' | 'returnedAt' | 'returnedGrade' | 'returnedFeedback'>,
) =>
  row.grade !== null &&
  (row.returnedAt === null || row.grade !== row.returnedGrade || row.feedback !== row.returnedFeedback);

/** `heldNow` in SQL, for `submissions` rows. */
export const heldSql = sql`(${submissions.grade} is not null and (${submissions.returnedAt} is null
  or ${submissions.grade} is distinct from ${submissions.returnedGrade}
  or ${submissions.feedback} is distinct from ${submissions.returnedFeedback}))`;

/** A submission as the course's teacher sees it (and as `submission:*` events carry it). */
export const toSubmission = (
  row: SubmissionRow,
  studentName: string,
  dueDate: Date,
  graderName: string | null,
): Submission => ({
  id: row.id,
  assignmentId: row.assignmentId,
  studentId: row.studentId,
  content: row.content,
  submittedAt: row.submittedAt.toISOString(),
  grade: row.grade,
  feedback: row.feedback,
  gradedAt: row.gradedAt?.toISOString() ?? null,
  student: { id: row.studentId, fullName: studentName },
  version: row.version,
  late: minutesLate(row.submittedAt, dueDate),
  returnedAt: row.returnedAt?.toISOString() ?? null,
  held: heldNow(row),
  gradedBy: row.gradedBy ? { id: row.gradedBy, fullName: graderName ?? '' } : null,
});

/**
 * Who hears `submission:graded`: the teacher always; the student only when the grade as it now
 * stands is returned (not while held, nor when a returned grade was changed and is held again,
 * DESIGN §17), and only while an active member of the course (a removed or departed student cannot
 * open it, so neither the live event nor the "Grade returned" notification reaches them; the outbox
 * resolves the membership in the transaction). The notifications work relies on this: a student
 * learns of a released grade only by a `submission:graded` addressed to `user:<studentId>` (DESIGN §13).
 */
export const gradedAudience = (submission: Submission, teacherId: string) =>
  submission.grade !== null && !isHeld(submission)
    ? audience.memberStudentAndTeacher(submission.studentId, submission.assignmentId, teacherId)
    : audience.owner(teacherId);

/** A submission in the teacher's list, as `teacherListStatement` builds it in JSON. */
interface TeacherListItem {
  id: string;
  studentId: string;
  content: string;
  submittedAt: string;
  grade: number | null;
  feedback: string | null;
  gradedAt: string | null;
  version: number;
  returnedAt: string | null;
  held: boolean;
  gradedBy: string | null;
  studentName: string;
  graderName: string | null;
}

/** `$1` the assignment, `$2` the caller: the course's teacher, and the submissions only for them. */
const teacherListStatement: Statement = {
  name: 'submissions_of_assignment_v3',
  text: `select c.id as course_id, c.teacher_id, ${isoText('a.due_date')} as due_date,
      case when c.teacher_id = $2 then (
        select json_agg(json_build_object('id', s.id, 'studentId', s.student_id, 'content', s.content,
            'submittedAt', ${isoText('s.submitted_at')}, 'grade', s.grade, 'feedback', s.feedback,
            'gradedAt', ${isoText('s.graded_at')}, 'version', s.version,
            'returnedAt', ${isoText('s.returned_at')}, 'gradedBy', s.graded_by,
            'held', s.grade is not null and (s.returned_at is null or s.grade is distinct from s.returned_grade
              or s.feedback is distinct from s.returned_feedback),
            'studentName', p.full_name, 'graderName', g.full_name)
          order by s.submitted_at desc, s.id desc)
        from submissions s
        join profiles p on p.id = s.student_id
        left join profiles g on g.id = s.graded_by
        where s.assignment_id = a.id)::text end as subs
    from assignments a join courses c on c.id = a.course_id
    where a.id = $1 and a.deleted_at is null`,
};

/** The student's submission to the assignment made with this Idempotency-Key, if there is one. */
async function submissionWithKey(tx: Tx, assignmentId: string, studentId: string, key: string) {
  const [row] = await tx
    .select()
    .from(submissions)
    .where(
      and(
        eq(submissions.assignmentId, assignmentId),
        eq(submissions.studentId, studentId),
        eq(submissions.idempotencyKey, key),
      ),
    );
  return row;
}

/**
 * Submitting and grading a student's work. What follows a submission (the live panel, the teacher's
 * batch) hears its `submission:created` on the bus once it has committed: the answer does not wait.
 */
export function createSubmissionService({
  database,
  clock,
  outbox,
}: {
  database: Pick<Database, 'db' | 'rows'>;
  clock: Clock;
  outbox: Outbox;
}) {
  const { db } = database;
  return {
    /**
     * A student's one submission per assignment; a second (even a racing one) is a 409 (and so is a late
     * one when the assignment closes at its due time: assignment_closed), except a repeat
     * carrying the first one's Idempotency-Key, which answers that submission (`created`
     * false). The student's draft goes in the same transaction (DESIGN §12).
     */
    async submit(
      caller: Caller,
      assignmentId: string,
      body: CreateSubmissionBody,
      idempotencyKey?: string,
    ): Promise<{ submission: OwnSubmission; created: boolean }> {
      requireStudent(caller, 'submit assignments');
      // The student's name comes with the assignment check: one round trip, outside the transaction.
      const [target] = await db
        .select({
          teacherId: courses.teacherId,
          dueDate: assignments.dueDate,
          closesAtDue: assignments.closesAtDue,
          studentName: sql<string>`(select ${profiles.fullName} from ${profiles} where ${profiles.id} = ${caller.userId})`,
          membership: courseMembers.status,
        })
        .from(assignments)
        .innerJoin(courses, eq(courses.id, assignments.courseId))
        .leftJoin(
          courseMembers,
          and(eq(courseMembers.courseId, courses.id), eq(courseMembers.studentId, caller.userId)),
        )
        .where(and(eq(assignments.id, assignmentId), isNull(assignments.deletedAt)));
      requireActiveMember(target, 'submit to it');
      const { teacherId, studentName, dueDate } = target!;
      const now = clock.now();
      // A keyed repeat of a submit that made it before the due time is answered in the transaction.
      if (!idempotencyKey && target.closesAtDue && now.getTime() > dueDate.getTime())
        throw new AppError(409, ErrorCode.assignmentClosed, CLOSED);
      let own: { submission: OwnSubmission; created: boolean };
      try {
        own = await outbox.transaction(async (tx, record) => {
          // Read again under a share lock: an edit that closes the assignment or moves its due date
          // waits for this submit, or this submit sees the edit.
          const [current] = await tx
            .select({ dueDate: assignments.dueDate, closesAtDue: assignments.closesAtDue })
            .from(assignments)
            .where(and(eq(assignments.id, assignmentId), isNull(assignments.deletedAt)))
            .for('share');
          if (!current) throw notFound('Assignment not found.');
          const repeat = idempotencyKey
            ? await submissionWithKey(tx, assignmentId, caller.userId, idempotencyKey)
            : undefined;
          if (repeat) return { submission: toOwnSubmission(repeat, current.dueDate), created: false };
          if (current.closesAtDue && now.getTime() > current.dueDate.getTime())
            throw new AppError(409, ErrorCode.assignmentClosed, CLOSED);
          // A draft save racing this submit waits, or finishes first (its draft is deleted below).
          await lockStudentWork(tx, assignmentId, caller.userId);
          const [row] = await tx
            .insert(submissions)
            .values({
              assignmentId,
              studentId: caller.userId,
              content: body.content,
              submittedAt: now,
              idempotencyKey: idempotencyKey ?? null,
            })
            // Either unique index (one per assignment, one per key) means "already there".
            .onConflictDoNothing()
            .returning();
          if (!row) {
            // Lost a race: a concurrent POST with the same key inserted first (it has committed now).
            const raced = idempotencyKey
              ? await submissionWithKey(tx, assignmentId, caller.userId, idempotencyKey)
              : undefined;
            if (!raced) throw conflict(ALREADY_SUBMITTED);
            return { submission: toOwnSubmission(raced, current.dueDate), created: false };
          }
          await deleteDraft(tx, assignmentId, caller.userId);
          await recordSubmissionEvent(tx, row, 'submitted', now);
          record(
            'submission:created',
            toSubmission(row, studentName ?? '', current.dueDate, null),
            audience.studentAndTeacher(caller.userId, teacherId),
          );
          return { submission: toOwnSubmission(row, current.dueDate), created: true };
        });
      } catch (error) {
        // The assignment was deleted between the check and the insert.
        if (pgCode(error) === PG.foreignKeyViolation) throw notFound('Assignment not found.');
        throw error;
      }
      return own;
    },

    /**
     * The course's teacher sees every submission, newest first, with the student's name: one
     * prepared statement (issue 15: it was three queries through Drizzle), whose rows come only
     * when the caller teaches the course; anyone else gets the rule's 404 or 403.
     */
    async list(caller: Caller, assignmentId: string): Promise<Submission[]> {
      const [row] = await database.rows<{
        course_id: string;
        teacher_id: string;
        due_date: string;
        subs: string | null;
      }>(teacherListStatement, [assignmentId, caller.userId]);
      if (row?.teacher_id !== caller.userId)
        await requireOwnerOf(
          db,
          caller,
          row && { id: row.course_id, teacherId: row.teacher_id },
          'see its submissions',
          'Assignment',
        );
      const list = JSON.parse(row!.subs ?? '[]') as TeacherListItem[];
      return list.map((s) => ({
        id: s.id,
        assignmentId,
        studentId: s.studentId,
        content: s.content,
        submittedAt: s.submittedAt,
        grade: s.grade,
        feedback: s.feedback,
        gradedAt: s.gradedAt,
        student: { id: s.studentId, fullName: s.studentName },
        version: s.version,
        late: minutesLate(s.submittedAt, row!.due_date),
        returnedAt: s.returnedAt,
        held: s.held,
        gradedBy: s.gradedBy ? { id: s.gradedBy, fullName: s.graderName ?? '' } : null,
      }));
    },

    /**
     * The course's teacher grades (or regrades) a submission: whole points from 0 to the
     * assignment's max, written only over the version the grader started from (else 409
     * grade_conflict with the grade as it stands). The submission's row is locked for the check and
     * the write; the assignment's row is share-locked first, so max points can't drop in between.
     * With release 'auto' the grade is returned at once. A regrade of a returned grade stays
     * returned, and the student sees the new grade live (also with 'manual').
     */
    async grade(caller: Caller, submissionId: string, body: GradeBody): Promise<Submission> {
      return outbox.transaction(async (tx, record) => {
        const [target] = await tx
          .select({ assignment: assignments, course: courses })
          .from(submissions)
          .innerJoin(assignments, eq(assignments.id, submissions.assignmentId))
          .innerJoin(courses, eq(courses.id, assignments.courseId))
          .where(and(eq(submissions.id, submissionId), isNull(assignments.deletedAt)))
          .for('share', { of: assignments });
        const { assignment, course } = found(target, 'Submission');
        await requireOwnerOf(tx, caller, course, 'grade its submissions', 'Submission');
        // The row alone: after waiting for another grader's lock, PostgreSQL hands back the row as
        // that grader left it, but a row joined to it would still be as it was before (their name).
        const [before] = await tx
          .select()
          .from(submissions)
          .where(eq(submissions.id, submissionId))
          .for('update');
        if (!before) throw notFound('Submission not found.');
        if (body.grade > assignment.maxPoints) {
          throw badRequest(
            `body.grade must be at most ${assignment.maxPoints}, this assignment's max points`,
          );
        }
        if (before.version !== body.baseVersion) {
          const [grader] = before.gradedBy
            ? await tx
                .select({ fullName: profiles.fullName })
                .from(profiles)
                .where(eq(profiles.id, before.gradedBy))
            : [];
          throw gradeConflict(before, grader?.fullName ?? null);
        }
        const now = clock.now();
        // PATCH: feedback left out stays as it is (a gradebook cell sends the grade alone); null or blank clears it.
        const feedback =
          body.feedback === undefined ? before.feedback : body.feedback?.trim() ? body.feedback.trim() : null;
        const [updated] = await tx
          .update(submissions)
          .set({
            grade: body.grade,
            feedback,
            gradedAt: now,
            gradedBy: caller.userId,
            version: sql`${submissions.version} + 1`,
            // 'auto': the grade reaches the student as it is given. 'manual': it waits for Return, and
            // a change to a returned grade waits too, the student keeping the returned one (DESIGN §17).
            ...(assignment.gradeRelease === 'auto'
              ? {
                  returnedAt: now,
                  returnedGrade: body.grade,
                  returnedFeedback: feedback,
                  returnedGradedAt: now,
                }
              : {}),
          })
          .where(eq(submissions.id, submissionId))
          .returning();
        const [names] = await tx
          .select({ student: profiles.fullName, grader: graders.fullName })
          .from(profiles)
          .innerJoin(graders, eq(graders.id, caller.userId))
          .where(eq(profiles.id, updated!.studentId));
        const graded = toSubmission(
          updated!,
          names?.student ?? '',
          assignment.dueDate,
          names?.grader ?? null,
        );
        record('submission:graded', graded, gradedAudience(graded, course.teacherId));
        return graded;
      });
    },
  };
}

/** 409 grade_conflict, carrying the grade as it stands so the grader can keep theirs or take it. */
function gradeConflict(row: SubmissionRow, graderName: string | null): AppError {
  const current: CurrentGrade = {
    grade: row.grade,
    feedback: row.feedback,
    version: row.version,
    gradedBy: row.gradedBy ? { id: row.gradedBy, fullName: graderName ?? '' } : null,
    gradedAt: row.gradedAt?.toISOString() ?? null,
  };
  const who = current.gradedBy ? ` by ${current.gradedBy.fullName}` : '';
  return new AppError(
    409,
    ErrorCode.gradeConflict,
    `This grade was changed${who} since you opened it: it is now ${row.grade ?? 'ungraded'}.`,
    {},
    { current },
  );
}

export type SubmissionService = ReturnType<typeof createSubmissionService>;
