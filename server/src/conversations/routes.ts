import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  COMMENTS_PAGE_MAX,
  Comment,
  CommentPage,
  CreateCommentBody,
  CreatePostBody,
  ErrorBody,
  IdParams,
  PageQuery,
  POSTS_PAGE_MAX,
  Post,
  PostPage,
  StreamNews,
  StreamSettings,
  Thread,
  ThreadList,
  ThreadParams,
  UpdatePostBody,
  UpdateStreamBody,
} from '@classwave/shared';
import { callerOf } from '../auth/authenticate.js';
import { limitBy, type Limit } from '../auth/limits.js';
import { bearerSecurity, signedInErrors } from '../http/responses.js';
import type { CommentService } from './comments.js';
import type { PostService } from './posts.js';
import type { StreamNewsService } from './news.js';
import type { StreamSettingsService } from './settings.js';
import type { ThreadService } from './threads.js';

export interface ConversationRoutesOptions {
  posts: PostService;
  comments: CommentService;
  threads: ThreadService;
  settings: StreamSettingsService;
  news: StreamNewsService;
  limits: { posts: Limit; comments: Limit };
}

const Empty = Type.Null();
const MuteParams = Type.Object(
  { id: Type.String({ format: 'uuid' }), studentId: Type.String({ format: 'uuid' }) },
  { additionalProperties: false },
);

/** Conversations (DESIGN §19): the stream's posts and comments, seen marks, private threads, switches. */
export const conversationRoutes: FastifyPluginAsyncTypebox<ConversationRoutesOptions> = async (
  app,
  { posts, comments, threads, settings, news, limits },
) => {
  const common = { tags: ['conversations'], security: bearerSecurity };
  const limited = { ...signedInErrors, 429: ErrorBody };
  // Per account, whatever the address: a class shares one school address (DESIGN §15).
  const account = (request: Parameters<typeof callerOf>[0]) => callerOf(request).userId;
  const postLimit = limitBy(app, [{ name: 'posts', key: account, ...limits.posts }]);
  const commentLimit = limitBy(app, [{ name: 'comments', key: account, ...limits.comments }]);

  app.get(
    '/courses/:id/posts',
    {
      schema: {
        ...common,
        summary: "A page of a course's stream, newest first (its teacher and active members)",
        description:
          'The first page also carries the pinned posts and, for the teacher, the scheduled ones. `before` is the `nextBefore` ' +
          'of the page before (400 invalid_cursor otherwise). The teacher sees "seen by N of M" on each post; students never do.',
        params: IdParams,
        querystring: PageQuery(POSTS_PAGE_MAX),
        response: { 200: PostPage, ...signedInErrors },
      },
    },
    async (request) => posts.list(callerOf(request), request.params.id, request.query),
  );

  app.post(
    '/courses/:id/posts',
    {
      // Its standing answers 409 course_archived itself (posts.ts, the create's first statement).
      config: { archive: 'checked-by-the-write' },
      preHandler: postLimit,
      schema: {
        ...common,
        summary: "Post to a course's stream (its teacher); with publishAt, later",
        description:
          'Plain text, 1 to 10,000 characters. Members hear `post:created` once it is published. `fileIds`: the ' +
          'teacher’s ready uploads for this course (purpose post); 409 files_not_ready while one is uploading.',
        params: IdParams,
        body: CreatePostBody,
        response: { 201: Post, ...limited },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await posts.create(callerOf(request), request.params.id, request.body)),
  );

  app.patch(
    '/posts/:id',
    {
      schema: {
        ...common,
        summary: 'Edit, pin, turn comments off or reschedule a post (its author or the course’s teacher)',
        params: IdParams,
        body: UpdatePostBody,
        response: { 200: Post, ...signedInErrors },
      },
    },
    async (request) => posts.update(callerOf(request), request.params.id, request.body),
  );

  app.delete(
    '/posts/:id',
    {
      schema: {
        ...common,
        summary: 'Delete a post with its comments (its author or the course’s teacher)',
        params: IdParams,
        response: { 204: Empty, ...signedInErrors },
      },
    },
    async (request, reply) => {
      await posts.remove(callerOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/posts/:id/seen',
    {
      schema: {
        ...common,
        summary: 'Mark a post seen (members; counted once for the teacher’s "seen by")',
        params: IdParams,
        response: { 204: Empty, ...signedInErrors },
      },
    },
    async (request, reply) => {
      await posts.seen(callerOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/stream/news',
    {
      schema: {
        ...common,
        summary: "What's new in the caller's courses since they last opened each stream (dashboard, to-do)",
        description:
          'Posts and comments by others; only courses with something new, with the newest post’s first line.',
        response: { 200: StreamNews, ...signedInErrors },
      },
    },
    async (request) => news.list(callerOf(request)),
  );

  app.post(
    '/courses/:id/stream/read',
    {
      schema: {
        ...common,
        summary:
          "The caller opened the course's stream: what was new there is read (its teachers and members)",
        params: IdParams,
        response: { 204: Empty, ...signedInErrors },
      },
    },
    async (request, reply) => {
      await news.markRead(callerOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/posts/:id/comments',
    {
      schema: {
        ...common,
        summary: "A post's comments, oldest first (the newest page; `before` for older ones)",
        description: 'A deleted comment is its tombstone: `deleted: true`, `text: null`.',
        params: IdParams,
        querystring: PageQuery(COMMENTS_PAGE_MAX),
        response: { 200: CommentPage, ...signedInErrors },
      },
    },
    async (request) => comments.list(callerOf(request), request.params.id, request.query),
  );

  app.post(
    '/posts/:id/comments',
    {
      preHandler: commentLimit,
      schema: {
        ...common,
        summary: 'Comment on a post (members while comments are on and they are not muted; the teacher)',
        description: '403 comments_off, 403 muted_in_course, 403 not_a_member for a former member.',
        params: IdParams,
        body: CreateCommentBody,
        response: { 201: Comment, ...limited },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await comments.create(callerOf(request), request.params.id, request.body)),
  );

  app.delete(
    '/comments/:id',
    {
      schema: {
        ...common,
        summary: 'Delete a comment, leaving "comment deleted" (its author or the course’s teacher)',
        description: 'Its text is removed from the database and from the stored live events.',
        params: IdParams,
        response: { 204: Empty, ...signedInErrors },
      },
    },
    async (request, reply) => {
      await comments.remove(callerOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/assignments/:id/threads',
    {
      schema: {
        ...common,
        summary:
          "An assignment's private threads with unread counts (the teacher: all; a student: their own)",
        params: IdParams,
        response: { 200: ThreadList, ...signedInErrors },
      },
    },
    async (request) => threads.list(callerOf(request), request.params.id),
  );

  app.get(
    '/assignments/:id/threads/:studentId',
    {
      schema: {
        ...common,
        summary: 'A private thread (that student and the course’s teacher); reading it marks it read',
        params: ThreadParams,
        response: { 200: Thread, ...signedInErrors },
      },
    },
    async (request) => threads.get(callerOf(request), request.params.id, request.params.studentId),
  );

  app.post(
    '/assignments/:id/threads/:studentId/comments',
    {
      preHandler: commentLimit,
      schema: {
        ...common,
        summary: 'Write in a private thread (that student while a member, and the course’s teacher)',
        description:
          'The other side is notified (quiet hours hold the alert) and, if they take e-mail, mailed when it stays unread.',
        params: ThreadParams,
        body: CreateCommentBody,
        response: { 201: Comment, ...limited },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await threads.create(callerOf(request), request.params.id, request.params.studentId, request.body),
        ),
  );

  app.get(
    '/courses/:id/stream',
    {
      schema: {
        ...common,
        summary: "A course's stream settings: comments off, and who is muted (the list: its teacher)",
        params: IdParams,
        response: { 200: StreamSettings, ...signedInErrors },
      },
    },
    async (request) => settings.get(callerOf(request), request.params.id),
  );

  app.patch(
    '/courses/:id/stream',
    {
      schema: {
        ...common,
        summary: 'Turn comments off or on for a whole course (its teacher)',
        params: IdParams,
        body: UpdateStreamBody,
        response: { 200: StreamSettings, ...signedInErrors },
      },
    },
    async (request) => settings.update(callerOf(request), request.params.id, request.body),
  );

  for (const [method, muted] of [
    ['PUT', true],
    ['DELETE', false],
  ] as const)
    app.route({
      method,
      url: '/courses/:id/mutes/:studentId',
      schema: {
        ...common,
        summary: muted
          ? 'Mute a student in the course’s stream: they read, they do not comment (its teacher)'
          : 'Unmute a student (its teacher)',
        params: MuteParams,
        response: { 204: Empty, ...signedInErrors },
      },
      handler: async (request, reply) => {
        const { id, studentId } = request.params as { id: string; studentId: string };
        await settings.mute(callerOf(request), id, studentId, muted);
        return reply.status(204).send(null);
      },
    });
};
