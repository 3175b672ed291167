import { COMMENT_RATE, POST_RATE } from '@classwave/shared';
import type { Core } from '../core.js';
import { perApp, type AppModule } from '../module.js';
import { createCommentService } from './comments.js';
import { conversationJobs } from './jobs.js';
import { createPostService } from './posts.js';
import { conversationRoutes } from './routes.js';
import { createStreamSettingsService } from './settings.js';
import { createThreadService } from './threads.js';
import { createSeenMarks } from './seen.js';
import { createStreamNewsService } from './news.js';
import { filesOf } from '../files/module.js';
import { installTyping } from './typing.js';

/** The module's services, once per app. */
const conversationsOf = perApp((core: Core) => {
  const seenMarks = createSeenMarks(core);
  return {
    seenMarks,
    posts: createPostService({
      ...core,
      seenMarks,
      discardFiles: (rows) => filesOf(core).service.discard(rows),
    }),
    comments: createCommentService(core),
    threads: createThreadService(core),
    settings: createStreamSettingsService(core),
    news: createStreamNewsService(core),
  };
});

/**
 * Conversations (DESIGN §19): a live stream per course (posts, comments, seen marks, comments off,
 * mutes), and a private thread per assignment and student. Its jobs publish scheduled posts and
 * mail unread private replies; its socket handler relays "typing".
 */
export const conversations: AppModule = {
  name: 'conversations',
  setup(core) {
    core.jobs.handle(conversationJobs(conversationsOf(core).posts));
    installTyping(core.realtime, core);
    const { seenMarks } = conversationsOf(core);
    return () => seenMarks.close();
  },
  routes: (app, { core }) =>
    conversationRoutes(app, {
      ...conversationsOf(core),
      limits: {
        posts: {
          max: POST_RATE.max,
          timeWindow: POST_RATE.windowMs,
          ...core.options.conversationLimits?.posts,
        },
        comments: {
          max: COMMENT_RATE.max,
          timeWindow: COMMENT_RATE.windowMs,
          ...core.options.conversationLimits?.comments,
        },
      },
    }),
};
