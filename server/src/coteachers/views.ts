import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { MAX_CO_TEACHERS, type CourseTeachers, type CourseTeachersForMembers } from '@classwave/shared';
import type { Db, Tx } from '../db/client.js';
import { courses, courseTeachers, profiles, teacherInvites, users } from '../db/schema.js';

/** The address an invitation was sent to, compared as the accounts' e-mails are: case-insensitively. */
export const sameEmail = (column: typeof teacherInvites.email | typeof users.email, email: string) =>
  sql`lower(${column}) = lower(${email})`;

/** A course's teachers (the owner first, then co-teachers by when they joined) and its open invitations. */
export async function courseTeachersOf(tx: Db | Tx, courseId: string): Promise<CourseTeachers> {
  const [owner] = await tx
    .select({ id: profiles.id, fullName: profiles.fullName, email: users.email, since: courses.createdAt })
    .from(courses)
    .innerJoin(profiles, eq(profiles.id, courses.teacherId))
    .innerJoin(users, eq(users.id, profiles.id))
    .where(eq(courses.id, courseId));
  const co = await tx
    .select({
      id: profiles.id,
      fullName: profiles.fullName,
      email: users.email,
      since: courseTeachers.createdAt,
    })
    .from(courseTeachers)
    .innerJoin(profiles, eq(profiles.id, courseTeachers.teacherId))
    .innerJoin(users, eq(users.id, profiles.id))
    .where(eq(courseTeachers.courseId, courseId))
    .orderBy(asc(courseTeachers.createdAt), asc(profiles.id));
  const invites = await tx
    .select()
    .from(teacherInvites)
    .where(and(eq(teacherInvites.courseId, courseId), isNull(teacherInvites.acceptedAt)))
    .orderBy(asc(teacherInvites.createdAt), asc(teacherInvites.id));
  return {
    courseId,
    teachers: [
      ...(owner ? [{ ...owner, role: 'owner' as const, since: owner.since.toISOString() }] : []),
      ...co.map((t) => ({ ...t, role: 'co_teacher' as const, since: t.since.toISOString() })),
    ],
    invites: invites.map((i) => ({
      id: i.id,
      email: i.email,
      invitedAt: i.createdAt.toISOString(),
      expiresAt: i.expiresAt.toISOString(),
    })),
    maxCoTeachers: MAX_CO_TEACHERS,
  };
}

/** How many co-teachers the course has now. */
export async function coTeacherCount(tx: Db | Tx, courseId: string): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(courseTeachers)
    .where(eq(courseTeachers.courseId, courseId));
  return row?.n ?? 0;
}

/** The members' view of a course's teachers (DESIGN §20): names and roles, no address, no invitation. */
export const teachersForMembers = (list: CourseTeachers): CourseTeachersForMembers => ({
  courseId: list.courseId,
  teachers: list.teachers.map(({ id, fullName, role }) => ({ id, fullName, role })),
  invites: [],
});
