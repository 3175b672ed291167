import type { Comment, Post, StreamSettings } from '@classwave/shared';
import { MessageSquare } from 'lucide-react';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { apiErrorMessage } from '../../api/errors';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { Button } from '../../components/Button';
import { Spinner } from '../../components/Spinner';
import { selectProfile } from '../auth/authSlice';
import type { MenuAction } from './ActionsMenu';
import { CommentComposer } from './CommentComposer';
import { CommentList } from './CommentList';
import {
  loadOlderComments,
  useCreateCommentMutation,
  useDeleteCommentMutation,
  useGetCommentsQuery,
  useSetMutedMutation,
} from './conversationsApi';
import { tried } from './tried';
import { TypingLine } from './TypingLine';
import { useCourseReadOnly } from '../archive/readOnly';

const countText = (n: number) => (n === 1 ? '1 comment' : `${n} comments`);

/** Why the reader cannot comment on this post now, or null when they can. */
function closedReason(
  post: Post,
  stream: StreamSettings,
  teaches: boolean,
  archived: boolean,
): string | null {
  if (archived) return 'This class is archived: its comments can be read, not added to.';
  if (teaches) return null;
  if (stream.commentsOff) return 'Comments are turned off in this class.';
  if (post.commentsOff) return 'Comments are turned off for this post.';
  if (stream.muted) return 'Your teacher has muted you in this class: you can read, not comment.';
  return null;
}

/** What a post's parts are shown with: the post, its course's switches, and whether the reader teaches it. */
export interface PostProps {
  post: Post;
  stream: StreamSettings;
  teaches: boolean;
}

/** A post's comments, behind a toggle so a long stream stays short; loaded on first opening. */
export function PostComments({ post, stream, teaches }: PostProps) {
  const [open, setOpen] = useState(false);
  const regionId = useId();
  const archived = useCourseReadOnly();
  const closed = closedReason(post, stream, teaches, archived);
  const toggleText = open
    ? 'Hide comments'
    : post.commentCount > 0
      ? countText(post.commentCount)
      : closed
        ? null
        : 'Add a comment';
  return (
    <div className="post-comments">
      {toggleText && (
        <Button
          variant="ghost"
          size="sm"
          icon={<MessageSquare />}
          aria-expanded={open}
          aria-controls={regionId}
          onClick={() => setOpen((o) => !o)}
        >
          {toggleText}
        </Button>
      )}
      <div id={regionId} hidden={!open}>
        {open && <OpenComments post={post} stream={stream} teaches={teaches} closed={closed} />}
      </div>
    </div>
  );
}

function OpenComments({
  post,
  stream,
  teaches,
  closed,
}: {
  post: Post;
  stream: StreamSettings;
  teaches: boolean;
  closed: string | null;
}) {
  const me = useAppSelector(selectProfile);
  const dispatch = useAppDispatch();
  const [loadingOlder, setLoadingOlder] = useState(false);
  const { data, isLoading, error } = useGetCommentsQuery(post.id);

  async function older(before: string) {
    setLoadingOlder(true);
    await tried(dispatch(loadOlderComments(post.id, before)), 'Older comments could not be loaded.');
    setLoadingOlder(false);
  }
  const [create] = useCreateCommentMutation();
  const [remove] = useDeleteCommentMutation();
  const [setMuted] = useSetMutedMutation();
  const archived = useCourseReadOnly();

  const send = (text: string) => tried(create({ post, text }).unwrap(), 'Your comment could not be sent.');

  function actionsFor(comment: Comment): MenuAction[] {
    const actions: MenuAction[] = [];
    const mine = comment.author.id === me?.id;
    if (archived) return actions;
    if (teaches && !mine) {
      const muted = stream.mutedStudentIds.includes(comment.author.id);
      const name = comment.author.fullName;
      actions.push({
        label: muted ? `Unmute ${name}` : `Mute ${name}`,
        onSelect: () =>
          void tried(
            setMuted({ courseId: post.courseId, studentId: comment.author.id, muted: !muted }).unwrap(),
            muted ? 'Could not unmute.' : 'Could not mute.',
          ).then((done) => {
            if (done) toast.success(muted ? `${name} can comment again.` : `${name} is muted in this class.`);
          }),
      });
    }
    if (mine || teaches)
      actions.push({
        label: 'Delete comment',
        tone: 'danger',
        onSelect: () => void tried(remove(comment).unwrap(), 'The comment could not be deleted.'),
      });
    return actions;
  }

  if (isLoading) return <Spinner size="sm" label="Loading comments" />;
  if (!data)
    return <p className="post-comments__note">{apiErrorMessage(error, 'Comments could not be loaded.')}</p>;
  return (
    <>
      {data.nextBefore && (
        <Button
          variant="ghost"
          size="sm"
          className="comments__older"
          loading={loadingOlder}
          onClick={() => void older(data.nextBefore!)}
        >
          Show older comments
        </Button>
      )}
      {data.items.length > 0 && (
        <CommentList comments={data.items} label="Comments" actionsFor={actionsFor} />
      )}
      <TypingLine target={{ postId: post.id }} />
      {closed ? (
        <p className="post-comments__note">{closed}</p>
      ) : (
        <CommentComposer label="Add a class comment" target={{ postId: post.id }} onSend={send} />
      )}
    </>
  );
}
