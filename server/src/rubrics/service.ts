import { randomUUID } from 'node:crypto';
import { and, count, eq, isNotNull, isNull, or, sql } from 'drizzle-orm';
import { assignedTo } from '../assignments/visibility.js';
import { teaches } from '../courses/teaching.js';
import {
  ErrorCode,
  rubricTotal,
  type AssignmentRubric,
  type PutRubricBody,
  type Rubric,
} from '@classwave/shared';
import type { Caller } from '../auth/caller.js';
import { memberStatus, requireTeacherOfAssignment } from '../classes/visibility.js';
import { assignmentCounts, recordAssignment } from '../assignments/service.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/client.js';
import type { Outbox } from '../realtime/outbox.js';
import { assignments, courses, submissions } from '../db/schema.js';
import { AppError, badRequest, notFound } from '../http/errors.js';

const NOT_FOUND = 'Assignment not found.';

type AssignmentRow = typeof assignments.$inferSelect;
const shown = (a: Pick<AssignmentRow, 'id' | 'maxPoints' | 'rubric'>): AssignmentRubric => ({
  assignmentId: a.id,
  maxPoints: a.maxPoints,
  rubric: a.rubric ?? null,
});

/** The body as a snapshot of the assignment's own: titles trimmed, every criterion and level a fresh id. */
function snapshot(body: PutRubricBody): Rubric {
  return {
    criteria: body.criteria.map((c) => ({
      id: randomUUID(),
      title: c.title.trim(),
      levels: c.levels.map((l) => ({ id: randomUUID(), title: l.title.trim(), points: l.points })),
    })),
  };
}

/** Rubrics (DESIGN §17): an assignment's own, written by its teacher, seen by its members before they submit. */
export function createRubricService({ db, clock, outbox }: { db: Db; clock: Clock; outbox: Outbox }) {
  return {
    /**
     * The assignment's rubric (null without one): for the course's teacher and its active member
     * students. Anyone else gets the same 404, so a teacher reuses only a rubric of their own.
     */
    async get(caller: Caller, assignmentId: string): Promise<AssignmentRubric> {
      const [row] = await db
        .select({
          assignment: assignments,
          teaches: sql<boolean>`${teaches(caller.userId)}`,
          // Published and for the caller, were they a student of it (DESIGN §20).
          assigned: sql<boolean>`${assignedTo(caller.userId)}`,
        })
        .from(assignments)
        .innerJoin(courses, eq(courses.id, assignments.courseId))
        .where(
          and(eq(assignments.id, assignmentId), isNull(assignments.deletedAt), isNull(courses.deletedAt)),
        );
      if (!row) throw notFound(NOT_FOUND);
      const mayRead =
        (caller.role === 'teacher' && row.teaches) ||
        (caller.role === 'student' &&
          row.assigned &&
          (await memberStatus(db, row.assignment.courseId, caller.userId)) === 'active');
      if (!mayRead) throw notFound(NOT_FOUND);
      return shown(row.assignment);
    },

    /**
     * The course's teacher writes the rubric (`criteria: []` removes it). Its total (each
     * criterion's highest level) must be the assignment's max points, so a full rubric is a full
     * grade. Once any grade was given by it (held or returned) it is refused, 409 rubric_in_use: its
     * ids are what those scores name, and a returned score must keep meaning what the student read.
     */
    async put(caller: Caller, assignmentId: string, body: PutRubricBody): Promise<AssignmentRubric> {
      return outbox.transaction(async (tx, record) => {
        // Locked for update: grade writes share-lock it, so none is given by the old rubric meanwhile.
        const [row] = await tx
          .select({ assignment: assignments, course: courses })
          .from(assignments)
          .innerJoin(courses, eq(courses.id, assignments.courseId))
          .where(and(eq(assignments.id, assignmentId), isNull(assignments.deletedAt)))
          .for('update', { of: assignments });
        const course = await requireTeacherOfAssignment(
          tx,
          caller,
          row?.course,
          assignmentId,
          'write its rubric',
        );
        const { assignment } = row!;
        const rubric = body.criteria.length ? snapshot(body) : null;
        if (rubric && rubricTotal(rubric) !== assignment.maxPoints)
          throw badRequest(
            `body.criteria: the rubric totals ${rubricTotal(rubric)} points (each criterion's highest level), ` +
              `but this assignment is out of ${assignment.maxPoints}`,
          );
        const [{ used } = { used: 0 }] = await tx
          .select({ used: count() })
          .from(submissions)
          .where(
            and(
              eq(submissions.assignmentId, assignmentId),
              or(isNotNull(submissions.rubricScores), isNotNull(submissions.returnedRubricScores)),
            ),
          );
        if (used > 0)
          throw new AppError(
            409,
            ErrorCode.rubricInUse,
            `${used === 1 ? 'A grade was' : `${used} grades were`} given by this rubric: it can no longer change.`,
          );
        const [updated] = await tx
          .update(assignments)
          .set({ rubric })
          .where(eq(assignments.id, assignmentId))
          .returning();
        // `assignment:updated` to the teacher's tabs and the class: open dialogs read the rubric again.
        const counts = await assignmentCounts(tx, assignmentId);
        recordAssignment(
          record,
          'assignment:updated',
          updated!,
          course.title,
          course.teacherId,
          counts,
          clock.now(),
        );
        return shown(updated!);
      });
    },
  };
}

export type RubricService = ReturnType<typeof createRubricService>;
