import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, getTableColumns, inArray, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import {
  POSTS_PAGE_SIZE,
  type CreatePostBody,
  type Post,
  type PostPage,
  type FileSummary,
  type SeenBy,
  type UpdatePostBody,
} from '@classwave/shared';
import type { Caller } from '../auth/caller.js';
import type { Clock } from '../clock.js';
import type { Db, Tx } from '../db/client.js';
import {
  comments,
  courseMembers,
  courses,
  events,
  files,
  jobs,
  postSeen,
  posts,
  profiles,
} from '../db/schema.js';
import { rowsOf } from '../db/rows.js';
import { requireCurrentCourse } from '../archive/rules.js';
import { teaches } from '../courses/teaching.js';
import { attachPostFiles, takePostFiles } from '../files/service.js';
import type { AudiencedEvent, RecordEvent } from '../events.js';
import { scheduleJob } from '../jobs/schedule.js';
import { conflict, forbidden, notFound } from '../http/errors.js';
import type { Outbox } from '../realtime/outbox.js';
import { audience, courseRoom } from '../realtime/rooms.js';
import { teacherRoomsSql } from '../realtime/teacher-rooms.js';
import {
  courseStanding,
  postStanding,
  requireReader,
  requireTeaches,
  requireVisiblePost,
  type Standing,
} from './access.js';
import { encodeCursor, olderThan, parseCursor } from './cursor.js';
import { scrubPostEvents } from './scrub.js';
import { streamSettingsOf } from './settings.js';
import { toPost, type PostRow } from './views.js';

/** The job that publishes a scheduled post at its publishAt (jobs.ts). */
export const PUBLISH_POST_KIND = 'post_publish';
export const publishJobKey = (postId: string) => `post-publish:${postId}`;

/** Who hears a post: the class and its teacher once published; its teacher alone while scheduled. */
export const postAudience = (post: Pick<PostRow, 'courseId' | 'publishedAt'>, teacherId: string) =>
  post.publishedAt ? audience.course(post.courseId, teacherId) : audience.teachers(post.courseId, teacherId);

/** The post's id, named with its table: an UPDATE's RETURNING would name a bare "id", the sub-select's own. */
const postRef = sql.raw('"posts"."id"');
const commentCount = sql<number>`(select count(*)::int from ${comments} where ${comments.postId} = ${postRef})`;

/** A post's ready files as the API shows them (files/views.ts `toSummary`), in upload order, in the post's own query. */
const postFiles = sql<
  FileSummary[]
>`(select coalesce(json_agg(json_build_object('id', ${files.id}, 'name', ${files.name},
  'size', coalesce(${files.storedSize}, ${files.declaredSize}), 'type', coalesce(${files.mime}, 'application/octet-stream'))
  order by ${files.createdAt}, ${files.id}), '[]'::json) from ${files} where ${files.postId} = ${postRef} and ${files.status} = 'ready')`;

/** The posts, as the caller sees them: counts, their own seen mark, and the teacher's "seen by". */
async function viewsOf(
  db: Db,
  standing: Standing,
  rows: Array<{
    post: PostRow;
    authorName: string;
    commentCount: number;
    seenByMe: boolean;
    files: FileSummary[];
  }>,
): Promise<Post[]> {
  const seen = standing.teaches
    ? await seenByOf(
        db,
        standing.courseId,
        rows.map((r) => r.post.id),
      )
    : undefined;
  return rows.map((r) =>
    toPost(r.post, r.authorName, {
      commentCount: r.commentCount,
      seenByMe: r.seenByMe,
      files: r.files,
      seen: seen ? (seen.get(r.post.id) ?? { count: 0, of: seen.of, by: [] }) : null,
    }),
  );
}

/** "Seen by N of M" for the teacher: active members only (a removed student no longer counts). */
export async function seenByOf(db: Db | Tx, courseId: string, postIds: string[]) {
  const active = and(eq(courseMembers.courseId, courseId), eq(courseMembers.status, 'active'));
  const [members] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(courseMembers)
    .where(active);
  const of = members?.n ?? 0;
  const rows =
    postIds.length === 0
      ? []
      : await db
          .select({ postId: postSeen.postId, id: profiles.id, fullName: profiles.fullName })
          .from(postSeen)
          .innerJoin(courseMembers, and(eq(courseMembers.studentId, postSeen.userId), active))
          .innerJoin(profiles, eq(profiles.id, postSeen.userId))
          .where(inArray(postSeen.postId, postIds))
          .orderBy(asc(postSeen.seenAt), asc(profiles.id));
  const byPost = new Map<string, SeenBy>();
  for (const r of rows) {
    const entry = byPost.get(r.postId) ?? { count: 0, of, by: [] };
    entry.count += 1;
    entry.by.push({ id: r.id, fullName: r.fullName });
    byPost.set(r.postId, entry);
  }
  return Object.assign(byPost, { of });
}

export function createPostService({
  db,
  outbox,
  clock,
  discardFiles = async () => {},
  seenMarks,
}: {
  db: Db;
  outbox: Outbox;
  clock: Clock;
  /** Removes the bytes of a deleted post's files (the files module's storage). */
  discardFiles?: (rows: Awaited<ReturnType<typeof takePostFiles>>) => Promise<void>;
  /** Gathers first views into one `post:seen` a post a moment (seen.ts). */
  seenMarks?: { touch(postId: string, courseId: string): void };
}) {
  /**
   * A post published now with nothing else to write: the post and its event in one statement (the
   * event's insert reads the post's), which is its whole transaction. When its rows come back it has
   * committed, so its event is sent then (outbox `committed`), as the outbox sends a transaction's:
   * one round trip to the event where BEGIN, the post, the event and COMMIT were four (issue 27).
   * The stored audience is `postAudience` of a published post (the class's room and its teachers'
   * own rooms, co-teachers share-locked), the author's name filled in by the statement.
   */
  async function publishAlone(caller: Caller, row: PostRow, insert: SQL): Promise<Post> {
    const post = toPost(row, '');
    const at = clock.now();
    const [event] = rowsOf<{ id: number | string; audience: string[]; author_name: string | null }>(
      await db.execute(sql`with p as (${insert})
        insert into ${events} (type, data, audience, created_at)
        select 'post:created',
          jsonb_set(${JSON.stringify(post)}::jsonb, '{author,fullName}', coalesce(to_jsonb(p.author_name), 'null')),
          array[${courseRoom(row.courseId)}] || ${teacherRoomsSql(row.courseId, sql`p.teacher_id`)},
          ${at.toISOString()}::timestamptz
        from p
        returning id, audience, data->'author'->>'fullName' as author_name`),
    );
    if (!event) return refuse(db, caller, row.courseId);
    const created: Post = { ...post, author: { ...post.author, fullName: event.author_name as string } };
    await outbox.committed([
      {
        id: Number(event.id),
        type: 'post:created',
        at: at.toISOString(),
        data: created,
        audience: [...new Set(event.audience)],
      } satisfies AudiencedEvent<'post:created'>,
    ]);
    return created;
  }

  /** The posts of a course matching `where`, with what every view needs. */
  function select(caller: Caller) {
    return db
      .select({
        post: posts,
        authorName: profiles.fullName,
        commentCount,
        seenByMe: sql<boolean>`exists (select 1 from ${postSeen} where ${postSeen.postId} = ${posts.id}
          and ${postSeen.userId} = ${caller.userId})`,
        files: postFiles,
      })
      .from(posts)
      .innerJoin(profiles, eq(profiles.id, posts.authorId));
  }

  /** Publishes a post now, in the transaction at hand: the class hears `post:created` once. */
  async function publish(tx: Tx, record: RecordEvent, postId: string, now: Date): Promise<boolean> {
    const [row] = await tx
      .update(posts)
      .set({ publishedAt: now })
      .where(and(eq(posts.id, postId), isNull(posts.publishedAt)))
      .returning({
        ...getTableColumns(posts),
        authorName: sql<string>`(select ${profiles.fullName} from ${profiles} where ${profiles.id} = ${posts.authorId})`,
        teacherId: sql<string>`(select teacher_id from courses where courses.id = ${posts.courseId} and courses.deleted_at is null)`,
        commentCount,
        files: postFiles,
      });
    if (!row?.teacherId) return false;
    const { authorName, teacherId, commentCount: n, files: attached, ...post } = row;
    record(
      'post:created',
      toPost(post, authorName, { commentCount: n, files: attached }),
      postAudience(post, teacherId),
    );
    return true;
  }

  return {
    publish,

    /** A page of a course's stream (DESIGN §19): newest first, pinned and scheduled on the first page. */
    async list(
      caller: Caller,
      courseId: string,
      query: { before?: string; limit?: number },
    ): Promise<PostPage> {
      const cursor = parseCursor(query.before);
      const standing = await courseStanding(db, caller, courseId);
      requireReader(standing);
      const limit = query.limit ?? POSTS_PAGE_SIZE;
      const published = and(eq(posts.courseId, courseId), isNotNull(posts.publishedAt));
      const page = await select(caller)
        .where(and(published, eq(posts.pinned, false), olderThan(cursor, posts.publishedAt, posts.id)))
        .orderBy(desc(posts.publishedAt), desc(posts.id))
        .limit(limit + 1);
      const more = page.length > limit;
      const items = page.slice(0, limit);
      const first = !cursor;
      const pinned = first
        ? await select(caller)
            .where(and(published, eq(posts.pinned, true)))
            .orderBy(desc(posts.publishedAt), desc(posts.id))
        : [];
      const scheduled =
        first && standing.teaches
          ? await select(caller)
              .where(and(eq(posts.courseId, courseId), isNull(posts.publishedAt)))
              .orderBy(asc(posts.publishAt), asc(posts.id))
          : [];
      const last = items.at(-1)?.post;
      const views = await viewsOf(db, standing, [...items, ...pinned, ...scheduled]);
      return {
        items: views.slice(0, items.length),
        pinned: views.slice(items.length, items.length + pinned.length),
        scheduled: views.slice(items.length + pinned.length),
        nextBefore: more && last?.publishedAt ? encodeCursor(last.publishedAt, last.id) : null,
        stream: await streamSettingsOf(db, standing),
      };
    },

    /**
     * A teacher's post: published now, or at `publishAt` by the job table. Its permission, the
     * archive's read-only rule and the write are one statement (issue 30: the standing read and the
     * archive guard's were round trips of their own). A post published now without files is that
     * statement with its event, and no transaction around it (`publishAlone`); a scheduled one (its
     * job) or one with files (their statement) is BEGIN, the post, the files, the event, COMMIT. A
     * refusal is explained after (reads on the error path only).
     */
    async create(caller: Caller, courseId: string, body: CreatePostBody): Promise<Post> {
      const now = clock.now();
      const publishAt = body.publishAt ? new Date(body.publishAt) : null;
      const later = publishAt !== null && publishAt.getTime() > now.getTime();
      const row: PostRow = {
        id: randomUUID(),
        courseId,
        authorId: caller.userId,
        text: body.text,
        pinned: body.pinned ?? false,
        commentsOff: body.commentsOff ?? false,
        publishAt: later ? publishAt : null,
        publishedAt: later ? null : now,
        createdAt: now,
        editedAt: null,
      };
      if (caller.role !== 'teacher') return refuse(db, caller, courseId);
      const insert = sql`insert into ${posts} (id, course_id, author_id, text, pinned, comments_off,
          publish_at, published_at, created_at)
        select ${row.id}::uuid, ${courses.id}, ${row.authorId}::uuid, ${row.text}, ${row.pinned},
          ${row.commentsOff}, ${row.publishAt}::timestamptz, ${row.publishedAt}::timestamptz,
          ${row.createdAt}::timestamptz
        from ${courses} where ${courses.id} = ${courseId}::uuid and ${courses.deletedAt} is null
          and ${courses.archivedAt} is null and ${teaches(caller.userId)}
        returning (select ${profiles.fullName} from ${profiles} where ${profiles.id} = ${caller.userId}::uuid) as author_name,
          (select ${courses.teacherId} from ${courses} where ${courses.id} = ${courseId}::uuid) as teacher_id`;
      if (!later && !body.fileIds?.length && outbox.rulesOf('post:created').length === 0)
        return publishAlone(caller, row, insert);
      return outbox.transaction(async (tx, record) => {
        const [written] = rowsOf<{ author_name: string; teacher_id: string }>(
          await tx.execute(
            later
              ? // The job that publishes it, in the same statement; rolled back with it on a refusal.
                sql`with p as (${insert}), j as (${tx
                  .insert(jobs)
                  .values({
                    kind: PUBLISH_POST_KIND,
                    key: publishJobKey(row.id),
                    runAt: publishAt,
                    payload: { postId: row.id },
                  })
                  .onConflictDoUpdate({
                    target: jobs.key,
                    set: { runAt: publishAt, doneAt: null, attempts: 0, lastError: null },
                  })
                  .getSQL()}) select * from p`
              : insert,
          ),
        );
        if (!written) return refuse(tx, caller, courseId);
        // Its files go out with it (the class sees them in post:created), or wait with it while scheduled.
        const attached = body.fileIds?.length
          ? await attachPostFiles(tx, {
              authorId: caller.userId,
              courseId,
              postId: row.id,
              fileIds: body.fileIds,
            })
          : [];
        const post = toPost(row, written.author_name, { files: attached });
        record('post:created', post, postAudience(row, written.teacher_id));
        return post;
      });
    },

    /** Edit, pin or reschedule: the author or the course's teacher. */
    async update(caller: Caller, postId: string, body: UpdatePostBody): Promise<Post> {
      return outbox.transaction(async (tx, record) => {
        const found = await postStanding(tx, caller, postId, true);
        const { post, standing } = mayChange(caller, found, 'edit it');
        const now = clock.now();
        // null means "now": on a published post, nothing to do; a time is for scheduled posts only.
        if (body.publishAt && post.publishedAt !== null)
          throw conflict('This post is already published: publishAt can only change while it is scheduled.');
        const scheduling = body.publishAt !== undefined && post.publishedAt === null;
        const publishAt = body.publishAt ? new Date(body.publishAt) : null;
        const publishNow = scheduling && (!publishAt || publishAt.getTime() <= now.getTime());
        const update = tx
          .update(posts)
          .set({
            ...(body.text !== undefined && body.text !== post.text ? { text: body.text, editedAt: now } : {}),
            ...(body.pinned !== undefined ? { pinned: body.pinned } : {}),
            ...(body.commentsOff !== undefined ? { commentsOff: body.commentsOff } : {}),
            ...(scheduling ? (publishNow ? { publishAt: null, publishedAt: now } : { publishAt }) : {}),
          })
          .where(eq(posts.id, postId))
          .returning({ ...getTableColumns(posts), commentCount, files: postFiles });
        // Rescheduled: the job follows the new time (a rare edit, so a statement of its own). One
        // that ran before the change finds the post still scheduled and waits for its time.
        if (publishAt && !publishNow)
          await scheduleJob(tx, {
            kind: PUBLISH_POST_KIND,
            key: publishJobKey(postId),
            runAt: publishAt,
            payload: { postId },
          });
        const [row] = await update;
        const { commentCount: n, files: attached, ...changed } = row!;
        const view = toPost(changed, found!.authorName, { commentCount: n, files: attached });
        // Published by this edit: the class hears it as new, once.
        record(publishNow ? 'post:created' : 'post:updated', view, postAudience(changed, standing.teacherId));
        return view;
      });
    },

    /** Deletes a post with its comments; its words leave the stored events too (scrub.ts). */
    async remove(caller: Caller, postId: string): Promise<void> {
      const gone = await outbox.transaction(async (tx, record) => {
        const found = await postStanding(tx, caller, postId, true);
        const { post, standing } = mayChange(caller, found, 'delete it');
        // Its files go with it: the rows now (no download from here on), the bytes after commit.
        const goneFiles = await takePostFiles(tx, post.id);
        await scrubPostEvents(tx, post);
        record(
          'post:deleted',
          { id: post.id, courseId: post.courseId },
          postAudience(post, standing.teacherId),
        );
        return goneFiles;
      });
      await discardFiles(gone);
    },

    /** A member opened the post: counted once for the teacher's "seen by". The teacher's own view is not counted. */
    async seen(caller: Caller, postId: string): Promise<void> {
      const found = await postStanding(db, caller, postId);
      requireReader(found?.standing, 'Post');
      requireVisiblePost(found!.post, found!.standing);
      if (found!.standing.teaches) return;
      const marked = await db
        .insert(postSeen)
        .values({ postId, userId: caller.userId, seenAt: clock.now() })
        .onConflictDoNothing()
        .returning({ postId: postSeen.postId });
      // A first view moves the teachers' count: announced coalesced (seen.ts), never to students.
      if (marked.length > 0) seenMarks?.touch(postId, found!.post.courseId);
    },
  };
}
export type PostService = ReturnType<typeof createPostService>;

/** Why a post was not written: not there (404), archived (409, to those who see it), or a member student (403). */
async function refuse(q: Db | Tx, caller: Caller, courseId: string): Promise<never> {
  const standing = await courseStanding(q, caller, courseId);
  requireReader(standing);
  await requireCurrentCourse(q, courseId);
  requireTeaches(standing, 'post to its stream');
  throw notFound('Course not found.');
}

/** The author or the course's teacher may change a post; a member student 403, anyone else 404. */
function mayChange(caller: Caller, found: Awaited<ReturnType<typeof postStanding>>, action: string) {
  requireReader(found?.standing, 'Post');
  const { post, standing } = found!;
  requireVisiblePost(post, standing);
  if (!standing.teaches && post.authorId !== caller.userId)
    throw forbidden(`Only the post's author or the course's teacher can ${action}.`);
  return { post, standing };
}
