import { eq } from 'drizzle-orm';
import {
  atZonedTime,
  isTimeZone,
  SAMPLE_ASSIGNMENT_POINTS,
  type Assignment,
  type CreateAssignmentBody,
} from '@classwave/shared';
import type { Caller } from '../auth/service.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/client.js';
import type { Outbox } from '../realtime/outbox.js';
import { audience } from '../realtime/rooms.js';
import { assignments, courses, submissions } from '../db/schema.js';
import { badRequest, conflict } from '../http/errors.js';
import { requireTeacher } from '../policies.js';
import { requireOwnerOf } from '../classes/visibility.js';
import { pickDistinct, SAMPLE_ASSIGNMENTS } from '../courses/samples.js';
import { toAssignment, type AssignmentLists } from './queries.js';

const DAY_MS = 24 * 3600 * 1000;
const SERVER_TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

export function createAssignmentService({
  db,
  clock,
  outbox,
  lists,
}: {
  db: Db;
  clock: Clock;
  outbox: Outbox;
  lists: AssignmentLists;
}) {
  return {
    /** Teachers: their own courses' assignments. Students: their active courses', each with their own submission. */
    async list(caller: Caller): Promise<Assignment[]> {
      return lists.visibleTo(caller);
    },

    async create(caller: Caller, body: CreateAssignmentBody): Promise<Assignment> {
      requireTeacher(caller, 'create assignments');
      const dueDate = new Date(body.dueDate);
      if (Number.isNaN(dueDate.getTime())) throw badRequest('body.dueDate must be a valid date-time');
      return outbox.transaction(async (tx, record) => {
        const [target] = await tx.select().from(courses).where(eq(courses.id, body.courseId));
        const course = await requireOwnerOf(tx, caller, target, 'add assignments to it');
        const [row] = await tx
          .insert(assignments)
          .values({
            title: body.title.trim(),
            description: body.description?.trim() ?? '',
            dueDate,
            maxPoints: body.maxPoints ?? 100,
            courseId: course.id,
            createdAt: clock.now(),
          })
          .returning();
        const created = toAssignment(row!, course.title, null, 0);
        record('assignment:created', created, audience.course(course.id, course.teacherId));
        return created;
      });
    },

    /** Three sample assignments spread over the teacher's courses: 50, 100 and 150 points, due in the coming weeks. */
    async createSamples(caller: Caller, timeZone: string = SERVER_TIME_ZONE): Promise<Assignment[]> {
      requireTeacher(caller, 'create assignments');
      if (!isTimeZone(timeZone))
        throw badRequest('querystring.timeZone must be an IANA time zone such as Europe/Paris');
      const own = await db.select().from(courses).where(eq(courses.teacherId, caller.userId));
      if (own.length === 0) throw conflict('Please create a course first.');
      const now = clock.now();
      const picks = pickDistinct(SAMPLE_ASSIGNMENTS, SAMPLE_ASSIGNMENT_POINTS.length);
      const targets = pickDistinct(own, own.length);
      return outbox.transaction(async (tx, record) => {
        const rows = await tx
          .insert(assignments)
          .values(
            picks.map((pick, i) => {
              // 23:59 of that day where the teacher is, not where the server is.
              const due = atZonedTime(new Date(now.getTime() + (i + 1) * 7 * DAY_MS), timeZone, 23, 59);
              return {
                title: pick.title,
                description: pick.description,
                dueDate: due,
                maxPoints: SAMPLE_ASSIGNMENT_POINTS[i]!,
                courseId: targets[i % targets.length]!.id,
                createdAt: now,
              };
            }),
          )
          .returning();
        const titles = new Map(own.map((c) => [c.id, c.title]));
        const created = rows.map((row) => toAssignment(row, titles.get(row.courseId)!, null, 0));
        for (const a of created) record('assignment:created', a, audience.course(a.courseId, caller.userId));
        return created;
      });
    },

    /** Deletes an assignment of the caller's course together with its submissions, in one transaction. */
    async remove(caller: Caller, id: string): Promise<void> {
      await outbox.transaction(async (tx, record) => {
        const [row] = await tx
          .select({ assignment: assignments, course: courses })
          .from(assignments)
          .innerJoin(courses, eq(courses.id, assignments.courseId))
          .where(eq(assignments.id, id))
          .for('update', { of: assignments });
        const course = await requireOwnerOf(tx, caller, row?.course, 'delete its assignments', 'Assignment');
        await tx.delete(submissions).where(eq(submissions.assignmentId, id));
        await tx.delete(assignments).where(eq(assignments.id, id));
        record(
          'assignment:deleted',
          { id, courseId: course.id },
          audience.course(course.id, course.teacherId),
        );
      });
    },
  };
}

export type AssignmentService = ReturnType<typeof createAssignmentService>;
