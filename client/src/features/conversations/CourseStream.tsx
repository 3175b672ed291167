import type { PostPage } from '@classwave/shared';
import { Megaphone } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useAppDispatch } from '../../app/hooks';
import { Button } from '../../components/Button';
import { EmptyState } from '../../components/EmptyState';
import { LoadFailed } from '../../components/LoadFailed';
import { Spinner } from '../../components/Spinner';
import { Switch } from '../../components/Switch';
import {
  loadOlderPosts,
  useGetPostsQuery,
  useMarkStreamReadMutation,
  useUpdateStreamMutation,
} from './conversationsApi';
import { PostCard } from './PostCard';
import { PostComposer } from './PostComposer';
import { tried } from './tried';
import { useCourseReadOnly } from '../archive/readOnly';
import './conversations.css';

/** How long after live posts or comments stop arriving an open stream counts them read. */
const READ_AFTER_MS = 3000;

/** What moves when something new arrives: the posts shown and their comment counts. */
const activityOf = (page: PostPage) =>
  [...page.pinned, ...page.items].map((p) => `${p.id}:${p.commentCount}`).join(',');

/**
 * A course's stream (DESIGN §19), where its page opens: the teacher's composer and switches, the
 * pinned posts, the teacher's scheduled ones, then the rest newest first with older pages on demand.
 * Everything in it is kept live by the conversations' events (live.ts).
 */
export function CourseStream({ courseId, teaches }: { courseId: string; teaches: boolean }) {
  const { data, isLoading, error, refetch } = useGetPostsQuery(courseId);
  // An archived course's stream is read, never written (DESIGN §20).
  const archived = useCourseReadOnly();
  const writes = teaches && !archived;
  const [markRead] = useMarkStreamReadMutation();
  // Opening the stream reads its news (the dashboard's and the to-do's "new since you looked"), and
  // so does what arrives live while it is open (a few seconds after the last of it: a busy
  // discussion is one write, not one per comment), and leaving it.
  const activity = data ? activityOf(data) : '';
  // (Not on an archived course: it is read-only, and its news was read before it was archived.)
  useEffect(() => {
    if (archived) return;
    void markRead(courseId);
    return () => void markRead(courseId);
  }, [archived, courseId, markRead]);
  const seenActivity = useRef(activity);
  useEffect(() => {
    if (archived || activity === seenActivity.current) return;
    const timer = setTimeout(() => {
      seenActivity.current = activity;
      void markRead(courseId);
    }, READ_AFTER_MS);
    return () => clearTimeout(timer);
  }, [activity, archived, courseId, markRead]);
  return (
    <section className="stream" aria-labelledby="course-stream">
      <div className="stream__head">
        <h2 id="course-stream" className="course-detail__section-title">
          Stream
        </h2>
        {writes && data && <CommentsSwitch courseId={courseId} page={data} />}
      </div>
      {writes && <PostComposer courseId={courseId} />}
      {isLoading ? (
        <Spinner label="Loading the stream" />
      ) : !data ? (
        <LoadFailed
          icon={<Megaphone />}
          title="The stream could not be loaded"
          error={error}
          onRetry={() => void refetch()}
        />
      ) : (
        <Posts courseId={courseId} page={data} teaches={teaches} />
      )}
    </section>
  );
}

function CommentsSwitch({ courseId, page }: { courseId: string; page: PostPage }) {
  const [update, { isLoading }] = useUpdateStreamMutation();
  return (
    <Switch
      label="Comments on"
      checked={!page.stream.commentsOff}
      busy={isLoading}
      onChange={(on) =>
        void tried(update({ courseId, commentsOff: !on }).unwrap(), 'Could not change the comments setting.')
      }
    />
  );
}

function Posts({ courseId, page, teaches }: { courseId: string; page: PostPage; teaches: boolean }) {
  const dispatch = useAppDispatch();
  const archived = useCourseReadOnly();
  const [loadingOlder, setLoadingOlder] = useState(false);
  const posts = [...page.scheduled, ...page.pinned, ...page.items];

  async function older(before: string) {
    setLoadingOlder(true);
    await tried(dispatch(loadOlderPosts(courseId, before)), 'Older posts could not be loaded.');
    setLoadingOlder(false);
  }

  if (posts.length === 0) {
    return (
      <EmptyState icon={<Megaphone />} title="No posts yet" headingLevel={3}>
        {archived
          ? 'Nothing was posted in this class.'
          : teaches
            ? 'Share an announcement with your class: it shows here, live, for every student.'
            : 'Announcements from your teacher will show up here.'}
      </EmptyState>
    );
  }
  return (
    <>
      <ul className="stream__posts" aria-label="Posts">
        {posts.map((post) => (
          <li key={post.id}>
            <PostCard post={post} stream={page.stream} teaches={teaches} />
          </li>
        ))}
      </ul>
      {page.nextBefore && (
        <Button variant="secondary" loading={loadingOlder} onClick={() => void older(page.nextBefore!)}>
          Load older posts
        </Button>
      )}
    </>
  );
}
