import { and, eq, isNull, sql } from 'drizzle-orm';
import { ErrorCode } from '@classwave/shared';
import type { Caller } from '../auth/caller.js';
import type { Db, Tx } from '../db/client.js';
import { courseMembers, courses, posts, profiles, streamMutes, streamSettings } from '../db/schema.js';
import { AppError, conflict, forbidden, notFound } from '../http/errors.js';
import type { PostRow } from './views.js';
import { teaches } from '../courses/teaching.js';

/**
 * Who may read and write a course's stream (DESIGN §11, §19), one query per request so every
 * route re-checks membership as it stands: the course's teachers and its active members read; a
 * former member (left or removed) and everyone else get 404, as for the course itself. Writing
 * adds: a former member is told 403 not_a_member; only the teacher posts and switches.
 */

export interface Standing {
  courseId: string;
  teacherId: string;
  /** The caller teaches the course. */
  teaches: boolean;
  /** The caller's membership as a student, null when they never joined. */
  membership: 'active' | 'left' | 'removed' | null;
  muted: boolean;
  /** Comments off for the whole course. */
  commentsOff: boolean;
  /** The caller's own name, for what they write. */
  callerName: string;
}

/**
 * The columns of a caller's standing in the course `courses` row the query joins. With `lock` (a
 * write) the membership row is share-locked: a removal committing meanwhile waits for the write, or
 * is seen by it. (A sub-select, as a row on the nullable side of an outer join cannot be locked.)
 */
export function standingColumns(caller: Caller, lock = false) {
  return {
    courseId: courses.id,
    teacherId: courses.teacherId,
    teachesIt: sql<boolean>`${teaches(caller.userId)}`,
    membership: membershipOf(caller.userId, lock),
    muted: sql<boolean>`exists (select 1 from ${streamMutes} where ${streamMutes.courseId} = ${courses.id}
      and ${streamMutes.studentId} = ${caller.userId})`,
    commentsOff: sql<boolean>`coalesce(${streamSettings.commentsOff}, false)`,
    callerName: sql<string>`(select ${profiles.fullName} from ${profiles} where ${profiles.id} = ${caller.userId})`,
  };
}

/** The status of `userId`'s membership of the `courses` row at hand, share-locked when `lock`. */
export function membershipOf(userId: string | ReturnType<typeof sql>, lock: boolean) {
  return sql<string | null>`(select ${courseMembers.status} from ${courseMembers}
    where ${courseMembers.courseId} = ${courses.id} and ${courseMembers.studentId} = ${userId}${lock ? sql` for share` : sql``})`;
}

const toStanding = (
  caller: Caller,
  {
    teachesIt,
    ...row
  }: Omit<Standing, 'teaches' | 'membership'> & { membership: string | null; teachesIt: boolean },
): Standing => ({
  ...row,
  membership: row.membership as Standing['membership'],
  teaches: caller.role === 'teacher' && Boolean(teachesIt),
  muted: Boolean(row.muted),
  commentsOff: Boolean(row.commentsOff),
});

/** The caller's standing in a live course (not binned), or undefined when there is no such course. */
export async function courseStanding(db: Db | Tx, caller: Caller, courseId: string) {
  const [row] = await db
    .select(standingColumns(caller))
    .from(courses)
    .leftJoin(streamSettings, eq(streamSettings.courseId, courses.id))
    .where(and(eq(courses.id, courseId), isNull(courses.deletedAt)));
  return row ? toStanding(caller, row) : undefined;
}

/**
 * A post with the caller's standing in its course, in one query. The membership row is share-locked
 * when `lock` (a write): a removal committing meanwhile waits for the write, or is seen by it.
 */
export async function postStanding(
  db: Db | Tx,
  caller: Caller,
  postId: string,
  lock = false,
): Promise<{ post: PostRow; authorName: string; standing: Standing } | undefined> {
  const query = db
    .select({
      post: posts,
      authorName: sql<string>`(select ${profiles.fullName} from ${profiles} where ${profiles.id} = ${posts.authorId})`,
      ...standingColumns(caller, lock),
    })
    .from(posts)
    .innerJoin(courses, and(eq(courses.id, posts.courseId), isNull(courses.deletedAt)))
    .leftJoin(streamSettings, eq(streamSettings.courseId, courses.id))
    .where(eq(posts.id, postId));
  const [row] = await query;
  if (!row) return undefined;
  const { post, authorName, ...standing } = row;
  return { post, authorName, standing: toStanding(caller, standing) };
}

/** Reads: the course's teacher or an active member; anyone else is told it is not there. */
export function requireReader(standing: Standing | undefined, what = 'Course'): asserts standing is Standing {
  if (!standing || !(standing.teaches || standing.membership === 'active'))
    throw notFound(`${what} not found.`);
}

/** Writes by members: as reads, but a former member hears why (403 not_a_member). */
export function requireWriter(
  standing: Standing | undefined,
  action: string,
  what = 'Course',
): asserts standing is Standing {
  if (standing && !standing.teaches && (standing.membership === 'left' || standing.membership === 'removed'))
    throw new AppError(
      403,
      ErrorCode.notAMember,
      `You are no longer a member of this course, so you cannot ${action}.`,
    );
  requireReader(standing, what);
}

/** The course's teacher only: a member student, who sees the course, gets 403; anyone else 404. */
export function requireTeaches(
  standing: Standing | undefined,
  action: string,
  what = 'Course',
): asserts standing is Standing {
  requireReader(standing, what);
  if (!standing.teaches) throw forbidden(`Only the course's teacher can ${action}.`);
}

/** A post members may see: published. A scheduled one is its teacher's alone until then. */
export function requireVisiblePost(post: PostRow, standing: Standing): void {
  if (!standing.teaches && post.publishedAt === null) throw notFound('Post not found.');
}

/** New comments on a post: published, on for the post and the course, and the student not muted. */
export function requireMayComment(post: PostRow, standing: Standing): void {
  // Not even its teacher: the comment's event (or "typing") would tell the class the post exists.
  if (post.publishedAt === null) throw conflict('This post is not published yet: comments open when it is.');
  if (standing.teaches) return;
  if (post.commentsOff || standing.commentsOff)
    throw new AppError(
      403,
      ErrorCode.commentsOff,
      post.commentsOff ? 'Comments are turned off on this post.' : 'Comments are turned off in this course.',
    );
  if (standing.muted)
    throw new AppError(
      403,
      ErrorCode.mutedInCourse,
      "The course's teacher muted you in this course: you can read the stream but not comment.",
    );
}
