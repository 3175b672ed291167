import { and, count, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import {
  COURSES_QUERY_LIMIT,
  formatJoinCode,
  normalizeCourseCode,
  type Course,
  type CourseDetail,
  type CreateCourseBody,
  type UpdateCourseBody,
} from '@classwave/shared';
import type { Caller } from '../auth/caller.js';
import { isoText, type Database, type Db, type Statement, type Tx } from '../db/client.js';
import type { Outbox } from '../realtime/outbox.js';
import { audience, userRoom } from '../realtime/rooms.js';
import { assignments, courseMembers, courses, courseTeachers, profiles } from '../db/schema.js';
import type { AssignmentLists } from '../assignments/queries.js';
import { conflict } from '../http/errors.js';
import { found, requireTeacher } from '../policies.js';
import { randomJoinCode, retryOnCodeCollision } from '../classes/codes.js';
import { requireOwnerOf, requireTeacherOf, visibleCourse } from '../classes/visibility.js';
import { teachesText } from './teaching.js';
import { moveToBin } from '../bin/store.js';
import type { Clock } from '../clock.js';

/** Why a course can't be deleted yet, with how many assignments stand in the way (issue 17). */
const stillHasAssignments = (n: number) =>
  `It has ${n} ${n === 1 ? 'assignment' : 'assignments'}. Delete ${n === 1 ? 'it' : 'them'} first.`;

type CourseRow = typeof courses.$inferSelect;
/** A course as its teachers (`forTeachers`) or its members see it: the join code only for its teachers (DESIGN §11, §20). */
export const toCourse = (row: CourseRow, teacherName: string, forTeachers: boolean): Course =>
  courseView(
    { ...row, createdAt: row.createdAt.toISOString(), archivedAt: row.archivedAt?.toISOString() ?? null },
    teacherName,
    forTeachers,
  );

const courseView = (
  row: Omit<CourseRow, 'createdAt' | 'deletedAt' | 'deletedBy' | 'archivedAt'> & {
    createdAt: string;
    archivedAt: string | null;
  },
  teacherName: string,
  forTeachers: boolean,
): Course => ({
  id: row.id,
  title: row.title,
  description: row.description,
  code: row.code,
  teacherId: row.teacherId,
  createdAt: row.createdAt,
  teacher: { id: row.teacherId, fullName: teacherName },
  joinCode: forTeachers ? formatJoinCode(row.joinCode) : null,
  joinEnabled: row.joinEnabled,
  missingCountsAsZero: row.missingCountsAsZero,
  archivedAt: row.archivedAt,
});

interface CourseListRow {
  id: string;
  title: string;
  description: string;
  code: string;
  teacher_id: string;
  created_at: string;
  teacher_name: string;
  join_code: string;
  join_enabled: boolean;
  missing_counts_as_zero: boolean;
  archived_at: string | null;
}

/**
 * The course list of one role as a prepared statement with a hand-written mapper (issue 15: the
 * list is read on every page load; Drizzle's query building and row mapping cost more than the
 * query). `$1` is the caller: the courses a teacher owns or co-teaches, a student's active memberships
 * (DESIGN §11, §20); the current ones, or only the archived ones ("Past classes", DESIGN §20).
 */
function courseListStatement(role: Caller['role'], archived: boolean): Statement {
  const where =
    role === 'teacher'
      ? teachesText('c', '$1')
      : `exists (select 1 from course_members m where m.course_id = c.id and m.student_id = $1 and m.status = 'active')`;
  return {
    name: `courses_${role}_${archived ? 'archived' : 'current'}_v5`,
    text: `select c.id, c.title, c.description, c.code, c.teacher_id, ${isoText('c.created_at')} as created_at,
        p.full_name as teacher_name, c.join_code, c.join_enabled, c.missing_counts_as_zero,
        ${isoText('c.archived_at')} as archived_at
      from courses c join profiles p on p.id = c.teacher_id
      where ${where} and c.deleted_at is null and c.archived_at is ${archived ? 'not null' : 'null'}
      order by ${archived ? 'c.archived_at desc' : 'c.created_at desc'}, c.id desc
      limit ${COURSES_QUERY_LIMIT}`,
  };
}

export function createCourseService({
  database,
  clock,
  outbox,
  lists,
}: {
  database: Pick<Database, 'db' | 'rows'>;
  clock: Clock;
  outbox: Outbox;
  lists: AssignmentLists;
}) {
  const { db } = database;
  const listStatements = {
    teacher: {
      current: courseListStatement('teacher', false),
      archived: courseListStatement('teacher', true),
    },
    student: {
      current: courseListStatement('student', false),
      archived: courseListStatement('student', true),
    },
  };
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
          .where(
            and(
              eq(courses.teacherId, caller.userId),
              inArray(sql`upper(${courses.code})`, codes),
              isNull(courses.deletedAt),
            ),
          )
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
        const created = rows.map((row) => toCourse(row, found(teacher, 'Profile').fullName, true));
        for (const course of created)
          record('course:created', course, audience.teachers(course.id, caller.userId));
        return created;
      }),
    );
  }

  return {
    /**
     * The caller's courses, newest first: a teacher's own, a student's active memberships (DESIGN
     * §11); the current ones, or (`archived`) the past classes, last archived first (DESIGN §20).
     */
    async list(caller: Caller, archived = false): Promise<Course[]> {
      const statement = listStatements[caller.role][archived ? 'archived' : 'current'];
      const rows = await database.rows<CourseListRow>(statement, [caller.userId]);
      return rows.map((r) =>
        courseView(
          {
            id: r.id,
            title: r.title,
            description: r.description,
            code: r.code,
            teacherId: r.teacher_id,
            createdAt: r.created_at,
            joinCode: r.join_code,
            joinEnabled: r.join_enabled,
            missingCountsAsZero: r.missing_counts_as_zero,
            archivedAt: r.archived_at,
          },
          r.teacher_name,
          caller.role === 'teacher',
        ),
      );
    },

    async create(caller: Caller, body: CreateCourseBody): Promise<Course> {
      const [course] = await insertCourses(caller, [body]);
      return course!;
    },

    async detail(caller: Caller, id: string): Promise<CourseDetail> {
      const [row] = await selectCourses(db).where(and(eq(courses.id, id), visibleCourse(caller)));
      const { course, teacherName } = found(row, 'Course');
      const [list, coTeachers] = await Promise.all([
        lists.ofCourse(caller, id),
        db
          .select({ id: profiles.id, fullName: profiles.fullName })
          .from(courseTeachers)
          .innerJoin(profiles, eq(profiles.id, courseTeachers.teacherId))
          .where(eq(courseTeachers.courseId, id))
          .orderBy(courseTeachers.createdAt, profiles.id),
      ]);
      return {
        course: toCourse(course, teacherName, caller.role === 'teacher'),
        assignments: list,
        teachers: [
          { id: course.teacherId, fullName: teacherName, role: 'owner' as const },
          ...coTeachers.map((t) => ({ ...t, role: 'co_teacher' as const })),
        ],
      };
    },

    /**
     * The teacher edits an own course: the fields given, validated as on create; the code is
     * normalized and stays unique among the teacher's courses (409 naming it). Members get the
     * course without its join code, the teacher's tabs with it.
     */
    async update(caller: Caller, id: string, body: UpdateCourseBody): Promise<Course> {
      return outbox.transaction(async (tx, record) => {
        const [target] = await tx.select().from(courses).where(eq(courses.id, id)).for('update');
        const owned = await requireTeacherOf(tx, caller, target, 'edit it');
        // The teacher's row, locked as on create: two tabs can't both take one code.
        const [teacher] = await tx
          .select({ fullName: profiles.fullName })
          .from(profiles)
          .where(eq(profiles.id, owned.teacherId))
          .for('update');
        const code = body.code === undefined ? undefined : normalizeCourseCode(body.code);
        if (code !== undefined) {
          const [clash] = await tx
            .select({ id: courses.id })
            .from(courses)
            .where(
              and(
                eq(courses.teacherId, owned.teacherId),
                eq(sql`upper(${courses.code})`, code),
                ne(courses.id, id),
                isNull(courses.deletedAt),
              ),
            )
            .limit(1);
          if (clash) throw conflict(`You already have a course with the code ${code}.`);
        }
        const [row] = await tx
          .update(courses)
          .set({
            ...(body.title !== undefined ? { title: body.title.trim() } : {}),
            ...(body.description !== undefined ? { description: body.description.trim() } : {}),
            ...(code !== undefined ? { code } : {}),
            ...(body.missingCountsAsZero !== undefined
              ? { missingCountsAsZero: body.missingCountsAsZero }
              : {}),
          })
          .where(eq(courses.id, id))
          .returning();
        const teacherName = found(teacher, 'Profile').fullName;
        record('course:updated', toCourse(row!, teacherName, false), audience.members(id));
        const mine = toCourse(row!, teacherName, true);
        record('course:updated', mine, audience.teachers(id, owned.teacherId));
        return mine;
      });
    },

    /**
     * Moves an own course to the bin (DESIGN §17) with its roster and its binned assignments;
     * refused while it has live assignments (the spec's rule: they go to the bin first, one by
     * one, each confirmed with what it holds). Always binned, even empty: one rule, one undo.
     */
    async remove(caller: Caller, id: string): Promise<void> {
      await outbox.transaction(async (tx, record) => {
        const [course] = await tx.select().from(courses).where(eq(courses.id, id)).for('update');
        const owned = await requireOwnerOf(tx, caller, course, 'delete it');
        const [{ n } = { n: 0 }] = await tx
          .select({ n: count() })
          .from(assignments)
          .where(and(eq(assignments.courseId, id), isNull(assignments.deletedAt)));
        if (n > 0) throw conflict(stillHasAssignments(n));
        // Its members' own rooms too, as when a course was deleted for good: a tab that was offline
        // replays this from its user room.
        const members = await tx
          .select({ studentId: courseMembers.studentId })
          .from(courseMembers)
          .where(and(eq(courseMembers.courseId, id), eq(courseMembers.status, 'active')));
        await moveToBin(tx, 'course', id, caller.userId, clock.now());
        record('course:deleted', { id }, [
          ...audience.course(id, owned.teacherId),
          ...members.map((m) => userRoom(m.studentId)),
        ]);
      });
    },
  };
}

export type CourseService = ReturnType<typeof createCourseService>;
