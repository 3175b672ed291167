import { Type, type Static } from 'typebox';
import { FileSummary } from './files.js';
import { PersonRef } from './teaching.js';

/**
 * Conversations (DESIGN §19): a course's stream of posts with comments, and one private thread per
 * assignment and student between that student and the course's teachers. Plain text only: line
 * breaks are kept and URLs are linked by the client, nothing is ever read as HTML.
 */

/** The longest post or comment, in characters (UTF-16 code units, as the browser's maxLength counts). */
export const CONVERSATION_TEXT_MAX = 10_000;
/** Posts a page of the stream holds by default, and at most. */
export const POSTS_PAGE_SIZE = 20;
export const POSTS_PAGE_MAX = 50;
/** Comments a page holds by default, and at most. */
export const COMMENTS_PAGE_SIZE = 50;
export const COMMENTS_PAGE_MAX = 200;
/** Per account: posts in 10 minutes, and comments (stream and private) in one minute. */
export const POST_RATE = { max: 20, windowMs: 10 * 60_000 } as const;
export const COMMENT_RATE = { max: 30, windowMs: 60_000 } as const;
/** A tab says "typing" at most this often per post or thread; more is dropped (rate_limited). */
export const TYPING_EVERY_MS = 2000;
/** A private reply still unread this long after it was written is e-mailed (if the reader takes e-mail). */
export const THREAD_MAIL_DELAY_MINUTES = 15;
/** Files one post may carry (DESIGN §19: attachments, uploaded in the composer before the post). */
export const POST_FILES_MAX = 10;

const Uuid = Type.String({ format: 'uuid' });
const Timestamp = Type.String({ format: 'date-time' });
/** Required text: at least one non-space character, at most CONVERSATION_TEXT_MAX. */
const Text = Type.String({
  minLength: 1,
  maxLength: CONVERSATION_TEXT_MAX,
  pattern: '\\S',
  description: `Plain text with line breaks, 1 to ${CONVERSATION_TEXT_MAX} characters, not only spaces.`,
});

/** `before`: the `nextBefore` of the previous page (opaque); anything else is refused with 400. */
const Cursor = Type.String({
  minLength: 1,
  maxLength: 100,
  description: 'The `nextBefore` of the page before; absent for the newest page.',
});

/** Who has seen a post: its course's teacher only (students never see others' seen state). */
export const SeenBy = Type.Object(
  {
    /** Active members who opened it. */
    count: Type.Integer({ minimum: 0 }),
    /** Active members of the course now. */
    of: Type.Integer({ minimum: 0 }),
    /** Those who have seen it, first seen first. */
    by: Type.Array(PersonRef),
  },
  { additionalProperties: false },
);
export type SeenBy = Static<typeof SeenBy>;

export const Post = Type.Object(
  {
    id: Uuid,
    courseId: Uuid,
    author: PersonRef,
    text: Type.String(),
    pinned: Type.Boolean(),
    /** Comments turned off on this post (the course's own switch is `StreamSettings.commentsOff`). */
    commentsOff: Type.Boolean(),
    /** When a scheduled post goes out; null when it went out as it was written. */
    publishAt: Type.Union([Timestamp, Type.Null()]),
    /** When members could first see it; null while scheduled (only its teacher sees it then). */
    publishedAt: Type.Union([Timestamp, Type.Null()]),
    createdAt: Timestamp,
    /** When its text last changed; null if never edited. */
    editedAt: Type.Union([Timestamp, Type.Null()]),
    /** Comments on it, deleted ones (their tombstones) included. */
    commentCount: Type.Integer({ minimum: 0 }),
    /** Whether the caller has marked it seen (always false in live events: each tab keeps its own). */
    seenByMe: Type.Boolean(),
    /** The teacher's "seen by N of M"; null for students and in live events. */
    seen: Type.Union([SeenBy, Type.Null()]),
    /** Its attachments, in upload order: they go out with the post and are seen as it is. */
    files: Type.Array(FileSummary),
  },
  { additionalProperties: false },
);
export type Post = Static<typeof Post>;

/** A course's stream settings (DESIGN §19): comments off for the whole course, and who is muted. */
export const StreamSettings = Type.Object(
  {
    courseId: Uuid,
    /** No new comments on any post of the course (existing ones stay). */
    commentsOff: Type.Boolean(),
    /** The caller is muted in this course: they may read, not comment. */
    muted: Type.Boolean(),
    /** The course's teacher: the students muted in it; [] for students. */
    mutedStudentIds: Type.Array(Uuid),
  },
  { additionalProperties: false },
);
export type StreamSettings = Static<typeof StreamSettings>;

export const UpdateStreamBody = Type.Object(
  { commentsOff: Type.Boolean({ description: 'Turn comments off (true) or on for the whole course.' }) },
  { additionalProperties: false },
);
export type UpdateStreamBody = Static<typeof UpdateStreamBody>;

export const PostPage = Type.Object(
  {
    /** Published posts that are not pinned, newest first. */
    items: Type.Array(Post),
    /** First page only: every pinned post, newest first ([] on later pages). */
    pinned: Type.Array(Post),
    /** First page only, the course's teacher only: posts waiting for their publishAt, soonest first. */
    scheduled: Type.Array(Post),
    /** Pass as `before` for the next (older) page; null when there is none. */
    nextBefore: Type.Union([Type.String(), Type.Null()]),
    stream: StreamSettings,
  },
  { additionalProperties: false },
);
export type PostPage = Static<typeof PostPage>;

export const PageQuery = (max: number) =>
  Type.Object(
    {
      before: Type.Optional(Cursor),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: max })),
    },
    { additionalProperties: false },
  );

export const CreatePostBody = Type.Object(
  {
    text: Text,
    pinned: Type.Optional(Type.Boolean()),
    commentsOff: Type.Optional(Type.Boolean()),
    /** Publish later (hidden from members until then); a time already past publishes now. */
    publishAt: Type.Optional(Type.Union([Timestamp, Type.Null()])),
    /** The caller's uploads for this course (purpose `post`, targetId the course), ready and not yet on a post. */
    fileIds: Type.Optional(Type.Array(Uuid, { maxItems: POST_FILES_MAX, uniqueItems: true })),
  },
  { additionalProperties: false },
);
export type CreatePostBody = Static<typeof CreatePostBody>;

export const UpdatePostBody = Type.Object(
  {
    text: Type.Optional(Text),
    pinned: Type.Optional(Type.Boolean()),
    commentsOff: Type.Optional(Type.Boolean()),
    /** Only while the post is still scheduled (409 once published). */
    publishAt: Type.Optional(Type.Union([Timestamp, Type.Null()])),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdatePostBody = Static<typeof UpdatePostBody>;

/** The private thread a comment belongs to: one per assignment and student. */
export const ThreadRef = Type.Object(
  { assignmentId: Uuid, studentId: Uuid },
  { additionalProperties: false },
);
export type ThreadRef = Static<typeof ThreadRef>;

export const Comment = Type.Object(
  {
    id: Uuid,
    courseId: Uuid,
    /** The post it answers; null on a private comment. */
    postId: Type.Union([Uuid, Type.Null()]),
    /** The private thread it is in; null on a post's comment. */
    thread: Type.Union([ThreadRef, Type.Null()]),
    author: PersonRef,
    /** Null once deleted: the tombstone shows "comment deleted" and the text is gone for good. */
    text: Type.Union([Type.String(), Type.Null()]),
    deleted: Type.Boolean(),
    createdAt: Timestamp,
    deletedAt: Type.Union([Timestamp, Type.Null()]),
  },
  { additionalProperties: false },
);
export type Comment = Static<typeof Comment>;

export const CommentPage = Type.Object(
  {
    /** Oldest first: the newest `limit` comments before the cursor. */
    items: Type.Array(Comment),
    /** Pass as `before` for older comments; null when there are none. */
    nextBefore: Type.Union([Type.String(), Type.Null()]),
  },
  { additionalProperties: false },
);
export type CommentPage = Static<typeof CommentPage>;

export const CreateCommentBody = Type.Object({ text: Text }, { additionalProperties: false });
export type CreateCommentBody = Static<typeof CreateCommentBody>;

/** GET /api/assignments/:id/threads/:studentId: the thread, read by the caller as it answers. */
export const Thread = Type.Object(
  {
    assignmentId: Uuid,
    courseId: Uuid,
    student: PersonRef,
    /** Oldest first. */
    items: Type.Array(Comment),
    /** Comments by the others that the caller had not read before this GET (it marks them read). */
    unreadCount: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);
export type Thread = Static<typeof Thread>;

export const ThreadParams = Type.Object({ id: Uuid, studentId: Uuid }, { additionalProperties: false });
export type ThreadParams = Static<typeof ThreadParams>;

/** GET /api/assignments/:id/threads: the teacher's list of an assignment's threads with unread counts. */
export const ThreadSummary = Type.Object(
  {
    student: PersonRef,
    commentCount: Type.Integer({ minimum: 0 }),
    unreadCount: Type.Integer({ minimum: 0 }),
    lastCommentAt: Timestamp,
  },
  { additionalProperties: false },
);
export const ThreadList = Type.Array(ThreadSummary);
export type ThreadSummary = Static<typeof ThreadSummary>;

/** What is new in one of the caller's courses since they last opened its stream (dashboard, to-do). */
export const StreamNewsItem = Type.Object(
  {
    courseId: Uuid,
    courseTitle: Type.String(),
    /** Published posts by others since the caller last looked. */
    newPosts: Type.Integer({ minimum: 0 }),
    /** Comments by others on published posts since then (deleted ones not counted). */
    newComments: Type.Integer({ minimum: 0 }),
    /** The newest of those posts: its id and its text's first line (at most 140 characters). */
    latest: Type.Union([
      Type.Object(
        { postId: Uuid, title: Type.String(), publishedAt: Timestamp },
        { additionalProperties: false },
      ),
      Type.Null(),
    ]),
  },
  { additionalProperties: false },
);
export type StreamNewsItem = Static<typeof StreamNewsItem>;
/** GET /api/stream/news: only the courses with something new, newest activity first. */
export const StreamNews = Type.Array(StreamNewsItem);

// Live events (DESIGN §19)

/** `post:seen`: the post's "seen by" moved (coalesced), to the course's teachers only. */
export interface PostSeenEvent {
  postId: string;
  courseId: string;
  seen: SeenBy;
}

/** `post:deleted`: to the course's members and teacher. */
export interface PostDeletedEvent {
  id: string;
  courseId: string;
}
/** `comment:deleted`: the tombstone's ids; to the post's course, or to the private thread's two sides. */
export interface CommentDeletedEvent {
  id: string;
  courseId: string;
  postId: string | null;
  thread: ThreadRef | null;
  deletedAt: string;
}
/** `stream:updated`: comments turned off or on for the course, to its members and teacher. */
export interface StreamUpdatedEvent {
  courseId: string;
  commentsOff: boolean;
}

/** The client's `typing`: one of the two targets. */
export type TypingTarget = { postId: string } | { thread: ThreadRef };
/** The server's `typing` to the others who read that post's comments or that thread (not stored, not replayed). */
export type TypingEvent = TypingTarget & { courseId: string; user: PersonRef; at: string };
