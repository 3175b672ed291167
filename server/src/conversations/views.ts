import type { Comment, FileSummary, Post, SeenBy } from '@classwave/shared';
import type { comments, posts } from '../db/schema.js';

/** Rows to what the API answers (DESIGN §19): the same shape in REST answers and live events. */

export type PostRow = typeof posts.$inferSelect;
export type CommentRow = typeof comments.$inferSelect;

const iso = (d: Date | null) => d?.toISOString() ?? null;

export function toPost(
  row: PostRow,
  authorName: string,
  extra: { commentCount?: number; seenByMe?: boolean; seen?: SeenBy | null; files?: FileSummary[] } = {},
): Post {
  return {
    id: row.id,
    courseId: row.courseId,
    author: { id: row.authorId, fullName: authorName },
    text: row.text,
    pinned: row.pinned,
    commentsOff: row.commentsOff,
    publishAt: iso(row.publishAt),
    publishedAt: iso(row.publishedAt),
    createdAt: row.createdAt.toISOString(),
    editedAt: iso(row.editedAt),
    commentCount: extra.commentCount ?? 0,
    seenByMe: extra.seenByMe ?? false,
    seen: extra.seen ?? null,
    // A json column: parsed by the driver, or text on one that leaves json alone.
    files: typeof extra.files === 'string' ? (JSON.parse(extra.files) as FileSummary[]) : (extra.files ?? []),
  };
}

/** A comment; a deleted one is its tombstone (no text: it was nulled in the database). */
export function toComment(row: CommentRow, authorName: string): Comment {
  return {
    id: row.id,
    courseId: row.courseId,
    postId: row.postId,
    thread:
      row.assignmentId && row.threadStudentId
        ? { assignmentId: row.assignmentId, studentId: row.threadStudentId }
        : null,
    author: { id: row.authorId, fullName: authorName },
    text: row.deletedAt ? null : row.text,
    deleted: row.deletedAt !== null,
    createdAt: row.createdAt.toISOString(),
    deletedAt: iso(row.deletedAt),
  };
}
