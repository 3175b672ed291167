import type { Comment, CommentDeletedEvent, CommentPage, Post, PostPage, Thread } from '@classwave/shared';

/**
 * Pure patches of the conversations' cached pages, applied to RTK Query drafts by the mutations and
 * the live events alike. Each is idempotent: a post or comment this tab wrote arrives twice (the
 * server's answer and its live event), and a replay after a reconnect may bring it a third time.
 */

/** Where a post belongs on the first page: pinned, scheduled (still waiting) or the newest-first list. */
const listOf = (page: PostPage, post: Post): Post[] =>
  post.publishedAt === null ? page.scheduled : post.pinned ? page.pinned : page.items;

const newestFirst = (a: Post, b: Post) =>
  (b.publishedAt ?? b.createdAt).localeCompare(a.publishedAt ?? a.createdAt);

/**
 * A post created or changed: it moves to the list it now belongs in (pinned, unpinned, published),
 * keeping what only this tab knows (its seen mark, the teacher's seen figures) that events leave out.
 */
export function upsertPost(page: PostPage, post: Post): void {
  const known = [page.pinned, page.scheduled, page.items]
    .flatMap((list) => list)
    .find((p) => p.id === post.id);
  removePost(page, post.id);
  const merged: Post = known
    ? { ...post, seenByMe: post.seenByMe || known.seenByMe, seen: post.seen ?? known.seen }
    : post;
  const list = listOf(page, merged);
  // An older post unpinned onto a page that does not reach back to it is found by "Load older posts".
  if (list === page.items && page.nextBefore !== null && page.items.length > 0) {
    const oldest = page.items.at(-1)!;
    if (newestFirst(merged, oldest) > 0) return;
  }
  list.push(merged);
  list.sort(list === page.scheduled ? (a, b) => newestFirst(b, a) : newestFirst);
}

export function removePost(page: PostPage, postId: string): void {
  for (const list of [page.pinned, page.scheduled, page.items]) {
    const index = list.findIndex((p) => p.id === postId);
    if (index !== -1) list.splice(index, 1);
  }
}

/** Changes a post wherever the page holds it. */
export function patchPost(page: PostPage, postId: string, patch: (post: Post) => void): void {
  for (const list of [page.pinned, page.scheduled, page.items]) {
    const post = list.find((p) => p.id === postId);
    if (post) patch(post);
  }
}

/** Adds a comment (oldest first) unless it is there already; answers whether it was new. */
export function upsertComment(list: { items: Comment[] }, comment: Comment): boolean {
  const index = list.items.findIndex((c) => c.id === comment.id);
  if (index !== -1) {
    // A tombstone stays one, whatever older copy arrives after it.
    if (!list.items[index]!.deleted) list.items[index] = comment;
    return false;
  }
  list.items.push(comment);
  list.items.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  return true;
}

/** A comment became "comment deleted": its text goes from this tab too. */
export function tombstone(list: CommentPage | Thread, event: Pick<CommentDeletedEvent, 'id' | 'deletedAt'>) {
  const comment = list.items.find((c) => c.id === event.id);
  if (!comment) return;
  comment.deleted = true;
  comment.text = null;
  comment.deletedAt = event.deletedAt;
}

/** Appends an older page of posts below the loaded ones, skipping any already shown. */
export function appendOlderPosts(page: PostPage, older: PostPage): void {
  const known = new Set([...page.pinned, ...page.items].map((p) => p.id));
  page.items.push(...older.items.filter((p) => !known.has(p.id)));
  page.nextBefore = older.nextBefore;
}
