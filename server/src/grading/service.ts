import { and, asc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import {
  courseTotals,
  ErrorCode,
  RETURN_UNDO_SECONDS,
  workStatus,
  type ExcuseBody,
  type Gradebook,
  type GradebookCell,
  type ReturnBody,
  type ReturnResponse,
  type ScheduledReturn,
  type StudentCourseGrades,
} from '@classwave/shared';
import type { Caller } from '../auth/caller.js';
import type { Clock } from '../clock.js';
import type { Db, Tx } from '../db/client.js';
import type { Outbox } from '../realtime/outbox.js';
import { assigneeRoom, audience } from '../realtime/rooms.js';
import {
  assignmentExtensions,
  assignments,
  courseMembers,
  courses,
  excusals,
  profiles,
  submissions,
  users,
} from '../db/schema.js';
import { assignedTo, effectiveDue, extensionOn } from '../assignments/visibility.js';
import { AppError, notFound } from '../http/errors.js';
import { requireStudent } from '../policies.js';
import { requireTeacherOf, requireTeacherOfAssignment } from '../classes/visibility.js';
import { toAssignment } from '../assignments/queries.js';
import { categoriesOf, categoriesOfCourses } from '../categories/service.js';
import { toCell } from './cells.js';
import { gradebookCsv } from './csv.js';
import { heldIds, releaseHeld } from './release.js';
import type { JobRunner } from '../jobs/runner.js';
import { lockReturn, markUndone, scheduleReturn } from './scheduled-returns.js';

const pairKey = (assignmentId: string, studentId: string) => `${assignmentId}:${studentId}`;

/**
 * Grading across a course (DESIGN §13): the gradebook and its CSV, returning held grades,
 * excusing, and a student's own returned grades.
 */
export function createGradingService({
  db,
  clock,
  outbox,
  jobs,
  undoWindowMs = RETURN_UNDO_SECONDS * 1000,
}: {
  db: Db;
  clock: Clock;
  outbox: Outbox;
  /** Runs the scheduled return when it falls due. */
  jobs: Pick<JobRunner, 'wakeAt'>;
  /** How long a Return with undo waits (DESIGN §13: 10 s; tests shorten it). */
  undoWindowMs?: number;
}) {
  /** An assignment of a course the caller teaches (404 / 403 as everywhere), optionally locked. */
  async function ownedAssignment(tx: Db | Tx, caller: Caller, assignmentId: string, action: string) {
    const [row] = await tx
      .select({ assignment: assignments, course: courses })
      .from(assignments)
      .innerJoin(courses, eq(courses.id, assignments.courseId))
      .where(and(eq(assignments.id, assignmentId), isNull(assignments.deletedAt)));
    const course = await requireTeacherOfAssignment(tx, caller, row?.course, assignmentId, action);
    return { assignment: row!.assignment, course };
  }

  async function gradebook(caller: Caller, courseId: string): Promise<Gradebook> {
    const [target] = await db.select().from(courses).where(eq(courses.id, courseId));
    const course = await requireTeacherOf(db, caller, target, 'see its gradebook');
    const [students, work, excused, subs, categories, assignedPairs, extensions] = await Promise.all([
      db
        .select({ id: profiles.id, fullName: profiles.fullName, email: users.email })
        .from(courseMembers)
        .innerJoin(profiles, eq(profiles.id, courseMembers.studentId))
        .innerJoin(users, eq(users.id, courseMembers.studentId))
        .where(and(eq(courseMembers.courseId, courseId), eq(courseMembers.status, 'active')))
        .orderBy(asc(profiles.fullName), asc(profiles.id)),
      db
        .select()
        .from(assignments)
        .where(and(eq(assignments.courseId, courseId), isNull(assignments.deletedAt)))
        .orderBy(asc(assignments.dueDate), asc(assignments.id)),
      db
        .select({ assignmentId: excusals.assignmentId, studentId: excusals.studentId })
        .from(excusals)
        .innerJoin(assignments, eq(assignments.id, excusals.assignmentId))
        .where(and(eq(assignments.courseId, courseId), isNull(assignments.deletedAt))),
      db
        .select({ submission: submissions })
        .from(submissions)
        .innerJoin(assignments, eq(assignments.id, submissions.assignmentId))
        .where(and(eq(assignments.courseId, courseId), isNull(assignments.deletedAt))),
      categoriesOf(db, courseId),
      // Who each assignment is for (DESIGN §20), by the one condition students' reads use.
      db
        .select({ assignmentId: assignments.id, studentId: courseMembers.studentId })
        .from(assignments)
        .innerJoin(courseMembers, eq(courseMembers.courseId, assignments.courseId))
        .where(
          and(
            eq(assignments.courseId, courseId),
            isNull(assignments.deletedAt),
            eq(courseMembers.status, 'active'),
            assignedTo(courseMembers.studentId),
          ),
        ),
      db
        .select({
          assignmentId: assignmentExtensions.assignmentId,
          studentId: assignmentExtensions.studentId,
          dueDate: assignmentExtensions.dueDate,
        })
        .from(assignmentExtensions)
        .innerJoin(assignments, eq(assignments.id, assignmentExtensions.assignmentId))
        .where(and(eq(assignments.courseId, courseId), isNull(assignments.deletedAt))),
    ]);
    const now = clock.now();
    const assigned = new Set(assignedPairs.map((p) => pairKey(p.assignmentId, p.studentId)));
    const extended = new Map(extensions.map((x) => [pairKey(x.assignmentId, x.studentId), x.dueDate]));
    const excusedPairs = new Set(excused.map((e) => pairKey(e.assignmentId, e.studentId)));
    const byPair = new Map(subs.map(({ submission: s }) => [pairKey(s.assignmentId, s.studentId), s]));
    const cells: GradebookCell[] = [];
    for (const student of students) {
      for (const a of work) {
        const key = pairKey(a.id, student.id);
        cells.push(
          toCell(a, student.id, byPair.get(key), excusedPairs.has(key), now, {
            assigned: assigned.has(key),
            dueDate: extended.get(key),
          }),
        );
      }
    }
    return {
      course: {
        id: course.id,
        title: course.title,
        code: course.code,
        missingCountsAsZero: course.missingCountsAsZero,
      },
      students,
      assignments: work.map((a) => ({
        id: a.id,
        title: a.title,
        dueDate: a.dueDate.toISOString(),
        maxPoints: a.maxPoints,
        gradeRelease: a.gradeRelease,
        categoryId: a.categoryId,
      })),
      cells,
      categories,
    };
  }

  return {
    gradebook,

    /** The gradebook as a spreadsheet file (see csv.ts), with a file name safe in any header. */
    async gradebookCsv(caller: Caller, courseId: string): Promise<{ fileName: string; csv: string }> {
      const book = await gradebook(caller, courseId);
      const stem = `${book.course.code}-gradebook`.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+/, '');
      return { fileName: `${stem || 'gradebook'}.csv`, csv: gradebookCsv(book) };
    },

    /**
     * Return: releases the assignment's held grades (all, or the ids given that are held) at once,
     * each student hearing `submission:graded` (with the teacher's tabs); or, with `undoable`,
     * schedules exactly the ones held now for the end of the undo window (see scheduled-returns.ts).
     */
    async returnGrades(
      caller: Caller,
      assignmentId: string,
      body: ReturnBody,
    ): Promise<({ scheduled: false } & ReturnResponse) | ({ scheduled: true } & ScheduledReturn)> {
      const result = await outbox.transaction(async (tx, record) => {
        const { assignment, course } = await ownedAssignment(tx, caller, assignmentId, 'return its grades');
        const now = clock.now();
        if (!body.undoable) {
          const target = { assignment, teacherId: course.teacherId };
          return {
            scheduled: false as const,
            returned: await releaseHeld(tx, record, target, now, body.submissionIds),
          };
        }
        const submissionIds = await heldIds(tx, assignmentId, body.submissionIds);
        if (submissionIds.length === 0) return { scheduled: false as const, returned: 0 };
        const runAt = new Date(now.getTime() + undoWindowMs);
        const id = await scheduleReturn(tx, { assignmentId, submissionIds }, runAt);
        return { scheduled: true as const, id, assignmentId, submissionIds, runAt: runAt.toISOString() };
      });
      if (result.scheduled) jobs.wakeAt(new Date(result.runAt));
      return result;
    },

    /**
     * Undo: cancels a scheduled return of the caller's course before it runs (409
     * return_already_sent once it has). Undoing twice is fine. A return being sent right now is
     * waited for, then reported sent.
     */
    async undoReturn(caller: Caller, returnId: string): Promise<void> {
      await db.transaction(async (tx) => {
        const scheduled = await lockReturn(tx, returnId);
        if (!scheduled) throw notFound('Scheduled return not found.');
        const [row] = await tx
          .select({ course: courses })
          .from(assignments)
          .innerJoin(courses, eq(courses.id, assignments.courseId))
          .where(and(eq(assignments.id, scheduled.payload.assignmentId), isNull(assignments.deletedAt)));
        // Anyone but the course's teacher learns nothing of it (404), as of the assignment itself.
        await requireTeacherOfAssignment(
          tx,
          caller,
          row?.course,
          scheduled.payload.assignmentId,
          'undo its returns',
          'Scheduled return',
        );
        if (scheduled.payload.undoneAt) return;
        if (scheduled.job.doneAt)
          throw new AppError(
            409,
            ErrorCode.returnAlreadySent,
            'Too late to undo: these grades have already been returned to the students.',
          );
        await markUndone(tx, scheduled.job, clock.now());
      });
    },

    /**
     * Excuses an active member from an assignment, or takes the excuse back. The teacher's tabs get
     * the cell (`gradebook:cell`); the student's get the assignment in their own view (status
     * `excused`, or back to what it was) as `assignment:updated`. A student it is not for (assigned
     * to others, or not yet published: DESIGN §20) is refused 422 not_assigned, as a grade is: work
     * never set is not excused, and their cell stays "Not assigned".
     */
    async excuse(caller: Caller, assignmentId: string, body: ExcuseBody): Promise<GradebookCell> {
      return outbox.transaction(async (tx, record) => {
        const { assignment, course } = await ownedAssignment(tx, caller, assignmentId, 'excuse students');
        // With their extension (DESIGN §20): their cell and view say late or missing against it.
        const [member] = await tx
          .select({
            status: courseMembers.status,
            // Null when they have none (a null is never decoded).
            extension: extensionOn('"assignments"', body.studentId).mapWith(
              assignments.dueDate,
            ) as SQL<Date | null>,
            assigned: sql<boolean>`${assignedTo(body.studentId)}`,
          })
          .from(courseMembers)
          .innerJoin(assignments, eq(assignments.id, assignmentId))
          .where(and(eq(courseMembers.courseId, course.id), eq(courseMembers.studentId, body.studentId)))
          .for('share', { of: courseMembers });
        if (member?.status !== 'active') throw notFound('That student is not a member of this course.');
        if (!member.assigned)
          throw new AppError(
            422,
            ErrorCode.notAssigned,
            'This assignment is not for that student (or not published yet): assign it to them first.',
          );
        if (body.excused) {
          await tx
            .insert(excusals)
            .values({ assignmentId, studentId: body.studentId, createdAt: clock.now() })
            .onConflictDoNothing();
        } else {
          await tx
            .delete(excusals)
            .where(and(eq(excusals.assignmentId, assignmentId), eq(excusals.studentId, body.studentId)));
        }
        const [submission] = await tx
          .select()
          .from(submissions)
          .where(and(eq(submissions.assignmentId, assignmentId), eq(submissions.studentId, body.studentId)));
        const now = clock.now();
        const { extension } = member;
        const cell = toCell(assignment, body.studentId, submission, body.excused, now, {
          assigned: true,
          dueDate: extension ?? undefined,
        });
        record('gradebook:cell', cell, audience.teachers(course.id, course.teacherId));
        const own = submission ? { ...submission } : null;
        record(
          'assignment:updated',
          toAssignment(
            assignment,
            course.title,
            { viewer: 'student', own, excused: body.excused, extension },
            now,
          ),
          // Only while it is theirs (DESIGN §20): a student it is not for hears nothing of it.
          [assigneeRoom(assignmentId, body.studentId)],
        );
        return cell;
      });
    },

    /**
     * A student's grades, per course they are an active member of: every assignment with its
     * status, the grade and feedback only once returned; totals over returned grades only.
     */
    async grades(caller: Caller): Promise<StudentCourseGrades[]> {
      requireStudent(caller, 'see their grades');
      const rows = await db
        .select({
          course: { id: courses.id, title: courses.title, code: courses.code },
          missingCountsAsZero: courses.missingCountsAsZero,
          assignment: assignments,
          submission: {
            id: submissions.id,
            submittedAt: submissions.submittedAt,
            // The grade as it was returned: a changed one held again stays the teacher's (DESIGN §17).
            grade: submissions.returnedGrade,
            feedback: submissions.returnedFeedback,
            returnedAt: submissions.returnedAt,
          },
          excused: sql<boolean>`exists (select 1 from ${excusals} where ${excusals.assignmentId} = ${assignments.id}
            and ${excusals.studentId} = ${caller.userId})`,
          due: effectiveDue(caller.userId).mapWith(assignments.dueDate),
        })
        .from(courseMembers)
        .innerJoin(courses, eq(courses.id, courseMembers.courseId))
        .innerJoin(assignments, eq(assignments.courseId, courses.id))
        .leftJoin(
          submissions,
          and(eq(submissions.assignmentId, assignments.id), eq(submissions.studentId, caller.userId)),
        )
        .where(
          and(
            eq(courseMembers.studentId, caller.userId),
            eq(courseMembers.status, 'active'),
            isNull(assignments.deletedAt),
            // Published and theirs (DESIGN §20).
            assignedTo(caller.userId),
          ),
        )
        .orderBy(asc(courses.title), asc(courses.id), asc(assignments.dueDate), asc(assignments.id));
      const now = clock.now();
      const byCourse = new Map<string, StudentCourseGrades>();
      const zeroForMissing = new Set<string>();
      for (const row of rows) {
        if (row.missingCountsAsZero) zeroForMissing.add(row.course.id);
        let entry = byCourse.get(row.course.id);
        if (!entry) {
          entry = { course: row.course, items: [], points: 0, possible: 0, percent: null, categories: [] };
          byCourse.set(row.course.id, entry);
        }
        const s = row.submission?.id ? row.submission : null;
        const returned = s !== null && s.grade !== null && s.returnedAt !== null;
        entry.items.push({
          assignmentId: row.assignment.id,
          title: row.assignment.title,
          dueDate: row.due.toISOString(),
          maxPoints: row.assignment.maxPoints,
          status: workStatus(
            {
              dueDate: row.due,
              excused: row.excused,
              // A held grade for missing work reads missing: s.grade is the one returned, if any.
              submission: s && { submittedAt: s.submittedAt, grade: s.grade, returnedAt: s.returnedAt },
            },
            now,
            'student',
          ),
          grade: returned ? s.grade : null,
          feedback: returned ? s.feedback : null,
          returnedAt: returned ? s.returnedAt!.toISOString() : null,
          categoryId: row.assignment.categoryId,
        });
      }
      // As studentTotals counts the gradebook, over what the student may see: returned grades, and
      // missing work as 0 where the course counts it so, weighted by the course's categories (DESIGN §17).
      const categories = await categoriesOfCourses(db, [...byCourse.keys()]);
      for (const entry of byCourse.values()) {
        const totals = courseTotals(
          entry.items,
          categories.get(entry.course.id) ?? [],
          zeroForMissing.has(entry.course.id),
        );
        Object.assign(entry, totals);
      }
      return [...byCourse.values()];
    },
  };
}

export type GradingService = ReturnType<typeof createGradingService>;
