import { and, eq, isNull } from 'drizzle-orm';
import {
  ErrorCode,
  MAX_CO_TEACHERS,
  TEACHER_INVITE_TTL_DAYS,
  type AcceptedTeacherInvite,
  type CourseTeachers,
  type InviteTeacherBody,
  type TeacherInvitePreview,
} from '@classwave/shared';
import type { Caller } from '../auth/caller.js';
import { hashToken, randomToken } from '../auth/crypto.js';
import { composeMail, type Mailer } from '../auth/mailer.js';
import { requireOwnerOf, requireTeacherOf } from '../classes/visibility.js';
import type { Clock } from '../clock.js';
import type { Db, Tx } from '../db/client.js';
import { courses, courseTeachers, profiles, teacherInvites, users } from '../db/schema.js';
import { AppError, conflict, forbidden, notFound } from '../http/errors.js';
import { toCourse } from '../courses/service.js';
import type { Outbox } from '../realtime/outbox.js';
import { audience, userRoom } from '../realtime/rooms.js';
import type { RecordEvent } from '../events.js';
import type { FastifyBaseLogger } from 'fastify';
import { coTeacherCount, courseTeachersOf, sameEmail, teachersForMembers } from './views.js';

const INVITE_TTL_MS = TEACHER_INVITE_TTL_DAYS * 24 * 60 * 60 * 1000;

const tooMany = () =>
  new AppError(
    409,
    ErrorCode.tooManyTeachers,
    `A course has at most ${MAX_CO_TEACHERS} co-teachers: remove one before adding another.`,
  );
const inviteInvalid = () =>
  new AppError(
    404,
    ErrorCode.teacherInviteInvalid,
    'This invitation link is not valid. Ask the course owner to invite you again.',
  );

/** The course row, locked: invitations, acceptances and removals of one course take turns (the limit holds). */
async function lockCourse(tx: Tx, courseId: string) {
  const [course] = await tx.select().from(courses).where(eq(courses.id, courseId)).for('update');
  return course;
}

/**
 * Co-teachers (DESIGN §20): the owner invites by e-mail (a mailed single-use link, stored hashed,
 * valid TEACHER_INVITE_TTL_DAYS) and removes co-teachers; a teacher account invited at that address
 * accepts. Every change tells the course's teachers (`course:teachers`), and one of who teaches it
 * its members too (their view: names only); the one who joins gets the course in their list
 * (`course:created`), the one removed loses it (`course:deleted`).
 */
export function createCoTeacherService({
  db,
  clock,
  outbox,
  mailer,
  appOrigin,
  log,
}: {
  db: Db;
  clock: Clock;
  outbox: Outbox;
  mailer: Mailer;
  appOrigin: string;
  log: FastifyBaseLogger;
}) {
  /**
   * Tells the course's teachers its new list. `teachersChanged` (someone joined or left, not an
   * invitation sent or cancelled): its members too, in their view, so an open course page's
   * Instructors card follows; an invitation's address never reaches them.
   */
  const recordTeachers = async (
    tx: Tx,
    record: RecordEvent,
    course: { id: string; teacherId: string },
    { teachersChanged }: { teachersChanged: boolean },
  ) => {
    const list = await courseTeachersOf(tx, course.id);
    record('course:teachers', list, audience.teachers(course.id, course.teacherId));
    if (teachersChanged) record('course:teachers', teachersForMembers(list), audience.members(course.id));
    return list;
  };

  /** The invitation behind a token, with its course; 404 for no such token or a binned course. */
  async function inviteOf(tx: Db | Tx, token: string, lock: boolean) {
    const query = tx
      .select({ invite: teacherInvites, course: courses, ownerName: profiles.fullName })
      .from(teacherInvites)
      .innerJoin(courses, eq(courses.id, teacherInvites.courseId))
      .innerJoin(profiles, eq(profiles.id, courses.teacherId))
      .where(eq(teacherInvites.tokenHash, hashToken(token)));
    const [row] = lock ? await query.for('update', { of: teacherInvites }) : await query;
    if (!row || row.course.deletedAt) throw inviteInvalid();
    return row;
  }

  /** Used or expired, each said plainly (the page offers nothing to do but ask again). */
  function requireOpen(invite: typeof teacherInvites.$inferSelect, now: Date) {
    if (invite.acceptedAt)
      throw new AppError(409, ErrorCode.teacherInviteUsed, 'This invitation has already been accepted.');
    if (invite.expiresAt.getTime() <= now.getTime())
      throw new AppError(
        410,
        ErrorCode.teacherInviteExpired,
        'This invitation has expired. Ask the course owner to invite you again.',
      );
  }

  return {
    /** The course's teachers and open invitations: for its teachers (members 403, others 404). */
    async list(caller: Caller, courseId: string): Promise<CourseTeachers> {
      const [course] = await db.select().from(courses).where(eq(courses.id, courseId));
      await requireTeacherOf(db, caller, course, 'see its teachers');
      return courseTeachersOf(db, courseId);
    },

    /**
     * The owner invites a teacher by e-mail. Inviting an address again replaces its open invitation
     * (the earlier link stops). Nothing is said of whether an account has that address: it is
     * checked when the link is used.
     */
    async invite(caller: Caller, courseId: string, body: InviteTeacherBody): Promise<CourseTeachers> {
      const email = body.email.trim();
      const token = randomToken();
      const { list, courseTitle, ownerName } = await outbox.transaction(async (tx, record) => {
        const course = await requireOwnerOf(tx, caller, await lockCourse(tx, courseId), 'invite co-teachers');
        const [owner] = await tx
          .select({ email: users.email, fullName: profiles.fullName })
          .from(users)
          .innerJoin(profiles, eq(profiles.id, users.id))
          .where(eq(users.id, course.teacherId));
        if (owner?.email.toLowerCase() === email.toLowerCase())
          throw conflict('That is your own address: you already teach this course.');
        const [coTeacher] = await tx
          .select({ id: courseTeachers.teacherId })
          .from(courseTeachers)
          .innerJoin(users, eq(users.id, courseTeachers.teacherId))
          .where(and(eq(courseTeachers.courseId, courseId), sameEmail(users.email, email)));
        if (coTeacher) throw conflict(`${email} already teaches this course.`);
        if ((await coTeacherCount(tx, courseId)) >= MAX_CO_TEACHERS) throw tooMany();
        const now = clock.now();
        await tx
          .delete(teacherInvites)
          .where(
            and(
              eq(teacherInvites.courseId, courseId),
              sameEmail(teacherInvites.email, email),
              isNull(teacherInvites.acceptedAt),
            ),
          );
        await tx.insert(teacherInvites).values({
          courseId,
          email,
          tokenHash: hashToken(token),
          invitedBy: caller.userId,
          createdAt: now,
          expiresAt: new Date(now.getTime() + INVITE_TTL_MS),
        });
        return {
          list: await recordTeachers(tx, record, course, { teachersChanged: false }),
          courseTitle: course.title,
          ownerName: owner?.fullName ?? 'A teacher',
        };
      });
      const url = new URL(`/teacher-invites/${token}`, appOrigin).toString();
      const mail = composeMail(
        email,
        `${ownerName} invited you to co-teach ${courseTitle}`,
        [
          `${ownerName} invited you to teach ${courseTitle} with them on Classwave.`,
          `As a co-teacher you can post, set and grade work, and manage the class. The link works for ${TEACHER_INVITE_TTL_DAYS} days, once, and only for a teacher account with this e-mail address.`,
        ],
        { label: 'Accept the invitation', url },
      );
      try {
        await mailer.send(mail);
      } catch (err) {
        log.warn({ err }, 'co-teacher invitation mail failed');
        throw new AppError(
          503,
          ErrorCode.emailSendFailed,
          'The invitation is saved, but the e-mail could not be sent just now. Invite again in a few minutes.',
          { 'retry-after': '60' },
        );
      }
      return list;
    },

    /** What the invitation's page shows: the course, who invited, to which address. */
    async preview(caller: Caller, token: string): Promise<TeacherInvitePreview> {
      const row = await inviteOf(db, token, false);
      if (caller.role !== 'teacher')
        throw forbidden('Only a teacher account can accept an invitation to co-teach.');
      requireOpen(row.invite, clock.now());
      return {
        course: { id: row.course.id, title: row.course.title },
        invitedBy: { fullName: row.ownerName },
        email: row.invite.email,
        expiresAt: row.invite.expiresAt.toISOString(),
      };
    },

    /**
     * A teacher account with the invited address becomes a co-teacher: the course comes into their
     * list and its rooms' events reach them from this commit on.
     */
    async accept(caller: Caller, token: string): Promise<AcceptedTeacherInvite> {
      return outbox.transaction(async (tx, record) => {
        const found = await inviteOf(tx, token, true);
        if (caller.role !== 'teacher')
          throw forbidden('Only a teacher account can accept an invitation to co-teach.');
        requireOpen(found.invite, clock.now());
        const [me] = await tx.select({ email: users.email }).from(users).where(eq(users.id, caller.userId));
        if (!me || me.email.toLowerCase() !== found.invite.email.toLowerCase())
          throw forbidden(
            `This invitation was sent to ${found.invite.email}. Sign in with that account to accept it.`,
          );
        const course = await lockCourse(tx, found.course.id);
        if (!course || course.deletedAt) throw inviteInvalid();
        if (course.teacherId === caller.userId) throw conflict('You already teach this course.');
        const inserted = await tx
          .insert(courseTeachers)
          .values({ courseId: course.id, teacherId: caller.userId, invitedBy: found.invite.invitedBy })
          .onConflictDoNothing()
          .returning({ teacherId: courseTeachers.teacherId });
        if (inserted.length === 0) throw conflict('You already teach this course.');
        if ((await coTeacherCount(tx, course.id)) > MAX_CO_TEACHERS) throw tooMany();
        await tx
          .update(teacherInvites)
          .set({ acceptedAt: clock.now(), acceptedBy: caller.userId })
          .where(eq(teacherInvites.id, found.invite.id));
        const shown = toCourse(course, found.ownerName, true);
        record('course:created', shown, [userRoom(caller.userId)]);
        await recordTeachers(tx, record, course, { teachersChanged: true });
        return { course: shown };
      });
    },

    /**
     * The owner removes a co-teacher, or a co-teacher leaves (`userId` their own): the course leaves
     * their list and nothing of it reaches them from this commit on. The owner cannot be removed
     * (there is no one to hand the course to). Leaving answers null: the list is no longer theirs.
     */
    async remove(caller: Caller, courseId: string, userId: string): Promise<CourseTeachers | null> {
      const leaving = userId === caller.userId;
      return outbox.transaction(async (tx, record) => {
        const locked = await lockCourse(tx, courseId);
        const course = leaving
          ? await requireTeacherOf(tx, caller, locked, 'leave it')
          : await requireOwnerOf(tx, caller, locked, 'remove co-teachers');
        if (userId === course.teacherId)
          throw forbidden(
            leaving
              ? 'You own this course, so you cannot leave it: archive or delete it instead.'
              : "The course's owner cannot be removed; delete the course instead.",
          );
        const removed = await tx
          .delete(courseTeachers)
          .where(and(eq(courseTeachers.courseId, courseId), eq(courseTeachers.teacherId, userId)))
          .returning({ teacherId: courseTeachers.teacherId });
        if (removed.length === 0) throw notFound('That teacher does not co-teach this course.');
        record('course:deleted', { id: courseId }, [userRoom(userId)]);
        const list = await recordTeachers(tx, record, course, { teachersChanged: true });
        return leaving ? null : list;
      });
    },

    /**
     * The owner cancels an invitation not yet accepted: its link then answers as an unknown one
     * (404 teacher_invite_invalid), and the address may be invited again.
     */
    async cancelInvite(caller: Caller, courseId: string, inviteId: string): Promise<CourseTeachers> {
      return outbox.transaction(async (tx, record) => {
        const course = await requireOwnerOf(tx, caller, await lockCourse(tx, courseId), 'cancel invitations');
        const cancelled = await tx
          .delete(teacherInvites)
          .where(
            and(
              eq(teacherInvites.id, inviteId),
              eq(teacherInvites.courseId, courseId),
              isNull(teacherInvites.acceptedAt),
            ),
          )
          .returning({ id: teacherInvites.id });
        if (cancelled.length === 0) throw notFound('No open invitation of this course has that id.');
        return recordTeachers(tx, record, course, { teachersChanged: false });
      });
    },
  };
}
export type CoTeacherService = ReturnType<typeof createCoTeacherService>;
