import { and, asc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { TODO_OVERDUE_DAYS, type Todo, type TodoItem } from '@classwave/shared';
import type { Caller } from '../auth/caller.js';
import { visibleAssignment } from '../classes/visibility.js';
import { effectiveDue } from '../assignments/visibility.js';
import { teaches } from '../courses/teaching.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/client.js';
import { assignments, courses, excusals, submissions } from '../db/schema.js';
import { heldSql } from '../submissions/views.js';

const DAY_MS = 24 * 3600_000;

/** The to-do list (DESIGN §14), read afresh on every change a live event announces. */
export function createTodoService({ db, clock }: { db: Db; clock: Clock }) {
  return {
    /**
     * Students: every visible assignment they have not submitted, by due date; overdue ones only
     * while they still take submissions and for TODO_OVERDUE_DAYS (a list that only grows is one
     * nobody reads; the Assignments page keeps the rest).
     * Teachers: per assignment, the submissions still to grade and the graded ones held (not returned).
     * Excused work is no one's to-do.
     */
    async todo(caller: Caller): Promise<Todo> {
      const item = (r: {
        id: string;
        title: string;
        courseId: string;
        courseTitle: string;
        dueDate: Date;
        n: number;
      }): TodoItem => ({
        assignmentId: r.id,
        title: r.title,
        courseId: r.courseId,
        courseTitle: r.courseTitle,
        dueDate: r.dueDate.toISOString(),
        count: r.n,
      });
      const columns = {
        id: assignments.id,
        title: assignments.title,
        courseId: courses.id,
        courseTitle: courses.title,
        dueDate: assignments.dueDate,
      };
      if (caller.role === 'student') {
        const now = clock.now();
        // Their own due date: an extension's, else the class's (DESIGN §20).
        const due = effectiveDue(caller.userId).mapWith(assignments.dueDate);
        const rows = await db
          .select({ ...columns, dueDate: due, n: sql<number>`1` })
          .from(assignments)
          .innerJoin(courses, eq(courses.id, assignments.courseId))
          .where(
            and(
              visibleAssignment(caller.userId, 'student'),
              // An archived course has nothing left to do (DESIGN §20).
              isNull(courses.archivedAt),
              sql`${due} >= ${new Date(now.getTime() - TODO_OVERDUE_DAYS * DAY_MS).toISOString()}::timestamptz`,
              // Closed at its due time: nothing left to do about it.
              sql`not (${assignments.closesAtDue} and ${due} <= ${now.toISOString()}::timestamptz)`,
              // A grade for missing work leaves the work to do while it is open (DESIGN §17).
              sql`not exists (select 1 from ${submissions} where ${submissions.assignmentId} = ${assignments.id}
                and ${submissions.studentId} = ${caller.userId} and ${submissions.submittedAt} is not null)`,
              sql`not exists (select 1 from ${excusals} where ${excusals.assignmentId} = ${assignments.id}
                and ${excusals.studentId} = ${caller.userId})`,
            ),
          )
          .orderBy(asc(due), asc(assignments.id));
        return { work: rows.map(item), toGrade: [], toReturn: [] };
      }
      // Per assignment: submissions to grade, and graded ones held until the teacher returns them.
      const perAssignment = (pending: SQL) =>
        db
          .select({ ...columns, n: sql<number>`count(${submissions.id})::int` })
          .from(assignments)
          .innerJoin(courses, eq(courses.id, assignments.courseId))
          .innerJoin(submissions, eq(submissions.assignmentId, assignments.id))
          .where(
            and(teaches(caller.userId), isNull(assignments.deletedAt), isNull(courses.archivedAt), pending),
          )
          .groupBy(assignments.id, courses.id)
          .orderBy(asc(assignments.dueDate), asc(assignments.id));
      const [toGrade, toReturn] = await Promise.all([
        perAssignment(isNull(submissions.grade)),
        perAssignment(heldSql),
      ]);
      return { work: [], toGrade: toGrade.map(item), toReturn: toReturn.map(item) };
    },
  };
}
export type TodoService = ReturnType<typeof createTodoService>;
