import { count, desc, eq } from 'drizzle-orm';
import {
  COURSES_QUERY_LIMIT,
  SAMPLES_PER_CLICK,
  type Course,
  type CourseDetail,
  type CreateCourseBody,
} from '@classwave/shared';
import type { Caller } from '../auth/service.js';
import type { Db, Tx } from '../db/client.js';
import type { Outbox } from '../realtime/outbox.js';
import { audience } from '../realtime/rooms.js';
import { assignments, courses, profiles } from '../db/schema.js';
import type { AssignmentLists } from '../assignments/queries.js';
import { PG, pgCode } from '../db/errors.js';
import { conflict } from '../http/errors.js';
import { found, requireCourseOwner, requireTeacher } from '../policies.js';
import { pickDistinct, SAMPLE_COURSES, sampleCode } from './samples.js';

const STILL_HAS_ASSIGNMENTS = 'This course still has assignments. Delete them first.';

type CourseRow = typeof courses.$inferSelect;
const toCourse = (row: CourseRow, teacherName: string): Course => ({
  id: row.id,
  title: row.title,
  description: row.description,
  code: row.code,
  teacherId: row.teacherId,
  createdAt: row.createdAt.toISOString(),
  teacher: { id: row.teacherId, fullName: teacherName },
  // Placeholder until join codes are stored (issue 11).
  joinCode: null,
  joinEnabled: true,
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
    return outbox.transaction(async (tx, record) => {
      const [teacher] = await tx
        .select({ fullName: profiles.fullName })
        .from(profiles)
        .where(eq(profiles.id, caller.userId));
      const rows = await tx
        .insert(courses)
        .values(
          values.map((v) => ({
            title: v.title.trim(),
            code: v.code.trim(),
            description: v.description.trim(),
            teacherId: caller.userId,
          })),
        )
        .returning();
      const created = rows.map((row) => toCourse(row, found(teacher, 'Profile').fullName));
      for (const course of created) record('course:created', course, audience.everyone());
      return created;
    });
  }

  return {
    /** Every course, newest first (spec §7: all courses with their teacher, limit 1000). */
    async list(): Promise<Course[]> {
      const rows = await selectCourses(db)
        .orderBy(desc(courses.createdAt), desc(courses.id))
        .limit(COURSES_QUERY_LIMIT);
      return rows.map((r) => toCourse(r.course, r.teacherName));
    },

    async create(caller: Caller, body: CreateCourseBody): Promise<Course> {
      const [course] = await insertCourses(caller, [body]);
      return course!;
    },

    async createSamples(caller: Caller): Promise<Course[]> {
      const picks = pickDistinct(SAMPLE_COURSES, SAMPLES_PER_CLICK);
      return insertCourses(
        caller,
        picks.map((p) => ({ title: p.title, description: p.description, code: sampleCode(p.prefix) })),
      );
    },

    async detail(caller: Caller, id: string): Promise<CourseDetail> {
      const [row] = await selectCourses(db).where(eq(courses.id, id));
      const { course, teacherName } = found(row, 'Course');
      return {
        course: toCourse(course, teacherName),
        assignments: await lists.ofCourse(caller, id),
      };
    },

    /** Deletes an own course; refused while it has assignments (the spec's rule, kept by a foreign key too). */
    async remove(caller: Caller, id: string): Promise<void> {
      await outbox.transaction(async (tx, record) => {
        const [course] = await tx.select().from(courses).where(eq(courses.id, id)).for('update');
        requireCourseOwner(caller, course, 'delete it');
        const [{ n } = { n: 0 }] = await tx
          .select({ n: count() })
          .from(assignments)
          .where(eq(assignments.courseId, id));
        if (n > 0) throw conflict(STILL_HAS_ASSIGNMENTS);
        try {
          await tx.delete(courses).where(eq(courses.id, id));
          record('course:deleted', { id }, audience.everyone());
        } catch (error) {
          if (pgCode(error) === PG.foreignKeyViolation) throw conflict(STILL_HAS_ASSIGNMENTS);
          throw error;
        }
      });
    },
  };
}

export type CourseService = ReturnType<typeof createCourseService>;
