import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../db/client.js';
import { courses, courseTeachers } from '../db/schema.js';

/**
 * "Teaches this course" (DESIGN §20): its owner (`courses.teacher_id`) or one of its co-teachers
 * (`course_teachers`). Every rule that says "the course's teachers" — reads, writes, grading, rooms,
 * notifications, to-do — is this one condition; only deleting, archiving, removing the owner and
 * transferring stay the owner's (`courses.teacherId === caller`).
 */

/** SQL true where `userId` teaches the course `courses` (the query must have `courses` in it). */
export function teaches(userId: string): SQL {
  return sql`(${courses.teacherId} = ${userId}::uuid or exists (select 1 from ${courseTeachers}
    where ${courseTeachers.courseId} = ${courses.id} and ${courseTeachers.teacherId} = ${userId}::uuid))`;
}

/** SQL true where `userId` teaches the course whose id is `courseId` (no `courses` needed in the query). */
export function teachesCourse(userId: string, courseId: AnyPgColumn | SQL): SQL {
  return sql`exists (select 1 from ${courses} where ${courses.id} = ${courseId} and ${teaches(userId)})`;
}

/**
 * The same condition as text, for the hand-written prepared statements (the course list, the
 * dashboard): `alias` is the courses alias, `param` the caller's placeholder (`$1`).
 */
export function teachesText(alias: string, param: string): string {
  return `(${alias}.teacher_id = ${param} or exists (select 1 from course_teachers ct
    where ct.course_id = ${alias}.id and ct.teacher_id = ${param}))`;
}

/** Whether `userId` is a co-teacher (not the owner) of the course. */
export async function coTeaches(tx: Db | Tx, courseId: string, userId: string): Promise<boolean> {
  const [row] = await tx
    .select({ courseId: courseTeachers.courseId })
    .from(courseTeachers)
    .where(and(eq(courseTeachers.courseId, courseId), eq(courseTeachers.teacherId, userId)));
  return row !== undefined;
}

/** Whether `userId` teaches the course (owner or co-teacher); the owner needs no query. */
export async function teachesCourseRow(
  tx: Db | Tx,
  course: { id: string; teacherId: string },
  userId: string,
): Promise<boolean> {
  return course.teacherId === userId || coTeaches(tx, course.id, userId);
}

/** Every teacher of the course, the owner first (the audience of a submission's notification). */
export async function teacherIdsOf(tx: Db | Tx, courseId: string): Promise<string[]> {
  const [owner] = await tx.select({ id: courses.teacherId }).from(courses).where(eq(courses.id, courseId));
  if (!owner) return [];
  const co = await tx
    .select({ id: courseTeachers.teacherId })
    .from(courseTeachers)
    .where(eq(courseTeachers.courseId, courseId))
    .orderBy(courseTeachers.createdAt);
  return [owner.id, ...co.map((r) => r.id)];
}
