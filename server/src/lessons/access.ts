import { and, eq, isNull, sql } from 'drizzle-orm';
import { ErrorCode } from '@classwave/shared';
import type { Caller } from '../auth/caller.js';
import type { Db, Tx } from '../db/client.js';
import { courseMembers, courses, courseTeachers, lessonQuestions, lessons, profiles } from '../db/schema.js';
import { AppError, forbidden, notFound } from '../http/errors.js';
import { teaches } from '../courses/teaching.js';

/**
 * Who may do what in a course's live lessons (DESIGN §11, §21), read in one query per request so
 * every route re-checks membership as it stands: the course's teachers run lessons; its active
 * members see them and answer; a former member and everyone else are told it is not there (404),
 * except that a former member answering hears why (403 not_a_member).
 */

export type LessonRow = typeof lessons.$inferSelect;

export interface Standing {
  courseId: string;
  /** The course's owner: the teachers' audience is named from it (realtime/rooms.ts). */
  teacherId: string;
  /** The caller is one of the course's teachers. */
  teaches: boolean;
  /** The caller's membership as a student; null when they never joined. */
  membership: 'active' | 'left' | 'removed' | null;
}

/** The caller's membership of the `courses` row at hand; share-locked for a write (a removal waits, or is seen). */
const membershipOf = (userId: string, lock: boolean) =>
  sql<string | null>`(select ${courseMembers.status} from ${courseMembers}
    where ${courseMembers.courseId} = ${courses.id} and ${courseMembers.studentId} = ${userId}${lock ? sql` for share` : sql``})`;

const standingColumns = (caller: Caller, lock: boolean) => ({
  courseId: courses.id,
  teacherId: courses.teacherId,
  teaches: sql<boolean>`${teaches(caller.userId)}`,
  membership: membershipOf(caller.userId, lock),
});

const toStanding = (row: {
  courseId: string;
  teacherId: string;
  teaches: unknown;
  membership: string | null;
}) => ({
  courseId: row.courseId,
  teacherId: row.teacherId,
  teaches: Boolean(row.teaches),
  membership: row.membership as Standing['membership'],
});

/** The caller's standing in a live (not binned) course, or undefined when there is none. */
export async function courseStanding(
  db: Db | Tx,
  caller: Caller,
  courseId: string,
): Promise<Standing | undefined> {
  const [row] = await db
    .select(standingColumns(caller, false))
    .from(courses)
    .where(and(eq(courses.id, courseId), isNull(courses.deletedAt)));
  return row ? toStanding(row) : undefined;
}

/**
 * A lesson with the caller's standing in its course, in one query. `lock`: 'update' locks the
 * lesson's row (a teacher's push, close or end: one at a time per lesson); 'share' share-locks it
 * and the caller's membership (an answer: answers run side by side, a close or a removal waits).
 */
export async function lessonStanding(
  db: Db | Tx,
  caller: Caller,
  lessonId: string,
  lock?: 'update' | 'share',
): Promise<{ lesson: LessonRow; standing: Standing } | undefined> {
  const query = db
    .select({ lesson: lessons, ...standingColumns(caller, lock === 'share') })
    .from(lessons)
    .innerJoin(courses, and(eq(courses.id, lessons.courseId), isNull(courses.deletedAt)))
    .where(eq(lessons.id, lessonId));
  const [row] = await (lock ? query.for(lock, { of: lessons }) : query);
  if (!row) return undefined;
  const { lesson, ...standing } = row;
  return { lesson, standing: toStanding(standing) };
}

/**
 * What an answer needs, in one query: the lesson (share-locked: answers run side by side, a close
 * waits for them), the question, the caller's standing (membership share-locked) and name, and the
 * course's co-teachers (share-locked, as the outbox's own resolution does: a removal waits for the
 * tally or is seen by it).
 */
export async function answerStanding(tx: Tx, caller: Caller, lessonId: string, questionId: string) {
  const [row] = await tx
    .select({
      lesson: lessons,
      question: lessonQuestions,
      ...standingColumns(caller, true),
      callerName: sql<string>`(select ${profiles.fullName} from ${profiles} where ${profiles.id} = ${caller.userId})`,
      coTeacherIds: sql<string[]>`array(select t.teacher_id::text from (select ${courseTeachers.teacherId}
        from ${courseTeachers} where ${courseTeachers.courseId} = ${courses.id} for share) t)`,
    })
    .from(lessons)
    .innerJoin(courses, and(eq(courses.id, lessons.courseId), isNull(courses.deletedAt)))
    .leftJoin(
      lessonQuestions,
      and(eq(lessonQuestions.id, questionId), eq(lessonQuestions.lessonId, lessons.id)),
    )
    .where(eq(lessons.id, lessonId))
    .for('share', { of: lessons });
  if (!row) return undefined;
  const { lesson, question, callerName, coTeacherIds, ...standing } = row;
  return { lesson, question, callerName, coTeacherIds, standing: toStanding(standing) };
}

/** Reads: the course's teachers or an active member; anyone else is told it is not there. */
export function requireReader(standing: Standing | undefined, what = 'Lesson'): asserts standing is Standing {
  if (!standing || !(standing.teaches || standing.membership === 'active'))
    throw notFound(`${what} not found.`);
}

/** The course's teachers only: a member student gets 403; anyone else 404. */
export function requireTeaches(
  standing: Standing | undefined,
  action: string,
  what = 'Lesson',
): asserts standing is Standing {
  requireReader(standing, what);
  if (!standing.teaches) throw forbidden(`Only the course's teachers can ${action}.`);
}

/** Answers: an active member student; a teacher 403; a former member 403 not_a_member; anyone else 404. */
export function requireAnswerer(standing: Standing | undefined): asserts standing is Standing {
  if (standing && !standing.teaches && (standing.membership === 'left' || standing.membership === 'removed'))
    throw new AppError(
      403,
      ErrorCode.notAMember,
      'You are no longer a member of this course, so you cannot answer its questions.',
    );
  requireReader(standing);
  if (standing.teaches) throw forbidden("Only the course's students answer its questions.");
}

/** Changes to a lesson that has ended are refused (409 lesson_ended). */
export function requireLive(lesson: LessonRow): void {
  if (lesson.endedAt !== null) throw new AppError(409, ErrorCode.lessonEnded, 'This lesson has ended.');
}
