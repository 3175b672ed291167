import { and, asc, count, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  ErrorCode,
  REMOVED_FROM_COURSE,
  formatJoinCode,
  normalizeJoinCode,
  type Course,
  type CourseMember,
  type JoinCodeBody,
  type JoinCodeState,
  type JoinPreview,
  type JoinResponse,
} from '@classwave/shared';
import type { Caller } from '../auth/caller.js';
import type { Clock } from '../clock.js';
import type { Db, Tx } from '../db/client.js';
import { assignments, courseMembers, courses, profiles, submissions, users } from '../db/schema.js';
import type { DomainEventBus } from '../events.js';
import { AppError, conflict, notFound } from '../http/errors.js';
import { requireStudent } from '../policies.js';
import type { RecordEvent } from '../events.js';
import type { Outbox } from '../realtime/outbox.js';
import { audience } from '../realtime/rooms.js';
import { toCourse } from '../courses/service.js';
import { randomJoinCode, retryOnCodeCollision } from './codes.js';
import type { WrongCodeLimiter } from './limits.js';
import { courseArchived } from '../archive/rules.js';
import { requireTeacherOf } from './visibility.js';

const codeInvalid = () =>
  new AppError(404, ErrorCode.joinCodeInvalid, 'No course has that code. Check it with your teacher.');
const joinDisabled = () =>
  new AppError(403, ErrorCode.joinDisabled, 'The teacher has turned joining off for this course.');
const wasRemoved = () => new AppError(403, ErrorCode.forbidden, REMOVED_FROM_COURSE);
const memberNotFound = () => notFound('That student is not in this course.');

/** Who is asking, for the wrong-code limits. */
export interface Requester {
  caller: Caller;
  ip: string;
}

type MemberRow = typeof courseMembers.$inferSelect;

/**
 * Joining by code, the roster, leaving, removal and restore, and the course's code (DESIGN §11).
 * After each membership change commits, `membership` tells the realtime module to move the
 * student's sockets into or out of the course's room before the HTTP answer goes out.
 */
export function createClassService({
  db,
  clock,
  outbox,
  bus,
  limiter,
}: {
  db: Db;
  clock: Clock;
  outbox: Outbox;
  bus: DomainEventBus;
  limiter: WrongCodeLimiter;
}) {
  const withTeacher = (tx: Db | Tx) =>
    tx
      .select({ course: courses, teacherName: profiles.fullName })
      .from(courses)
      .innerJoin(profiles, eq(profiles.id, courses.teacherId));

  /** The course for a typed code, counting a wrong one against the caller's limits. */
  async function courseByCode({ caller, ip }: Requester, input: string) {
    requireStudent(caller, 'join courses');
    const who = { userId: caller.userId, ip };
    await limiter.check(who);
    const code = normalizeJoinCode(input);
    const [row] = code ? await withTeacher(db).where(eq(courses.joinCode, code)) : [];
    // A binned course's code opens nothing, as a wrong one (DESIGN §17).
    if (!row || row.course.deletedAt) {
      await limiter.wrong(who);
      throw codeInvalid();
    }
    if (!row.course.joinEnabled) throw joinDisabled();
    return row;
  }

  /** One roster row, as the teacher sees it. */
  async function memberOf(tx: Db | Tx, courseId: string, studentId: string): Promise<CourseMember> {
    const [row] = await roster(tx, courseId, studentId);
    if (!row) throw memberNotFound();
    return row;
  }

  async function roster(tx: Db | Tx, courseId: string, studentId?: string): Promise<CourseMember[]> {
    const rows = await tx
      .select({
        member: courseMembers,
        fullName: profiles.fullName,
        email: users.email,
        submissionCount: sql<number>`(select count(*)::int from ${submissions}
          inner join ${assignments} on ${assignments.id} = ${submissions.assignmentId}
          where ${assignments.courseId} = ${courseMembers.courseId} and ${assignments.deletedAt} is null
          and ${submissions.studentId} = ${courseMembers.studentId} and ${submissions.submittedAt} is not null)`,
      })
      .from(courseMembers)
      .innerJoin(profiles, eq(profiles.id, courseMembers.studentId))
      .innerJoin(users, eq(users.id, courseMembers.studentId))
      .where(
        and(
          eq(courseMembers.courseId, courseId),
          studentId ? eq(courseMembers.studentId, studentId) : undefined,
        ),
      )
      // Active students first, then by name, as a teacher reads a class list.
      .orderBy(
        sql`${courseMembers.status} <> 'active'`,
        asc(sql`lower(${profiles.fullName})`),
        asc(courseMembers.studentId),
      );
    return rows.map((r) => toMember(r.member, r.fullName, r.email, r.submissionCount));
  }

  /** Records a member:* event (course as a student sees it, and the roster row) to the teacher and the student. */
  async function recordMember(
    tx: Tx,
    record: RecordEvent,
    type: 'member:joined' | 'member:left' | 'member:removed' | 'member:restored',
    course: Course,
    studentId: string,
  ) {
    const member = await memberOf(tx, course.id, studentId);
    record(type, { course, member }, audience.studentAndTeachers(studentId, course.id, course.teacherId));
    return member;
  }

  /** Sets a membership's status in the transaction; returns the row as it was before. */
  async function lockMembership(tx: Tx, courseId: string, studentId: string): Promise<MemberRow | undefined> {
    const [row] = await tx
      .select()
      .from(courseMembers)
      .where(and(eq(courseMembers.courseId, courseId), eq(courseMembers.studentId, studentId)))
      .for('update');
    return row;
  }

  const moved = (studentId: string, courseId: string, active: boolean) =>
    bus.emit('membership', { studentId, courseId, active });

  async function ownedCourse(tx: Db | Tx, caller: Caller, courseId: string) {
    const [row] = await withTeacher(tx).where(eq(courses.id, courseId));
    await requireTeacherOf(tx, caller, row?.course, 'manage its members');
    return row!;
  }

  return {
    async preview(requester: Requester, input: string): Promise<JoinPreview> {
      const { course, teacherName } = await courseByCode(requester, input);
      const [[counted], status] = await Promise.all([
        db
          .select({ n: count() })
          .from(courseMembers)
          .where(and(eq(courseMembers.courseId, course.id), eq(courseMembers.status, 'active'))),
        db
          .select({ status: courseMembers.status })
          .from(courseMembers)
          .where(
            and(eq(courseMembers.courseId, course.id), eq(courseMembers.studentId, requester.caller.userId)),
          ),
      ]);
      return {
        course: { id: course.id, title: course.title, code: course.code },
        teacher: { fullName: teacherName },
        memberCount: counted?.n ?? 0,
        alreadyMember: status[0]?.status === 'active',
        removed: status[0]?.status === 'removed',
      };
    },

    /** Joins by code: 200 with the course, also when already a member; a removed student cannot. */
    async join(requester: Requester, input: string): Promise<JoinResponse> {
      const { course: found, teacherName } = await courseByCode(requester, input);
      const studentId = requester.caller.userId;
      const course = toCourse(found, teacherName, false);
      const joined = await outbox.transaction(async (tx, record) => {
        // Checked again under a lock: a reset or a "joining off" that committed since the look-up wins.
        const [now] = await tx
          .select({
            joinCode: courses.joinCode,
            joinEnabled: courses.joinEnabled,
            archivedAt: courses.archivedAt,
          })
          .from(courses)
          .where(eq(courses.id, found.id))
          .for('share');
        if (!now || now.joinCode !== found.joinCode) throw codeInvalid();
        if (!now.joinEnabled) throw joinDisabled();
        const before = await lockMembership(tx, found.id, studentId);
        if (before?.status === 'active') return false;
        // Read-only (DESIGN §20): nobody joins an archived course, whoever holds its code.
        if (now.archivedAt) throw courseArchived();
        if (before?.status === 'removed') throw wasRemoved();
        const at = clock.now();
        await tx
          .insert(courseMembers)
          .values({ courseId: found.id, studentId, status: 'active', joinedAt: at })
          .onConflictDoUpdate({
            target: [courseMembers.courseId, courseMembers.studentId],
            set: { status: 'active', joinedAt: at, endedAt: null },
          });
        await recordMember(tx, record, 'member:joined', course, studentId);
        return true;
      });
      if (joined) moved(studentId, found.id, true);
      return { course };
    },

    async leave(caller: Caller, courseId: string): Promise<void> {
      requireStudent(caller, 'leave courses');
      await outbox.transaction(async (tx, record) => {
        const before = await lockMembership(tx, courseId, caller.userId);
        // Not an active member: the course is not visible to them (404, as everywhere).
        if (before?.status !== 'active') throw notFound('Course not found.');
        await tx
          .update(courseMembers)
          .set({ status: 'left', endedAt: clock.now() })
          .where(and(eq(courseMembers.courseId, courseId), eq(courseMembers.studentId, caller.userId)));
        const [row] = await withTeacher(tx).where(eq(courses.id, courseId));
        if (row?.course.deletedAt) throw notFound('Course not found.');
        await recordMember(
          tx,
          record,
          'member:left',
          toCourse(row!.course, row!.teacherName, false),
          caller.userId,
        );
      });
      moved(caller.userId, courseId, false);
    },

    async members(caller: Caller, courseId: string): Promise<CourseMember[]> {
      await ownedCourse(db, caller, courseId);
      return roster(db, courseId);
    },

    /** The teacher removes a student (kept on the roster as 'removed', their submissions kept). */
    async remove(caller: Caller, courseId: string, studentId: string): Promise<CourseMember> {
      const result = await outbox.transaction(async (tx, record) => {
        const { course, teacherName } = await ownedCourse(tx, caller, courseId);
        const before = await lockMembership(tx, courseId, studentId);
        if (!before) throw memberNotFound();
        if (before.status !== 'active')
          return { member: await memberOf(tx, courseId, studentId), changed: false };
        await tx
          .update(courseMembers)
          .set({ status: 'removed', endedAt: clock.now() })
          .where(and(eq(courseMembers.courseId, courseId), eq(courseMembers.studentId, studentId)));
        const shown = toCourse(course, teacherName, false);
        return { member: await recordMember(tx, record, 'member:removed', shown, studentId), changed: true };
      });
      if (result.changed) moved(studentId, courseId, false);
      return result.member;
    },

    /** The teacher takes a removed student back. A student who left by themselves re-joins with the code. */
    async restore(caller: Caller, courseId: string, studentId: string): Promise<CourseMember> {
      const result = await outbox.transaction(async (tx, record) => {
        const { course, teacherName } = await ownedCourse(tx, caller, courseId);
        const before = await lockMembership(tx, courseId, studentId);
        if (!before) throw memberNotFound();
        if (before.status === 'active')
          return { member: await memberOf(tx, courseId, studentId), changed: false };
        if (before.status === 'left')
          throw conflict('This student left the course themselves; they can join again with the code.');
        await tx
          .update(courseMembers)
          .set({ status: 'active', endedAt: null })
          .where(and(eq(courseMembers.courseId, courseId), eq(courseMembers.studentId, studentId)));
        const shown = toCourse(course, teacherName, false);
        return { member: await recordMember(tx, record, 'member:restored', shown, studentId), changed: true };
      });
      if (result.changed) moved(studentId, courseId, true);
      return result.member;
    },

    /** Reset the code (the old one stops at once), or turn joining off or on. */
    async joinCode(caller: Caller, courseId: string, { action }: JoinCodeBody): Promise<JoinCodeState> {
      return retryOnCodeCollision(() =>
        outbox.transaction(async (tx, record) => {
          const { teacherName } = await ownedCourse(tx, caller, courseId);
          const set =
            action === 'reset' ? { joinCode: randomJoinCode() } : { joinEnabled: action === 'enable' };
          const [row] = await tx.update(courses).set(set).where(eq(courses.id, courseId)).returning();
          // Only the teacher's tabs: the code is theirs alone, and students see nothing of it change.
          record(
            'course:updated',
            toCourse(row!, teacherName, true),
            audience.teachers(courseId, row!.teacherId),
          );
          return { joinCode: formatJoinCode(row!.joinCode), joinEnabled: row!.joinEnabled };
        }),
      );
    },
  };
}
export type ClassService = ReturnType<typeof createClassService>;

/**
 * A student's account is being deleted (in the deleting transaction, before its rows go): each
 * course they are active in tells its teacher `member:left`, with no work left to count, so open
 * rosters and gradebooks follow at once as for any student who leaves (issue 25: they kept showing
 * the student until a reload).
 */
export async function recordAccountLeaving(tx: Tx, record: RecordEvent, studentId: string, at: Date) {
  const teacher = alias(profiles, 'teacher');
  const rows = await tx
    .select({
      member: courseMembers,
      course: courses,
      teacherName: teacher.fullName,
      fullName: profiles.fullName,
      email: users.email,
    })
    .from(courseMembers)
    .innerJoin(courses, eq(courses.id, courseMembers.courseId))
    .innerJoin(teacher, eq(teacher.id, courses.teacherId))
    .innerJoin(profiles, eq(profiles.id, courseMembers.studentId))
    .innerJoin(users, eq(users.id, courseMembers.studentId))
    .where(and(eq(courseMembers.studentId, studentId), eq(courseMembers.status, 'active')));
  for (const row of rows) {
    const member = toMember({ ...row.member, status: 'left', endedAt: at }, row.fullName, row.email, 0);
    const course = toCourse(row.course, row.teacherName, true);
    record('member:left', { course, member }, audience.teachers(row.course.id, row.course.teacherId));
  }
}

/** A membership row as the roster shows it (also the roster's enrolment of invited students). */
export function toMember(
  row: MemberRow,
  fullName: string,
  email: string,
  submissionCount: number,
): CourseMember {
  return {
    courseId: row.courseId,
    student: { id: row.studentId, fullName, email },
    status: row.status,
    joinedAt: row.joinedAt.toISOString(),
    endedAt: row.endedAt?.toISOString() ?? null,
    submissionCount,
  };
}
