import { sql } from 'drizzle-orm';
import type { StreamNewsItem } from '@classwave/shared';
import type { Caller } from '../auth/caller.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/client.js';
import { rowsOf } from '../db/rows.js';
import { streamReads } from '../db/schema.js';
import { courseStanding, requireReader } from './access.js';

/** The first line of a post, as the dashboard's title of it (plain text, at most 140 characters). */
export function firstLine(text: string): string {
  const line = text.split('\n').find((l) => l.trim() !== '') ?? '';
  const trimmed = line.trim();
  return trimmed.length > 140 ? `${trimmed.slice(0, 139)}…` : trimmed;
}

interface NewsRow {
  course_id: string;
  course_name: string;
  new_posts: number;
  new_comments: number;
  latest_id: string | null;
  latest_text: string | null;
  latest_at: Date | string | null;
}

/**
 * "What's new" (DESIGN §19 with §14's dashboard and to-do): per course the caller reads, the posts
 * by others since they last opened its stream that they have not seen, the comments by others
 * since then, and the newest such post.
 */
export function createStreamNewsService({ db, clock }: { db: Db; clock: Clock }) {
  return {
    /**
     * One statement for every course (no query per course): the caller's live, current courses (an
     * active membership, or teaching it), each read since its `stream_reads` mark, else since they
     * joined (a teacher: since the course began). Only courses with something new come back.
     */
    async list(caller: Caller): Promise<StreamNewsItem[]> {
      const me = caller.userId;
      const teaching =
        caller.role === 'teacher'
          ? sql`(c.teacher_id = ${me}::uuid or exists (select 1 from course_teachers ct
              where ct.course_id = c.id and ct.teacher_id = ${me}::uuid))`
          : sql`false`;
      // A post the caller has seen (post_seen: it was on their screen, live or not) is not news,
      // whenever their stream's mark was last written (a tab closed before it was is no reason).
      const unseen = sql`not exists (select 1 from post_seen ps where ps.post_id = p.id
        and ps.user_id = ${me}::uuid)`;
      const result = await db.execute(sql`
        with mine as (
          select c.id, c.title as name, coalesce(r.read_at, m.joined_at, c.created_at) as since
          from courses c
          left join course_members m on m.course_id = c.id and m.student_id = ${me}::uuid
          left join stream_reads r on r.course_id = c.id and r.user_id = ${me}::uuid
          where c.deleted_at is null and c.archived_at is null and (m.status = 'active' or ${teaching})
        ),
        counted as (
          select mine.id, mine.name,
            (select count(*)::int from posts p where p.course_id = mine.id and p.published_at > mine.since
              and p.author_id <> ${me}::uuid and ${unseen}) as new_posts,
            (select count(*)::int from comments k join posts p on p.id = k.post_id
              where k.course_id = mine.id and k.created_at > mine.since and k.author_id <> ${me}::uuid
                and k.deleted_at is null and p.published_at is not null) as new_comments,
            latest.id as latest_id, latest.text as latest_text, latest.published_at as latest_at
          from mine
          left join lateral (select p.id, p.text, p.published_at from posts p
            where p.course_id = mine.id and p.published_at > mine.since and p.author_id <> ${me}::uuid
              and ${unseen}
            order by p.published_at desc, p.id desc limit 1) latest on true
        )
        select id as course_id, name as course_name, new_posts, new_comments, latest_id, latest_text, latest_at
        from counted where new_posts > 0 or new_comments > 0
        order by latest_at desc nulls last, name, id`);
      return rowsOf<NewsRow>(result).map((r) => ({
        courseId: r.course_id,
        courseTitle: r.course_name,
        newPosts: Number(r.new_posts),
        newComments: Number(r.new_comments),
        latest:
          r.latest_id && r.latest_text !== null && r.latest_at
            ? {
                postId: r.latest_id,
                title: firstLine(r.latest_text),
                publishedAt: new Date(r.latest_at).toISOString(),
              }
            : null,
      }));
    },

    /** The caller opened the course's stream: what was new is read (its teachers and active members). */
    async markRead(caller: Caller, courseId: string): Promise<void> {
      const standing = await courseStanding(db, caller, courseId);
      requireReader(standing);
      const now = clock.now();
      await db
        .insert(streamReads)
        .values({ courseId, userId: caller.userId, readAt: now })
        .onConflictDoUpdate({ target: [streamReads.courseId, streamReads.userId], set: { readAt: now } });
    },
  };
}
export type StreamNewsService = ReturnType<typeof createStreamNewsService>;
