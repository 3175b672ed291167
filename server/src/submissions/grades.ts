import { and, eq, isNull, sql } from 'drizzle-orm';
import {
  ErrorCode,
  type CurrentGrade,
  type GradeBody,
  type Notification,
  type Submission,
} from '@classwave/shared';
import type { Caller } from '../auth/caller.js';
import type { Clock } from '../clock.js';
import { txQuery, type Tx } from '../db/client.js';
import { assignments, courses, profiles, submissions } from '../db/schema.js';
import type { RecordEvent } from '../events.js';
import { AppError, badRequest } from '../http/errors.js';
import type { Outbox } from '../realtime/outbox.js';
import { requireTeacherOfAssignment } from '../classes/visibility.js';
import { scoresForGrade } from '../rubrics/scores.js';
import { gradedAudience, gradedAudienceOf, graders, toSubmission } from './views.js';
import {
  gradeStanding,
  studentGradeStanding,
  type GradedAssignment,
  type GradeReach,
} from './grade-standing.js';
import { submissionFromJson, type SubmissionJson } from './rules.js';
import { userRoom } from '../realtime/rooms.js';
import { gradeNotificationWrite, planGradeNotification } from '../notifications/grade-notes.js';
import { assignmentLink, notificationFromJson } from '../notifications/store.js';

type SubmissionRow = typeof submissions.$inferSelect;

/** The version of a student's work on an assignment before anything was written: no row at all. */
const NO_ROW: CurrentGrade = {
  grade: null,
  feedback: null,
  version: 0,
  gradedBy: null,
  gradedAt: null,
  rubricScores: null,
};

/**
 * Grade writes by the course's teacher (DESIGN §13, §17): a submission by its id, or any student's
 * work on an assignment, submitted or not (a grade for missing work makes a graded row with no
 * submission). Both go through `writeGrade`, so the version check, the held-grade release rules,
 * the audit columns and the live event are one code path.
 */
export function createGradeWrites({ clock, outbox }: { clock: Clock; outbox: Outbox }) {
  /**
   * Writes the grade over the row (locked for the check and the write; the caller has share-locked
   * the assignment's row, so max points can't drop in between): whole points from 0 to the
   * assignment's max, only over the version the grader started from (else 409 grade_conflict with
   * the grade as it stands). With release 'auto' the grade is returned at once; with 'manual' it
   * waits for Return, and a change to a returned one waits again (DESIGN §17).
   */
  async function writeGrade(
    tx: Tx,
    record: RecordEvent,
    caller: Caller,
    target: {
      assignment: GradedAssignment;
      course: { id: string; teacherId: string };
      /** The student's membership as the standing read it (share-locked), when it did. */
      studentActive?: boolean;
      /** What the standing read for a grade reaching the student, when it did. */
      reach?: GradeReach;
    },
    before: SubmissionRow,
    names: { student?: string; grader?: string | null; caller?: string },
    body: GradeBody,
    now: Date,
  ): Promise<Submission> {
    const { assignment, course } = target;
    if (body.grade > assignment.maxPoints) {
      throw badRequest(`body.grade must be at most ${assignment.maxPoints}, this assignment's max points`);
    }
    const rubricScores = scoresForGrade(assignment.rubric, body, before.rubricScores);
    if (before.version !== body.baseVersion)
      throw names.grader === undefined
        ? await conflictOver(tx, before)
        : gradeConflict(currentGrade(before, names.grader));
    // PATCH: feedback left out stays as it is (a gradebook cell sends the grade alone); null or blank clears it.
    const feedback =
      body.feedback === undefined ? before.feedback : body.feedback?.trim() ? body.feedback.trim() : null;
    const known = names.student !== undefined && names.caller !== undefined;
    const update = tx
      .update(submissions)
      .set({
        grade: body.grade,
        feedback,
        rubricScores,
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
              returnedRubricScores: rubricScores,
            }
          : {}),
      })
      .where(eq(submissions.id, before.id))
      .returning();
    // On 'auto' the grade reaches an active member now: when the standing read what that takes, this
    // statement also writes their "grade returned" entry, and the rules have nothing left to do.
    const reach =
      target.reach && target.studentActive && assignment.gradeRelease === 'auto' ? target.reach : undefined;
    const told = reach && {
      reach,
      plan: planGradeNotification(reach.last, reach.settings, now, {
        userId: before.studentId,
        title: reach.assignmentTitle,
        body: `${reach.courseTitle} · ${body.grade} points out of ${assignment.maxPoints}`,
        link: assignmentLink(before.assignmentId),
        courseId: course.id,
        assignmentId: before.assignmentId,
      }),
    };
    let updated: SubmissionRow | undefined;
    let note: Notification | undefined;
    // Named (issue 30): parsed and planned once per connection, each variant (release, entry) apart.
    if (told) {
      const [both] = await txQuery<{ g: string; n: string | null }>(
        tx,
        'grade_write_told',
        sql`with g as ${update}, n as ${gradeNotificationWrite(tx, told.plan)}
          select (select row_to_json(g)::text from g) as g, (select row_to_json(n)::text from n) as n`,
      );
      updated = submissionFromJson(JSON.parse(both!.g) as SubmissionJson);
      note = both!.n === null ? undefined : notificationFromJson(both!.n);
    } else {
      const [only] = await txQuery<{ g: string }>(
        tx,
        'grade_write',
        sql`with g as ${update} select row_to_json(g)::text as g from g`,
      );
      updated = only && submissionFromJson(JSON.parse(only.g) as SubmissionJson);
    }
    // The names come with the standing when it read them (issue 30: a grade in three statements).
    const [read] = known
      ? [{ student: names.student!, grader: names.caller! }]
      : await tx
          .select({ student: profiles.fullName, grader: graders.fullName })
          .from(profiles)
          .innerJoin(graders, eq(graders.id, caller.userId))
          .where(eq(profiles.id, updated!.studentId));
    const graded = toSubmission(updated!, read?.student ?? '', assignment.dueDate, read?.grader ?? null);
    const heard =
      target.studentActive === undefined
        ? gradedAudience(graded, course)
        : gradedAudienceOf(graded, course, target.studentActive);
    if (!told) {
      record('submission:graded', graded, heard);
      return graded;
    }
    // What the files and notifications rules would have recorded for it, in their order.
    record('submission:graded', graded, heard, { derived: true });
    const student = userRoom(before.studentId);
    for (const { file, courseId } of told.reach.feedback)
      record(
        'file:ready',
        {
          file,
          purpose: 'feedback',
          assignmentId: before.assignmentId,
          courseId,
          studentId: before.studentId,
        },
        [student],
      );
    if (note) record('notification:created', note, [student]);
    return graded;
  }

  return {
    /** The course's teacher grades (or regrades) a submission by its id. */
    async grade(caller: Caller, submissionId: string, body: GradeBody): Promise<Submission> {
      return outbox.transaction(async (tx, record) => {
        const now = clock.now();
        const { assignment, course, row, names, studentActive, reach } = await gradeStanding(
          tx,
          caller,
          submissionId,
          now,
        );
        return writeGrade(
          tx,
          record,
          caller,
          { assignment, course, studentActive, reach },
          row,
          names,
          body,
          now,
        );
      });
    },

    /**
     * The course's teacher grades an active member's work on an assignment, whether or not they
     * submitted (DESIGN §17). With no row yet (nothing submitted), the grade makes one with no
     * submission, over version 0; the student may still submit while the assignment is open, and
     * the submit fills that row in, keeping the grade. Anyone else learns nothing of the assignment
     * (404, or 403 for a member student); a student who is not an active member is a 404 naming it.
     */
    async gradeStudent(
      caller: Caller,
      assignmentId: string,
      studentId: string,
      body: GradeBody,
    ): Promise<Submission> {
      return outbox.transaction(async (tx, record) => {
        const now = clock.now();
        // One statement for the standing (issue 30): three in all when the student has a row.
        const standing = await studentGradeStanding(tx, caller, assignmentId, studentId, now);
        const { assignment, course, names, studentActive, reach } = standing;
        let before = standing.row;
        if (!before) {
          if (body.baseVersion !== NO_ROW.version) throw gradeConflict(NO_ROW);
          // Excused work counts nowhere (DESIGN §17): a grade for it would count; take the excuse back first.
          if (standing.excused)
            throw new AppError(
              409,
              ErrorCode.conflict,
              'This student is excused from this assignment: take the excuse back before grading missing work.',
            );
          // The row is born graded (no submission and no grade is no row at all); writeGrade then
          // writes the grade as for any other row, so the version, release and event are the same.
          [before] = await tx
            .insert(submissions)
            .values({ assignmentId, studentId, content: null, submittedAt: null, grade: body.grade })
            .onConflictDoNothing()
            .returning();
          // A submit (or another grader) got there first and has committed: this grader saw no work
          // and no grade, which is no longer so. 409 with the row as it now stands.
          if (!before) {
            const [raced] = await tx
              .select()
              .from(submissions)
              .where(and(eq(submissions.assignmentId, assignmentId), eq(submissions.studentId, studentId)));
            throw await conflictOver(tx, raced!);
          }
        }
        return writeGrade(
          tx,
          record,
          caller,
          { assignment, course, studentActive, reach },
          before,
          names,
          body,
          now,
        );
      });
    },
  };
}

/**
 * An assignment of the caller's course, share-locked for a grade write on one of its students (max
 * points cannot drop meanwhile); 404 for anyone else, 403 for a member student, as everywhere.
 */
export async function gradedAssignment(tx: Tx, caller: Caller, assignmentId: string) {
  const [target] = await tx
    .select({ assignment: assignments, course: courses })
    .from(assignments)
    .innerJoin(courses, eq(courses.id, assignments.courseId))
    .where(and(eq(assignments.id, assignmentId), isNull(assignments.deletedAt)))
    .for('share', { of: assignments });
  const course = await requireTeacherOfAssignment(
    tx,
    caller,
    target?.course,
    assignmentId,
    'grade its students',
  );
  return { assignment: target!.assignment, course };
}

/** 409 grade_conflict over the row as it stands, with its grader's name. */
export async function conflictOver(tx: Tx, row: SubmissionRow): Promise<AppError> {
  const [grader] = row.gradedBy
    ? await tx.select({ fullName: profiles.fullName }).from(profiles).where(eq(profiles.id, row.gradedBy))
    : [];
  return gradeConflict(currentGrade(row, grader?.fullName ?? null));
}

/** The grade as it stands on a row, for 409 grade_conflict. */
function currentGrade(
  row: Pick<SubmissionRow, 'grade' | 'feedback' | 'version' | 'gradedBy' | 'gradedAt' | 'rubricScores'>,
  graderName: string | null,
): CurrentGrade {
  return {
    grade: row.grade,
    feedback: row.feedback,
    version: row.version,
    gradedBy: row.gradedBy ? { id: row.gradedBy, fullName: graderName ?? '' } : null,
    gradedAt: row.gradedAt?.toISOString() ?? null,
    rubricScores: row.rubricScores ?? null,
  };
}

/** 409 grade_conflict, carrying the grade as it stands so the grader can keep theirs or take it. */
function gradeConflict(current: CurrentGrade): AppError {
  const who = current.gradedBy ? ` by ${current.gradedBy.fullName}` : '';
  return new AppError(
    409,
    ErrorCode.gradeConflict,
    `This grade was changed${who} since you opened it: it is now ${current.grade ?? 'ungraded'}.`,
    {},
    { current },
  );
}
