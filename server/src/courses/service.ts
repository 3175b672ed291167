import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import {
  COURSES_QUERY_LIMIT,
  formatJoinCode,
  normalizeCourseCode,
  SAMPLES_PER_CLICK,
  type Course,
  type CourseDetail,
  type CreateCourseBody,
} from '@classwave/shared';
import type { Caller } from '../auth/service.js';
import type { Db, Tx } from '../db/client.js';
import type { Outbox } from '../realtime/outbox.js';
import { audience, userRoom } from '../realtime/rooms.js';
import { assignments, courseMembers, courses, profiles } from '../db/schema.js';
import type { AssignmentLists } from '../assignments/queries.js';
import { PG, pgCode } from '../db/errors.js';
import { conflict } from '../http/errors.js';
import { found, requireTeacher } from '../policies.js';
import { randomJoinCode, retryOnCodeCollision } from '../classes/codes.js';
import { requireOwnerOf, visibleCourse } from '../classes/visibility.js';
import { freshSampleCourses } from './samples.js';

/** Why a course can't be deleted yet, with how many assignments stand in the way (issue 17). */
const stillHasAssignments = (n: number) =>
  `It has ${n} ${n === 1 ? 'assignment' : 'assignments'}. Delete ${n === 1 ? 'it' : 'them'} first.`;
const STILL_HAS_ASSIGNMENTS = 'It still has assignments. Delete them first.';

type CourseRow = typeof courses.$inferSelect;
/** A course as `viewerId` sees it: the join code only for its teacher (DESIGN §11). */
export const toCourse = (row: CourseRow, teacherName: string, viewerId: string | null): Course => ({
  id: row.id,
  title: row.title,
  description: row.description,
  code: row.code,
  teacherId: row.teacherId,
  createdAt: row.createdAt.toISOString(),
  teacher: { id: row.teacherId, fullName: teacherName },
  joinCode: viewerId === row.teacherId ? formatJoinCode(row.joinCode) : null,
  joinEnabled: row.joinEnabled,
});

export function createCourseService({
  db,
  outbox,
  lists,
}: {
  db: Db;
  outbox: Outbox;
  lists: AssignmentLists;
}) {
  const selectCourses = (tx: Db | Tx) =>
    tx
      .select({ course: courses, teacherName: profiles.fullName })
      .from(courses)
      .innerJoin(profiles, eq(profiles.id, courses.teacherId));

  async function insertCourses(caller: Caller, values: CreateCourseBody[]): Promise<Course[]> {
    requireTeacher(caller, 'create courses');
    const codes = values.map((v) => normalizeCourseCode(v.code));
    // Each try draws fresh codes; a collision (about one in 10^11 per course) aborts the transaction.
    return retryOnCodeCollision(() =>
      outbox.transaction(async (tx, record) => {
        // The teacher's row, locked: two tabs creating the same code at once take turns.
        const [teacher] = await tx
          .select({ fullName: profiles.fullName })
          .from(profiles)
          .where(eq(profiles.id, caller.userId))
          .for('update');
        const [clash] = await tx
          .select({ code: courses.code })
          .from(courses)
          .where(and(eq(courses.teacherId, caller.userId), inArray(sql`upper(${courses.code})`, codes)))
          .limit(1);
        if (clash)
          throw conflict(`You already have a course with the code ${normalizeCourseCode(clash.code)}.`);
        const rows = await tx
          .insert(courses)
          .values(
            values.map((v) => ({
              title: v.title.trim(),
              code: normalizeCourseCode(v.code),
              description: v.description.trim(),
              teacherId: caller.userId,
              joinCode: randomJoinCode(),
            })),
          )
          .returning();
        const created = rows.map((row) => toCourse(row, found(teacher, 'Profile').fullName, caller.userId));
        for (const course of created) record('course:created', course, audience.owner(caller.userId));
        return created;
      }),
    );
  }

  return {
    /** The caller's courses, newest first: a teacher's own, a student's active memberships (DESIGN §11). */
    async list(caller: Caller): Promise<Course[]> {
      const rows = await selectCourses(db)
        .where(visibleCourse(caller))
        .orderBy(desc(courses.createdAt), desc(courses.id))
        .limit(COURSES_QUERY_LIMIT);
      return rows.map((r) => toCourse(r.course, r.teacherName, caller.userId));
    },

    async create(caller: Caller, body: CreateCourseBody): Promise<Course> {
      const [course] = await insertCourses(caller, [body]);
      return course!;
    },

    async createSamples(caller: Caller): Promise<Course[]> {
      requireTeacher(caller, 'create courses');
      const own = await db
        .select({ title: courses.title, code: courses.code })
        .from(courses)
        .where(eq(courses.teacherId, caller.userId));
      return insertCourses(caller, freshSampleCourses(own, SAMPLES_PER_CLICK));
    },

    async detail(caller: Caller, id: string): Promise<CourseDetail> {
      const [row] = await selectCourses(db).where(and(eq(courses.id, id), visibleCourse(caller)));
      const { course, teacherName } = found(row, 'Course');
      return {
        course: toCourse(course, teacherName, caller.userId),
        assignments: await lists.ofCourse(caller, id),
      };
    },

    /** Deletes an own course; refused while it has assignments (the spec's rule, kept by a foreign key too). */
    async remove(caller: Caller, id: string): Promise<void> {
      await outbox.transaction(async (tx, record) => {
        const [course] = await tx.select().from(courses).where(eq(courses.id, id)).for('update');
        const owned = await requireOwnerOf(tx, caller, course, 'delete it');
        const [{ n } = { n: 0 }] = await tx
          .select({ n: count() })
          .from(assignments)
          .where(eq(assignments.courseId, id));
        if (n > 0) throw conflict(stillHasAssignments(n));
        try {
          // Its members' own rooms too: their memberships go with the course, so a tab that was
          // offline replays this from its user room (the course room has no members any more).
          const members = await tx
            .select({ studentId: courseMembers.studentId })
            .from(courseMembers)
            .where(and(eq(courseMembers.courseId, id), eq(courseMembers.status, 'active')));
          await tx.delete(courses).where(eq(courses.id, id));
          record('course:deleted', { id }, [
            ...audience.course(id, owned.teacherId),
            ...members.map((m) => userRoom(m.studentId)),
          ]);
        } catch (error) {
          if (pgCode(error) === PG.foreignKeyViolation) throw conflict(STILL_HAS_ASSIGNMENTS);
          throw error;
        }
      });
    },
  };
}

export type CourseService = ReturnType<typeof createCourseService>;
