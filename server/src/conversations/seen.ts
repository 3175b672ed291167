import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { courses } from '../db/schema.js';
import type { Outbox } from '../realtime/outbox.js';
import { audience } from '../realtime/rooms.js';
import { seenByOf } from './posts.js';

/**
 * How long first views of a post gather before its teachers hear the new "seen by" (DESIGN §19):
 * thirty students opening a post at once are one `post:seen` per teacher's tab, not thirty.
 */
export const SEEN_COALESCE_MS = 500;

/**
 * Gathers the first views of each post and announces its count once per window: the first view
 * starts the window, the rest join it, so the count lags at most SEEN_COALESCE_MS. Each process
 * gathers its own views; the event carries the whole count read at send time, so two processes'
 * events never disagree for long (the later one is the truth).
 */
export function createSeenMarks({ outbox, log }: { outbox: Outbox; log: FastifyBaseLogger }) {
  const waiting = new Map<string, string>();
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let flushing: Promise<void> = Promise.resolve();

  async function flush(): Promise<void> {
    timer = undefined;
    const batch = [...waiting];
    waiting.clear();
    for (const [postId, courseId] of batch) {
      await outbox
        .transaction(async (tx, record) => {
          const [course] = await tx
            .select({ teacherId: courses.teacherId })
            .from(courses)
            .where(eq(courses.id, courseId));
          if (!course) return;
          const seen = await seenByOf(tx, courseId, [postId]);
          record(
            'post:seen',
            { postId, courseId, seen: seen.get(postId) ?? { count: 0, of: seen.of, by: [] } },
            audience.teachers(courseId, course.teacherId),
          );
        })
        .catch((err: unknown) => log.warn({ err, postId }, 'post:seen not sent'));
    }
  }

  return {
    /** A member saw `postId` for the first time. */
    touch(postId: string, courseId: string): void {
      if (closed) return;
      waiting.set(postId, courseId);
      timer ??= setTimeout(() => {
        flushing = flush();
      }, SEEN_COALESCE_MS);
    },
    /** The app closing: what waits is dropped (the count is stored; a reload reads it). */
    async close(): Promise<void> {
      closed = true;
      if (timer) clearTimeout(timer);
      waiting.clear();
      await flushing;
    },
  };
}
export type SeenMarks = ReturnType<typeof createSeenMarks>;
