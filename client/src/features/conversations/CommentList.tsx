import type { Comment } from '@classwave/shared';
import { Avatar } from '../../components/Avatar';
import { formatListDate } from '../../components/dates';
import { ActionsMenu, type MenuAction } from './ActionsMenu';
import { PlainText } from './PlainText';

/**
 * Comments oldest first. A deleted one stays in its place as "Comment deleted" (its text is gone
 * everywhere), so the conversation around it still reads in order. New ones are announced politely.
 */
export function CommentList({
  comments,
  label,
  actionsFor,
}: {
  comments: Comment[];
  label: string;
  /** What the reader may do with a comment (delete, mute its author); none for a tombstone. */
  actionsFor: (comment: Comment) => MenuAction[];
}) {
  return (
    <ol className="comment-list" aria-label={label} aria-live="polite" aria-relevant="additions">
      {comments.map((comment) => (
        <li key={comment.id} className="comment" data-comment={comment.id}>
          <Avatar name={comment.author.fullName} size="sm" />
          <div className="comment__body">
            <p className="comment__meta">
              <span className="comment__author">{comment.author.fullName}</span>{' '}
              <time dateTime={comment.createdAt}>{formatListDate(comment.createdAt)}</time>
            </p>
            {comment.deleted || comment.text === null ? (
              <p className="comment__deleted">Comment deleted</p>
            ) : (
              <PlainText text={comment.text} className="comment__text" />
            )}
          </div>
          <CommentActions comment={comment} actions={comment.deleted ? [] : actionsFor(comment)} />
        </li>
      ))}
    </ol>
  );
}

/** The comment's menu, or the room it takes, so every bubble of a conversation is one width. */
function CommentActions({ comment, actions }: { comment: Comment; actions: MenuAction[] }) {
  if (actions.length === 0) return <span className="comment__no-actions" aria-hidden="true" />;
  return <ActionsMenu label={`Actions for ${comment.author.fullName}'s comment`} actions={actions} />;
}
