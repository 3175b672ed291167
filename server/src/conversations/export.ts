import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { comments, posts } from '../db/schema.js';

/**
 * "Download my data" (DESIGN §15, §19): the caller's own posts and comments, never anyone else's,
 * wherever they are (a course left or a removal does not take them out of the export). Deleted
 * comments are not there: their text is gone.
 */
export async function ownConversations(db: Db, userId: string) {
  const ownPosts = await db
    .select()
    .from(posts)
    .where(eq(posts.authorId, userId))
    .orderBy(asc(posts.createdAt), asc(posts.id));
  const ownComments = await db
    .select()
    .from(comments)
    .where(eq(comments.authorId, userId))
    .orderBy(asc(comments.createdAt), asc(comments.id));
  return {
    posts: ownPosts.map((p) => ({
      id: p.id,
      courseId: p.courseId,
      text: p.text,
      createdAt: p.createdAt.toISOString(),
      publishedAt: p.publishedAt?.toISOString() ?? null,
      editedAt: p.editedAt?.toISOString() ?? null,
    })),
    comments: ownComments
      .filter((c) => c.text !== null)
      .map((c) => ({
        id: c.id,
        courseId: c.courseId,
        postId: c.postId,
        assignmentId: c.assignmentId,
        threadStudentId: c.threadStudentId,
        text: c.text!,
        createdAt: c.createdAt.toISOString(),
      })),
  };
}
