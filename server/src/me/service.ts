import { and, asc, count, desc, eq, gt, isNull } from 'drizzle-orm';
import { ErrorCode, type Profile, type SessionInfo, type User } from '@classwave/shared';
import type { Caller } from '../auth/caller.js';
import { hashPassword, verifyPassword } from '../auth/passwords.js';
import { describeDevice, revokeUserSessions } from '../auth/sessions.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/client.js';
import { PG, pgCode } from '../db/errors.js';
import { courseMembers, courses, profiles, sessions, users } from '../db/schema.js';
import type { DomainEventBus } from '../events.js';
import { AppError, badRequest, notFound, unauthorized } from '../http/errors.js';
import type { Outbox } from '../realtime/outbox.js';
import { audience, courseRoom, userRoom } from '../realtime/rooms.js';
import { teaches } from '../courses/teaching.js';
import { toUser } from '../auth/users.js';
import { accountOf } from './account.js';
import { recordAccountLeaving } from '../classes/service.js';
import { exportAccount } from './export.js';

const OWNS_COURSES =
  'You still own courses. Delete them or hand them over to another teacher before deleting your account.';

/**
 * The signed-in user's own account: name, password, sessions, export and deletion (DESIGN §15).
 * Every action here acts on the caller alone, so the only permission is being signed in, plus the
 * current password for the two that could lock the owner out.
 */
export function createAccountService(deps: {
  db: Db;
  clock: Clock;
  outbox: Outbox;
  bus: DomainEventBus;
  /** Sessions idle longer than this (the refresh-token lifetime) can no longer be used, so are not listed. */
  sessionIdleSeconds: number;
}) {
  const { db, clock, outbox, bus, sessionIdleSeconds } = deps;

  const announceEnded = (userId: string, ids: string[], reason: string) => {
    for (const sessionId of ids) bus.emit('session:ended', { sessionId, userId, reason });
  };

  async function requirePassword(caller: Caller, password: string): Promise<void> {
    const [user] = await db
      .select({ passwordHash: users.passwordHash })
      .from(users)
      .where(eq(users.id, caller.userId));
    if (!user) throw unauthorized('The access token is not valid.', ErrorCode.invalidToken);
    if (!(await verifyPassword(user.passwordHash, password)))
      throw new AppError(403, ErrorCode.wrongPassword, 'Your current password is not right.');
  }

  return {
    /** The signed-in user and their profile (GET /api/me). */
    async me(caller: Caller): Promise<{ user: User; profile: Profile }> {
      const { user, profile } = await accountOf(db, caller);
      return {
        user: toUser(user),
        profile: { id: profile.id, fullName: profile.fullName, role: profile.role },
      };
    },

    /**
     * Renames the caller. Every tab of theirs hears `profile:updated`, and so does everyone who
     * shows the name: a student's teachers (rosters, gradebooks, submissions), and a teacher's
     * classes and fellow teachers (the course's instructors). Nobody else: the name is not news to anyone else.
     */
    async updateProfile(caller: Caller, input: { fullName: string }): Promise<Profile> {
      return outbox.transaction(async (tx, record) => {
        const [row] = await tx
          .update(profiles)
          .set({ fullName: input.fullName.trim() })
          .where(eq(profiles.id, caller.userId))
          .returning();
        if (!row) throw unauthorized('The access token is not valid.', ErrorCode.invalidToken);
        const profile: Profile = { id: row.id, fullName: row.fullName, role: row.role };
        const shownTo =
          row.role === 'teacher'
            ? // Its members, and its other teachers (the Instructors card and Teachers section, DESIGN §20).
              (
                await tx
                  .select({ id: courses.id, teacherId: courses.teacherId })
                  .from(courses)
                  .where(teaches(row.id))
              ).flatMap((course) => [
                courseRoom(course.id),
                ...audience.teachers(course.id, course.teacherId),
              ])
            : (
                await tx
                  .selectDistinct({ id: courses.id, teacherId: courses.teacherId })
                  .from(courseMembers)
                  .innerJoin(courses, eq(courses.id, courseMembers.courseId))
                  .where(and(eq(courseMembers.studentId, row.id), eq(courseMembers.status, 'active')))
              ).flatMap((course) => audience.teachers(course.id, course.teacherId));
        record('profile:updated', profile, [userRoom(caller.userId), ...shownTo]);
        return profile;
      });
    },

    /** Changes the password after checking the current one; every other session ends. */
    async changePassword(caller: Caller, input: { currentPassword: string; newPassword: string }) {
      await requirePassword(caller, input.currentPassword);
      const passwordHash = await hashPassword(input.newPassword);
      const ended = await db.transaction(async (tx) => {
        await tx.update(users).set({ passwordHash }).where(eq(users.id, caller.userId));
        return revokeUserSessions(tx, {
          userId: caller.userId,
          except: caller.sessionId,
          reason: 'password_changed',
          now: clock.now(),
        });
      });
      announceEnded(caller.userId, ended, 'password_changed');
      return { message: 'Your password has been changed. Your other sessions were signed out.' };
    },

    async listSessions(caller: Caller): Promise<{ sessions: SessionInfo[] }> {
      const since = new Date(clock.now().getTime() - sessionIdleSeconds * 1000);
      const rows = await db
        .select()
        .from(sessions)
        .where(
          and(eq(sessions.userId, caller.userId), isNull(sessions.revokedAt), gt(sessions.lastSeenAt, since)),
        )
        .orderBy(desc(sessions.lastSeenAt), asc(sessions.id));
      return {
        sessions: rows.map((s) => ({
          id: s.id,
          device: describeDevice(s.userAgent),
          createdAt: s.createdAt.toISOString(),
          lastSeenAt: s.lastSeenAt.toISOString(),
          current: s.id === caller.sessionId,
        })),
      };
    },

    /** "Sign out everywhere else": ends every session but the caller's; their tabs go to /login. */
    async signOutOthers(caller: Caller): Promise<{ ended: number }> {
      const ended = await revokeUserSessions(db, {
        userId: caller.userId,
        except: caller.sessionId,
        reason: 'signed_out_elsewhere',
        now: clock.now(),
      });
      announceEnded(caller.userId, ended, 'signed_out_elsewhere');
      return { ended: ended.length };
    },

    /**
     * Signs one of the user's other devices out (issue 25: only "everywhere else" was offered). The
     * current session signs out with Sign Out; someone else's session, or one already ended, is a 404.
     */
    async signOutSession(caller: Caller, sessionId: string): Promise<void> {
      if (sessionId === caller.sessionId)
        throw badRequest('This is the session you are using: sign out with Sign Out instead.');
      const ended = await revokeUserSessions(db, {
        userId: caller.userId,
        only: sessionId,
        reason: 'signed_out_elsewhere',
        now: clock.now(),
      });
      if (ended.length === 0) throw notFound('Session not found.');
      announceEnded(caller.userId, ended, 'signed_out_elsewhere');
    },

    exportData: (caller: Caller) => exportAccount(db, caller, clock.now()),

    /**
     * Deletes the account and everything that is only the user's: profile, sessions, chat and a
     * student's submissions with their grades. Deleted, not anonymised: an answer is the student's
     * own words (often naming them), so a copy with the name removed is still personal data, and a
     * school's record of grades lives in its own records system, not here; the student can download
     * everything first. A teacher must first delete or hand over their courses, whose assignments
     * and students' work are not theirs alone to remove.
     */
    async deleteAccount(caller: Caller, input: { password: string }): Promise<void> {
      await requirePassword(caller, input.password);
      const [owned] = await db
        .select({ n: count() })
        .from(courses)
        .where(eq(courses.teacherId, caller.userId));
      if ((owned?.n ?? 0) > 0) throw new AppError(409, ErrorCode.ownsCourses, OWNS_COURSES);
      let ended: string[];
      try {
        ended = await outbox.transaction(async (tx, record) => {
          const ids = await revokeUserSessions(tx, {
            userId: caller.userId,
            reason: 'account_deleted',
            now: clock.now(),
          });
          await recordAccountLeaving(tx, record, caller.userId, clock.now());
          await tx.delete(users).where(eq(users.id, caller.userId));
          return ids;
        });
      } catch (error) {
        // A course created in the meantime: the foreign key refuses, and the answer is the same 409.
        if (pgCode(error) === PG.foreignKeyViolation)
          throw new AppError(409, ErrorCode.ownsCourses, OWNS_COURSES);
        throw error;
      }
      announceEnded(caller.userId, ended, 'account_deleted');
    },
  };
}
export type AccountService = ReturnType<typeof createAccountService>;
