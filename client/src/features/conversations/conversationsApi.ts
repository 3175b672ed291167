import type {
  Comment,
  CommentPage,
  CreatePostBody,
  Post,
  PostPage,
  StreamNewsItem,
  StreamSettings,
  Thread,
  ThreadRef,
  ThreadSummary,
  UpdatePostBody,
} from '@classwave/shared';
import { api } from '../../api/api';
import type { AppThunk } from '../../app/store';
import { readThreadNotifications } from './threadNotifications';
import { appendOlderPosts, patchPost, removePost, tombstone, upsertComment, upsertPost } from './streamCache';

const id = encodeURIComponent;
const threadUrl = ({ assignmentId, studentId }: ThreadRef) =>
  `/assignments/${id(assignmentId)}/threads/${id(studentId)}`;

const queries = api
  .enhanceEndpoints({ addTagTypes: ['Posts', 'Comments', 'Threads', 'StreamNews'] })
  .injectEndpoints({
    endpoints: (build) => ({
      /** What's new in the caller's courses since they last opened each stream (dashboard, to-do). */
      getStreamNews: build.query<StreamNewsItem[], void>({
        query: () => '/stream/news',
        providesTags: ['StreamNews'],
      }),
      /** Comments older than `before` (the "Show older comments" of a long discussion). */
      getOlderComments: build.query<CommentPage, { postId: string; before: string }>({
        query: ({ postId, before }) => ({ url: `/posts/${id(postId)}/comments`, params: { before } }),
        keepUnusedDataFor: 0,
      }),
      /** A course's stream: its newest page (with the pinned and, for its teacher, scheduled posts); older pages are appended. */
      getPosts: build.query<PostPage, string>({
        query: (courseId) => `/courses/${id(courseId)}/posts`,
        providesTags: (_r, _e, courseId) => [{ type: 'Posts', id: courseId }],
      }),
      getOlderPosts: build.query<PostPage, { courseId: string; before: string }>({
        query: ({ courseId, before }) => ({ url: `/courses/${id(courseId)}/posts`, params: { before } }),
        keepUnusedDataFor: 0,
      }),
      /** A post's comments, oldest first (the newest page: a class discussion rarely runs longer). */
      getComments: build.query<CommentPage, string>({
        query: (postId) => `/posts/${id(postId)}/comments`,
        providesTags: (_r, _e, postId) => [{ type: 'Comments', id: postId }],
      }),
      /** The teacher's threads of an assignment with unread counts (a student's: their own). */
      getThreads: build.query<ThreadSummary[], string>({
        query: (assignmentId) => `/assignments/${id(assignmentId)}/threads`,
        providesTags: (_r, _e, assignmentId) => [{ type: 'Threads', id: assignmentId }],
      }),
      /** One private thread; the server marks it read, so this tab's unread figures for it clear. */
      getThread: build.query<Thread, ThreadRef>({
        query: threadUrl,
        providesTags: (_r, _e, ref) => [{ type: 'Threads', id: `${ref.assignmentId}:${ref.studentId}` }],
        async onQueryStarted(ref, { dispatch, queryFulfilled }) {
          const ok = await queryFulfilled.then(
            () => true,
            () => false,
          );
          if (!ok) return;
          dispatch(
            queries.util.updateQueryData('getThreads', ref.assignmentId, (list) => {
              const summary = list.find((t) => t.student.id === ref.studentId);
              if (summary) summary.unreadCount = 0;
            }),
          );
          dispatch(readThreadNotifications(ref));
        },
      }),
    }),
  });

/** Writes the server's answer into a course's first page, if this tab has it. */
const patchPage = (courseId: string, patch: (page: PostPage) => void) =>
  queries.util.updateQueryData('getPosts', courseId, patch);

/**
 * Conversations (DESIGN §19). Every write puts the server's answer straight into the cache, and
 * the live events (live.ts) patch the same entries by the same rules, so the two never disagree
 * and nothing is fetched again.
 */
export const conversationsApi = queries.injectEndpoints({
  endpoints: (build) => ({
    /** The reader opened a course's stream: its news is read (the news list drops the course at once). */
    markStreamRead: build.mutation<void, string>({
      query: (courseId) => ({ url: `/courses/${id(courseId)}/stream/read`, method: 'POST' }),
      async onQueryStarted(courseId, { dispatch, queryFulfilled }) {
        const ok = await queryFulfilled.then(
          () => true,
          () => false,
        );
        if (ok)
          dispatch(
            queries.util.updateQueryData('getStreamNews', undefined, (news) =>
              news.filter((n) => n.courseId !== courseId),
            ),
          );
      },
    }),
    createPost: build.mutation<Post, { courseId: string; body: CreatePostBody }>({
      query: ({ courseId, body }) => ({ url: `/courses/${id(courseId)}/posts`, method: 'POST', body }),
      async onQueryStarted({ courseId }, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (data) dispatch(patchPage(courseId, (page) => upsertPost(page, data)));
      },
    }),
    updatePost: build.mutation<Post, { post: Post; body: UpdatePostBody }>({
      query: ({ post, body }) => ({ url: `/posts/${id(post.id)}`, method: 'PATCH', body }),
      async onQueryStarted({ post }, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (data) dispatch(patchPage(post.courseId, (page) => upsertPost(page, data)));
      },
    }),
    deletePost: build.mutation<void, Post>({
      query: (post) => ({ url: `/posts/${id(post.id)}`, method: 'DELETE' }),
      async onQueryStarted(post, { dispatch, queryFulfilled }) {
        const ok = await queryFulfilled.then(
          () => true,
          () => false,
        );
        if (ok) dispatch(patchPage(post.courseId, (page) => removePost(page, post.id)));
      },
    }),
    /** Once per post and tab (useSeen); nothing to show for it, the teacher's figures move on their side. */
    markSeen: build.mutation<void, Post>({
      query: (post) => ({ url: `/posts/${id(post.id)}/seen`, method: 'POST' }),
      async onQueryStarted(post, { dispatch, queryFulfilled }) {
        if (
          await queryFulfilled.then(
            () => true,
            () => false,
          )
        )
          dispatch(patchPage(post.courseId, (page) => patchPost(page, post.id, (p) => (p.seenByMe = true))));
      },
    }),
    createComment: build.mutation<Comment, { post: Post; text: string }>({
      query: ({ post, text }) => ({ url: `/posts/${id(post.id)}/comments`, method: 'POST', body: { text } }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (data) dispatch(addPostComment(data));
      },
    }),
    deleteComment: build.mutation<void, Comment>({
      query: (comment) => ({ url: `/comments/${id(comment.id)}`, method: 'DELETE' }),
      async onQueryStarted(comment, { dispatch, queryFulfilled }) {
        const ok = await queryFulfilled.then(
          () => true,
          () => false,
        );
        if (ok) dispatch(applyCommentDeleted({ ...comment, deletedAt: new Date().toISOString() }));
      },
    }),
    updateStream: build.mutation<StreamSettings, { courseId: string; commentsOff: boolean }>({
      query: ({ courseId, commentsOff }) => ({
        url: `/courses/${id(courseId)}/stream`,
        method: 'PATCH',
        body: { commentsOff },
      }),
      async onQueryStarted({ courseId }, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (data) dispatch(patchPage(courseId, (page) => void (page.stream = data)));
      },
    }),
    /** Mute (or unmute) a student in a course's stream: they read, they do not comment. */
    setMuted: build.mutation<void, { courseId: string; studentId: string; muted: boolean }>({
      query: ({ courseId, studentId, muted }) => ({
        url: `/courses/${id(courseId)}/mutes/${id(studentId)}`,
        method: muted ? 'PUT' : 'DELETE',
      }),
      async onQueryStarted({ courseId, studentId, muted }, { dispatch, queryFulfilled }) {
        if (
          !(await queryFulfilled.then(
            () => true,
            () => false,
          ))
        )
          return;
        dispatch(
          patchPage(courseId, ({ stream }) => {
            stream.mutedStudentIds = stream.mutedStudentIds.filter((s) => s !== studentId);
            if (muted) stream.mutedStudentIds.push(studentId);
          }),
        );
      },
    }),
    createThreadComment: build.mutation<Comment, { thread: ThreadRef; text: string }>({
      query: ({ thread, text }) => ({ url: `${threadUrl(thread)}/comments`, method: 'POST', body: { text } }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (data) dispatch(addThreadComment(data));
      },
    }),
  }),
});

/**
 * A post's comment, from this tab's write or the live event: into its list if loaded, and one more
 * on the post's count unless that list already had it (the count includes tombstones, as the server's does).
 */
export const addPostComment =
  (comment: Comment): AppThunk =>
  (dispatch, getState) => {
    const postId = comment.postId;
    if (!postId) return;
    const select = queries.endpoints.getComments.select(postId);
    // The store's type knows the api's tags only as the features inject them.
    const loaded = select(getState() as unknown as Parameters<typeof select>[0]).data !== undefined;
    let added = !loaded;
    dispatch(
      queries.util.updateQueryData('getComments', postId, (page) => {
        added = upsertComment(page, comment);
      }),
    );
    if (added)
      dispatch(patchPage(comment.courseId, (page) => patchPost(page, postId, (p) => (p.commentCount += 1))));
  };

/** A private comment into its thread, if this tab has it open or cached. */
export const addThreadComment =
  (comment: Comment): AppThunk =>
  (dispatch) => {
    if (!comment.thread) return;
    dispatch(
      queries.util.updateQueryData(
        'getThread',
        comment.thread,
        (thread) => void upsertComment(thread, comment),
      ),
    );
  };

/** "comment deleted", on a post or in a thread: the text leaves every cached copy. */
export const applyCommentDeleted =
  (event: Pick<Comment, 'id' | 'postId' | 'thread'> & { deletedAt: string }): AppThunk =>
  (dispatch) => {
    if (event.postId)
      dispatch(queries.util.updateQueryData('getComments', event.postId, (page) => tombstone(page, event)));
    if (event.thread)
      dispatch(queries.util.updateQueryData('getThread', event.thread, (thread) => tombstone(thread, event)));
  };

/** Fetches the posts older than the last one shown and appends them to the course's first page. */
export const loadOlderPosts =
  (courseId: string, before: string): AppThunk<Promise<void>> =>
  async (dispatch) => {
    const { data, error } = await dispatch(
      queries.endpoints.getOlderPosts.initiate(
        { courseId, before },
        { subscribe: false, forceRefetch: true },
      ),
    );
    if (error) throw error;
    if (data) dispatch(patchPage(courseId, (page) => appendOlderPosts(page, data)));
  };

/** Prepends the comments older than the oldest shown (a long discussion's "Show older comments"). */
export const loadOlderComments =
  (postId: string, before: string): AppThunk<Promise<void>> =>
  async (dispatch) => {
    const { data, error } = await dispatch(
      queries.endpoints.getOlderComments.initiate(
        { postId, before },
        { subscribe: false, forceRefetch: true },
      ),
    );
    if (error) throw error;
    if (data)
      dispatch(
        queries.util.updateQueryData('getComments', postId, (page) => {
          for (const comment of data.items) upsertComment(page, comment);
          page.nextBefore = data.nextBefore;
        }),
      );
  };

export { patchPage };

export const {
  useGetStreamNewsQuery,
  useMarkStreamReadMutation,
  useGetPostsQuery,
  useGetCommentsQuery,
  useGetThreadsQuery,
  useGetThreadQuery,
  useCreatePostMutation,
  useUpdatePostMutation,
  useDeletePostMutation,
  useMarkSeenMutation,
  useCreateCommentMutation,
  useDeleteCommentMutation,
  useUpdateStreamMutation,
  useSetMutedMutation,
  useCreateThreadCommentMutation,
} = conversationsApi;
