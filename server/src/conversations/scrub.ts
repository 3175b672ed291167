import { sql } from 'drizzle-orm';
import type { Tx } from '../db/client.js';
import { rowsOf } from '../db/rows.js';
import { comments, events, posts } from '../db/schema.js';
import type { CommentRow, PostRow } from './views.js';

/**
 * Deleted words leave the database (DESIGN §19): a deleted comment's text is nulled in its row, and
 * the live events already stored with it (which a reconnecting tab replays) lose it as well, so
 * no route, replay or export of anyone's can show it again. Notifications never carry a comment's
 * text (threads.ts), so there is nothing to take out of them. Each is one statement: the change
 * and the scrub together. Events are looked for from the comment's own time on (their index).
 */

/** Deletes a post (its comments go with it) and takes its text and its comments' out of the stored events. */
export async function scrubPostEvents(tx: Tx, post: Pick<PostRow, 'id' | 'createdAt'>): Promise<void> {
  await tx.execute(sql`with gone as (delete from ${posts} where ${posts.id} = ${post.id} returning ${posts.id})
    update ${events} set data = ${events.data} || '{"text": null}'::jsonb
    where ${events.createdAt} >= ${post.createdAt} and exists (select 1 from gone) and (
      (${events.type} in ('post:created', 'post:updated') and ${events.data}->>'id' = ${post.id})
      or (${events.type} = 'comment:created' and ${events.data}->>'postId' = ${post.id}))`);
}

/**
 * Makes a comment its tombstone (text nulled, when and by whom) and its stored events tombstones
 * too. Returns false when it already was one.
 */
export async function tombstoneComment(
  tx: Tx,
  comment: Pick<CommentRow, 'id' | 'createdAt'>,
  by: string,
  now: Date,
): Promise<boolean> {
  const tombstone = JSON.stringify({ text: null, deleted: true, deletedAt: now.toISOString() });
  const rows = await tx.execute<{ changed: boolean }>(sql`with gone as (
      update ${comments} set text = null, deleted_at = ${now}, deleted_by = ${by}
      where ${comments.id} = ${comment.id} and ${comments.deletedAt} is null returning ${comments.id}),
    scrubbed as (
      update ${events} set data = ${events.data} || ${tombstone}::jsonb
      where ${events.createdAt} >= ${comment.createdAt} and exists (select 1 from gone)
        and ${events.type} in ('comment:created', 'thread:comment') and ${events.data}->>'id' = ${comment.id})
    select exists (select 1 from gone) as changed`);
  return Boolean(rowsOf<{ changed: boolean }>(rows)[0]?.changed);
}
