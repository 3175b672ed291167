import { randomUUID } from 'node:crypto';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import {
  COMMENTS_PAGE_SIZE,
  type Comment,
  type CommentPage,
  type CreateCommentBody,
} from '@classwave/shared';
import type { Caller } from '../auth/caller.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/client.js';
import { assignments, comments, courses, profiles } from '../db/schema.js';
import { forbidden, notFound } from '../http/errors.js';
import type { Outbox } from '../realtime/outbox.js';
import { audience } from '../realtime/rooms.js';
import { teaches } from '../courses/teaching.js';
import {
  membershipOf,
  postStanding,
  requireMayComment,
  requireReader,
  requireVisiblePost,
  requireWriter,
} from './access.js';
import { encodeCursor, olderThan, parseCursor } from './cursor.js';
import { tombstoneComment } from './scrub.js';
import { toComment, type CommentRow } from './views.js';

/** A page of comments matching `where`: the newest `limit` before the cursor, handed back oldest first. */
export async function commentPage(
  db: Db,
  where: ReturnType<typeof eq>,
  query: { before?: string; limit?: number },
  defaultLimit = COMMENTS_PAGE_SIZE,
): Promise<CommentPage> {
  const cursor = parseCursor(query.before);
  const limit = query.limit ?? defaultLimit;
  const rows = await db
    .select({ comment: comments, authorName: profiles.fullName })
    .from(comments)
    .innerJoin(profiles, eq(profiles.id, comments.authorId))
    .where(and(where, olderThan(cursor, comments.createdAt, comments.id)))
    .orderBy(desc(comments.createdAt), desc(comments.id))
    .limit(limit + 1);
  const more = rows.length > limit;
  const page = rows.slice(0, limit);
  const oldest = page.at(-1)?.comment;
  return {
    items: page.reverse().map((r) => toComment(r.comment, r.authorName)),
    nextBefore: more && oldest ? encodeCursor(oldest.createdAt, oldest.id) : null,
  };
}

/**
 * A comment to delete, with who may: its author while they may still read where it is, or the
 * course's teacher. The membership row is share-locked (a removal waits for the delete).
 */
async function commentStanding(
  db: Db | Parameters<Parameters<Outbox['transaction']>[0]>[0],
  caller: Caller,
  commentId: string,
) {
  const [row] = await db
    .select({
      comment: comments,
      teacherId: courses.teacherId,
      teachesIt: sql<boolean>`${teaches(caller.userId)}`,
      membership: membershipOf(caller.userId, true),
      assignmentGone: sql<boolean>`${assignments.deletedAt} is not null`,
    })
    .from(comments)
    .innerJoin(courses, and(eq(courses.id, comments.courseId), isNull(courses.deletedAt)))
    .leftJoin(assignments, eq(assignments.id, comments.assignmentId))
    .where(eq(comments.id, commentId));
  return row;
}

export function createCommentService({ db, outbox, clock }: { db: Db; outbox: Outbox; clock: Clock }) {
  return {
    /** A post's comments, tombstones included (their text is gone). */
    async list(
      caller: Caller,
      postId: string,
      query: { before?: string; limit?: number },
    ): Promise<CommentPage> {
      const found = await postStanding(db, caller, postId);
      requireReader(found?.standing, 'Post');
      requireVisiblePost(found!.post, found!.standing);
      return commentPage(db, eq(comments.postId, postId), query);
    },

    /**
     * A comment on a post, by a member while comments are on and they are not muted, or by the
     * teacher. Three statements: the standing, the comment, the outbox's event.
     */
    async create(caller: Caller, postId: string, body: CreateCommentBody): Promise<Comment> {
      return outbox.transaction(async (tx, record) => {
        const found = await postStanding(tx, caller, postId, true);
        requireWriter(found?.standing, 'comment on its posts', 'Post');
        const { post, standing } = found!;
        requireVisiblePost(post, standing);
        requireMayComment(post, standing);
        const row: CommentRow = {
          id: randomUUID(),
          courseId: post.courseId,
          postId,
          assignmentId: null,
          threadStudentId: null,
          authorId: caller.userId,
          text: body.text,
          createdAt: clock.now(),
          deletedAt: null,
          deletedBy: null,
        };
        await tx.insert(comments).values(row);
        const comment = toComment(row, standing.callerName);
        record('comment:created', comment, audience.course(post.courseId, standing.teacherId));
        return comment;
      });
    },

    /**
     * Deletes a comment: its author, or the course's teacher. It leaves a tombstone, and its text
     * leaves the row and the stored events (scrub.ts). A tombstone deleted again answers the same.
     */
    async remove(caller: Caller, commentId: string): Promise<void> {
      await outbox.transaction(async (tx, record) => {
        const row = await commentStanding(tx, caller, commentId);
        if (!row) throw notFound('Comment not found.');
        const { comment } = row;
        const teaches = caller.role === 'teacher' && Boolean(row.teachesIt);
        const inThread = comment.threadStudentId !== null;
        // What the caller may read decides what they may see of it at all.
        const reads = inThread
          ? teaches ||
            (comment.threadStudentId === caller.userId && row.membership === 'active' && !row.assignmentGone)
          : teaches || row.membership === 'active';
        if (!reads || (inThread && row.assignmentGone)) throw notFound('Comment not found.');
        if (!teaches && comment.authorId !== caller.userId)
          throw forbidden("Only the comment's author or the course's teacher can delete it.");
        const now = clock.now();
        if (!(await tombstoneComment(tx, comment, caller.userId, now))) return;
        const data = {
          id: comment.id,
          courseId: comment.courseId,
          postId: comment.postId,
          thread: inThread
            ? { assignmentId: comment.assignmentId!, studentId: comment.threadStudentId! }
            : null,
          deletedAt: now.toISOString(),
        };
        record(
          'comment:deleted',
          data,
          inThread
            ? // Resolved in the transaction (member-rooms.ts): a former member is not told.
              audience.memberStudentAndTeachers(
                comment.threadStudentId!,
                comment.assignmentId!,
                comment.courseId,
                row.teacherId,
              )
            : audience.course(comment.courseId, row.teacherId),
        );
      });
    },
  };
}
export type CommentService = ReturnType<typeof createCommentService>;
