import { eq } from 'drizzle-orm';
import { quietHoursEnd } from '@classwave/shared';
import { composeMail } from '../auth/mailer.js';
import { courses, notifications, posts, users } from '../db/schema.js';
import type { JobHandler, JobOutcome } from '../jobs/schedule.js';
import { settingsOf } from '../notifications/store.js';
import { PUBLISH_POST_KIND, type PostService } from './posts.js';
import { THREAD_MAIL_KIND, unreadReply } from './threads.js';

const DONE: JobOutcome = { done: true };
/** How often a scheduled post of an archived course looks again whether it was unarchived. */
const ARCHIVED_RETRY_MS = 3600_000;

/**
 * The conversations' timed work, run by the job table (one transaction per job, so a crash runs
 * it again and never half-applies it): a scheduled post published at its time, exactly once, and
 * the e-mail of a private reply that stayed unread.
 */
export function conversationJobs(postService: PostService): Record<string, JobHandler> {
  return {
    async [PUBLISH_POST_KIND](job, { tx, record, now }) {
      const postId = String(job.payload.postId);
      const [post] = await tx
        .select({
          publishAt: posts.publishAt,
          publishedAt: posts.publishedAt,
          archivedAt: courses.archivedAt,
        })
        .from(posts)
        .innerJoin(courses, eq(courses.id, posts.courseId))
        .where(eq(posts.id, postId));
      // Deleted, or published already (by an edit, or an earlier run): nothing left to do.
      if (!post || post.publishedAt) return DONE;
      // Moved later since the job was set: wait for the new time.
      if (post.publishAt && post.publishAt > now) return { runAt: post.publishAt };
      // Its course is archived, so read-only (DESIGN §20): it waits, and goes out once unarchived.
      if (post.archivedAt) return { runAt: new Date(now.getTime() + ARCHIVED_RETRY_MS) };
      await postService.publish(tx, record, postId, now);
      return DONE;
    },

    /**
     * A private reply still unread after its delay, by e-mail to a reader who takes e-mail, after
     * their quiet hours (DESIGN §14). It names who wrote and where, never the words (threads.ts).
     */
    async [THREAD_MAIL_KIND](job, { tx, now, mailer, appOrigin }) {
      const recipientId = String(job.payload.recipientId);
      const reply = await unreadReply(tx, String(job.payload.commentId), recipientId);
      if (!reply) return DONE;
      const settings = (await settingsOf(tx, [recipientId])).get(recipientId)!;
      if (!settings.email) return DONE;
      const end = quietHoursEnd(now, settings);
      if (end > now) return { runAt: end };
      const [row] = await tx
        .select({ notification: notifications, email: users.email })
        .from(notifications)
        .innerJoin(users, eq(users.id, notifications.userId))
        .where(eq(notifications.id, String(job.payload.notificationId)));
      if (!row) return DONE;
      const { notification } = row;
      await mailer.send({
        ...composeMail(
          row.email,
          notification.title,
          [notification.title, notification.body].filter(Boolean),
          {
            label: 'Open the conversation',
            url: new URL(notification.link, appOrigin).toString(),
          },
        ),
        messageId: `<thread-comment-${reply.comment.id}@${new URL(appOrigin).hostname}>`,
      });
      return DONE;
    },
  };
}
