import type { Comment, ThreadRef } from '@classwave/shared';
import { useEffect, useMemo, useRef } from 'react';
import { apiErrorMessage } from '../../api/errors';
import { useAppSelector } from '../../app/hooks';
import { Spinner } from '../../components/Spinner';
import { selectProfile } from '../auth/authSlice';
import type { MenuAction } from './ActionsMenu';
import { CommentComposer } from './CommentComposer';
import { CommentList } from './CommentList';
import {
  useCreateThreadCommentMutation,
  useDeleteCommentMutation,
  useGetThreadQuery,
} from './conversationsApi';
import { tried } from './tried';
import { TypingLine } from './TypingLine';
import './conversations.css';

/** A reply that arrives while the thread is open is read; the server learns it this long after, once for a burst. */
const READ_AFTER_MS = 1000;

/**
 * One private thread (DESIGN §19): a student and the course's teacher, nobody else. Opening it
 * reads it (the GET marks it read); a reply arriving while it is open is read again shortly after,
 * so the other side's unread count and this side's badge stay true.
 */
export function PrivateThread({ thread, writeTo }: { thread: ThreadRef; writeTo: string }) {
  const me = useAppSelector(selectProfile);
  const { data, isLoading, error, refetch } = useGetThreadQuery(thread);
  const [create] = useCreateThreadCommentMutation();
  const [remove] = useDeleteCommentMutation();
  const fromOthers = useMemo(
    () => (data?.items ?? []).filter((c) => c.author.id !== me?.id && !c.deleted).length,
    [data, me?.id],
  );
  const readUpTo = useRef<number | null>(null);

  useEffect(() => {
    if (!data) return;
    if (readUpTo.current === null || fromOthers <= readUpTo.current) {
      readUpTo.current = fromOthers;
      return;
    }
    const timer = setTimeout(() => {
      readUpTo.current = fromOthers;
      void refetch();
    }, READ_AFTER_MS);
    return () => clearTimeout(timer);
  }, [data, fromOthers, refetch]);

  const send = (text: string) => tried(create({ thread, text }).unwrap(), 'Your comment could not be sent.');

  const actionsFor = (comment: Comment): MenuAction[] =>
    comment.author.id === me?.id || me?.role === 'teacher'
      ? [
          {
            label: 'Delete comment',
            tone: 'danger',
            onSelect: () => void tried(remove(comment).unwrap(), 'The comment could not be deleted.'),
          },
        ]
      : [];

  if (isLoading) return <Spinner size="sm" label="Loading private comments" />;
  if (!data)
    return (
      <p className="post-comments__note">{apiErrorMessage(error, 'Private comments could not be loaded.')}</p>
    );
  return (
    <div className="thread">
      {data.items.length === 0 ? (
        <p className="post-comments__note">No private comments yet. Only you and {writeTo} can read them.</p>
      ) : (
        <CommentList comments={data.items} label="Private comments" actionsFor={actionsFor} />
      )}
      <TypingLine target={{ thread }} />
      <CommentComposer label={`Private comment to ${writeTo}`} target={{ thread }} onSend={send} />
    </div>
  );
}
