import type { LiveFeature } from '../../realtime/liveFeature';
import {
  addPostComment,
  addThreadComment,
  applyCommentDeleted,
  conversationsApi,
  patchPage,
} from './conversationsApi';
import { patchPost, removePost, upsertPost } from './streamCache';
import { typingKey, typingStopped } from './typingSlice';

/**
 * The news counts are the server's to make (since the reader's mark, by others, published): a new
 * post or comment by someone else has the open dashboard or to-do ask again, once per event.
 */
const newsChanged = () => conversationsApi.util.invalidateTags(['StreamNews']);

/**
 * Conversations' live handlers (DESIGN §19): each event patches the cached stream, comments or
 * thread it names, in place. Nothing is fetched again, so a busy class discussion costs every tab
 * its events and nothing more.
 */
export const conversationsLive: LiveFeature = {
  on: {
    'post:created':
      ({ data }) =>
      (dispatch, getState) => {
        dispatch(patchPage(data.courseId, (page) => upsertPost(page, data)));
        if (data.publishedAt && data.author.id !== getState().auth.profile?.id) dispatch(newsChanged());
      },
    'post:updated':
      ({ data }) =>
      (dispatch) =>
        dispatch(patchPage(data.courseId, (page) => upsertPost(page, data))),
    // The teachers' "seen by N of M" (DESIGN §19), coalesced by the server: the figures replace the old.
    'post:seen':
      ({ data }) =>
      (dispatch) =>
        dispatch(
          patchPage(data.courseId, (page) => patchPost(page, data.postId, (p) => (p.seen = data.seen))),
        ),
    'post:deleted':
      ({ data }) =>
      (dispatch) =>
        dispatch(patchPage(data.courseId, (page) => removePost(page, data.id))),
    'stream:updated':
      ({ data }) =>
      (dispatch) =>
        dispatch(patchPage(data.courseId, (page) => void (page.stream.commentsOff = data.commentsOff))),
    'comment:created':
      ({ data }) =>
      (dispatch, getState) => {
        if (data.postId)
          dispatch(typingStopped({ key: typingKey({ postId: data.postId }), userId: data.author.id }));
        dispatch(addPostComment(data));
        if (data.postId && data.author.id !== getState().auth.profile?.id) dispatch(newsChanged());
      },
    'comment:deleted':
      ({ data }) =>
      (dispatch) =>
        dispatch(applyCommentDeleted(data)),
    'thread:comment':
      ({ data }) =>
      (dispatch, getState) => {
        const thread = data.thread;
        if (!thread) return;
        dispatch(typingStopped({ key: typingKey({ thread }), userId: data.author.id }));
        dispatch(addThreadComment(data));
        // The teacher's list of threads: one more unread from the other side (an open thread reads
        // it at once, which clears the count again).
        const mine = data.author.id === getState().auth.profile?.id;
        dispatch(
          conversationsApi.util.updateQueryData('getThreads', thread.assignmentId, (list) => {
            const summary = list.find((t) => t.student.id === thread.studentId);
            if (!summary) {
              // A first comment from the student starts a thread the list did not have (a teacher's
              // own first comment has nothing unread to show).
              if (!mine)
                list.unshift({
                  student: data.author,
                  commentCount: 1,
                  unreadCount: 1,
                  lastCommentAt: data.createdAt,
                });
              return;
            }
            summary.commentCount += 1;
            summary.lastCommentAt = data.createdAt;
            if (!mine) summary.unreadCount += 1;
          }),
        );
      },
  },
  refetch: () => (dispatch) =>
    dispatch(conversationsApi.util.invalidateTags(['Posts', 'Comments', 'Threads', 'StreamNews'])),
};
