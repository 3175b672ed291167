import type { UpdatePostBody } from '@classwave/shared';
import { CalendarClock, MessageSquareOff, Pin } from 'lucide-react';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { Avatar } from '../../components/Avatar';
import { Badge } from '../../components/Badge';
import { useConfirm } from '../../components/ConfirmDialog';
import { formatListDate } from '../../components/dates';
import { FileList } from '../files/FileList';
import { ActionsMenu, type MenuAction } from './ActionsMenu';
import { useCourseReadOnly } from '../archive/readOnly';
import { useDeletePostMutation, useUpdatePostMutation } from './conversationsApi';
import { PlainText } from './PlainText';
import { PostEditor } from './PostEditor';
import { PostComments, type PostProps } from './PostComments';
import { SeenBy } from './SeenBy';
import { tried } from './tried';
import { useSeen } from './useSeen';

/** One post of the stream: who and when, its text, the teacher's tools and "seen by", its comments. */
export function PostCard({ post, stream, teaches }: PostProps) {
  const titleId = useId();
  const [editing, setEditing] = useState(false);
  const [update] = useUpdatePostMutation();
  const [remove] = useDeletePostMutation();
  const [confirm, confirmDialog] = useConfirm();
  const ref = useSeen<HTMLElement>(post, !teaches);
  const scheduled = post.publishedAt === null;

  const change = (body: UpdatePostBody, failure: string) => tried(update({ post, body }).unwrap(), failure);

  async function askDelete() {
    const sure = await confirm({
      title: 'Delete this post?',
      description: 'The post and its comments are deleted for the whole class. This cannot be undone.',
      confirmLabel: 'Delete post',
    });
    if (!sure) return;
    if (await tried(remove(post).unwrap(), 'The post could not be deleted.')) toast.success('Post deleted.');
  }

  const archived = useCourseReadOnly();
  const actions: MenuAction[] =
    teaches && !archived
      ? [
          { label: 'Edit', onSelect: () => setEditing(true) },
          {
            label: post.pinned ? 'Unpin' : 'Pin to top',
            onSelect: () => void change({ pinned: !post.pinned }, 'Could not change the pin.'),
          },
          {
            label: post.commentsOff ? 'Turn comments on' : 'Turn comments off',
            onSelect: () =>
              void change({ commentsOff: !post.commentsOff }, 'Could not change the comments setting.'),
          },
          { label: 'Delete post', tone: 'danger', onSelect: () => void askDelete() },
        ]
      : [];

  return (
    <article ref={ref} className="card post" aria-labelledby={titleId} data-post={post.id}>
      <header className="post__head">
        <Avatar name={post.author.fullName} />
        <p id={titleId} className="post__who">
          <span className="post__author">{post.author.fullName}</span>
          <span className="post__when">
            <time dateTime={post.publishedAt ?? post.createdAt}>
              {formatListDate(post.publishedAt ?? post.createdAt)}
            </time>
            {post.editedAt && ' · edited'}
          </span>
        </p>
        <ActionsMenu label="Post actions" actions={actions} />
      </header>
      {(post.pinned || scheduled || post.commentsOff) && (
        <p className="post__badges">
          {post.pinned && (
            <Badge tone="primary" icon={<Pin />}>
              Pinned
            </Badge>
          )}
          {scheduled && post.publishAt && (
            <Badge tone="warning" icon={<CalendarClock />}>
              Scheduled for {formatListDate(post.publishAt)}
            </Badge>
          )}
          {post.commentsOff && <Badge icon={<MessageSquareOff />}>Comments off</Badge>}
        </p>
      )}
      {editing ? (
        <PostEditor
          initial={post.text}
          onCancel={() => setEditing(false)}
          onSave={async (text) => {
            if (await change({ text }, 'The post could not be saved.')) setEditing(false);
          }}
        />
      ) : (
        <PlainText text={post.text} className="post__text" />
      )}
      <FileList files={post.files} label="Files of the post" />
      {post.seen && !scheduled && <SeenBy seen={post.seen} />}
      {!scheduled && <PostComments post={post} stream={stream} teaches={teaches} />}
      {confirmDialog}
    </article>
  );
}
