import type { Profile } from './auth.js';
import type { MemberEventData } from './classes.js';
import type { AssignmentPanel, GradebookCell, PresenceState } from './grading.js';
import type { Notification, NotificationsReadData } from './notifications.js';
import type { DraftSavedEvent, SubmissionWithdrawnEvent } from './drafts.js';
import type { Assignment, Course, Submission } from './teaching.js';
import type { CourseTeachers, CourseTeachersForMembers } from './coteachers.js';
import type { Extension } from './assigning.js';
import type { CategoriesResponse } from './categories.js';
import type { FileDeletedEvent, FileReadyEvent, UploadProgressEvent } from './files.js';
import type {
  Comment,
  CommentDeletedEvent,
  Post,
  PostDeletedEvent,
  PostSeenEvent,
  StreamUpdatedEvent,
  TypingEvent,
  TypingTarget,
} from './conversations.js';
import type {
  LessonAnswerEvent,
  LessonEndedEvent,
  LessonTallyEvent,
  Lesson,
  LessonQuestion,
} from './lessons.js';

/** Every live event: `data` is what the matching REST read returns for that item (DESIGN §8). */
export interface LiveEvent<T extends LiveEventType = LiveEventType> {
  /** Grows with every event; a client remembers the last one it applied. */
  id: number;
  type: T;
  /** When the change happened, ISO 8601. */
  at: string;
  data: LiveEventData[T];
}

export interface LiveEventData {
  'course:created': Course;
  /** A course changed: to its members (joinCode null) and, with the code, to its teacher (DESIGN §11, §13). */
  'course:updated': Course;
  'course:deleted': { id: string };
  /**
   * A course's teachers or invitations changed (DESIGN §20): to its teachers in their view (the
   * removed one told by course:deleted); when its teachers changed, also to its members in theirs
   * (names only, no invitation).
   */
  'course:teachers': CourseTeachers | CourseTeachersForMembers;
  /** A course's grade categories were written (DESIGN §17): to its members and teacher, whose totals change. */
  'course:categories': CategoriesResponse;
  'assignment:created': Assignment;
  'assignment:deleted': { id: string; courseId: string };
  /** An assignment was edited (DESIGN §13): to its course's members and teacher, each in their own view. */
  'assignment:updated': Assignment;
  /** One student's due date changed (DESIGN §20): to that student and the course's teachers only. */
  'assignment:extended': Extension;
  /** Who is viewing / writing / has submitted (DESIGN §13): to the course's teacher only. */
  'assignment:panel': AssignmentPanel;
  'submission:created': Submission;
  'submission:graded': Submission;
  /** A gradebook cell changed without a submission event (a student excused or no longer): to the course's teacher only. */
  'gradebook:cell': GradebookCell;
  /** A student took their submission back (DESIGN §12): to them and the course's teacher. */
  'submission:withdrawn': SubmissionWithdrawnEvent;
  /** A draft was saved (DESIGN §12): to the student's own tabs only. */
  'draft:saved': DraftSavedEvent;
  /** Membership changes (DESIGN §11): to the course's teacher and that student's tabs. */
  'member:joined': MemberEventData;
  'member:left': MemberEventData;
  'member:removed': MemberEventData;
  'member:restored': MemberEventData;
  /** The user changed their profile (their name): to their own tabs (DESIGN §15). */
  'profile:updated': Profile;
  /** A notification was stored or a batch grew (same id: replace it): to its user's tabs (DESIGN §14). */
  'notification:created': Notification;
  /** Notifications were read in one tab: to the user's other tabs, with the new unread count. */
  'notifications:read': NotificationsReadData;
  /** A file is stored whole (DESIGN §18): to those who may see its parent (a held grade's feedback waits for Return). */
  'file:ready': FileReadyEvent;
  /** Its uploader removed a file: to the same rooms as its `file:ready`. */
  'file:deleted': FileDeletedEvent;
  /** A student's upload moved (DESIGN §18, the teacher's panel): to the course's teacher. */
  'upload:progress': UploadProgressEvent;
  /** Conversations (DESIGN §19): to the course's active members and its teacher (a scheduled post: its teacher, then all at publishAt). */
  'post:created': Post;
  'post:updated': Post;
  'post:deleted': PostDeletedEvent;
  /** A post's "seen by" moved (coalesced: one event a post a moment, whatever the number of readers): to the course's teachers only. */
  'post:seen': PostSeenEvent;
  /** A post's comment: to the course; a private comment goes as `thread:comment` instead. */
  'comment:created': Comment;
  /** A comment became a tombstone: to the post's course, or to a private thread's student and teacher. */
  'comment:deleted': CommentDeletedEvent;
  /** A private comment: to the thread's student (while an active member) and the course's teacher. */
  'thread:comment': Comment;
  /** Comments turned off or on for a whole course. */
  'stream:updated': StreamUpdatedEvent;
  /**
   * Live lessons (DESIGN §21): each to the course's members in their view and to its teachers in
   * theirs (a question's right answer and the students' answers only in the teachers' view until it closes).
   */
  'lesson:started': Lesson;
  'lesson:question': LessonQuestion;
  'lesson:closed': LessonQuestion;
  'lesson:ended': LessonEndedEvent;
  /** An answer came in: to the course's teachers only. */
  'lesson:tally': LessonTallyEvent;
  /** A student's own answer: to their own tabs only. */
  'lesson:answer': LessonAnswerEvent;
}
export type LiveEventType = keyof LiveEventData;

/**
 * Resolves to `true` only when `Listed` names every member of `All`: a runtime list of event names
 * declared as `everyName satisfies Covers<…>` stops compiling when a name is added to the type alone.
 */
export type Covers<All extends string, Listed extends readonly string[]> = [
  Exclude<All, Listed[number]>,
] extends [never]
  ? true
  : false;

export const LIVE_EVENT_TYPES = [
  'course:created',
  'course:updated',
  'course:deleted',
  'course:teachers',
  'course:categories',
  'assignment:created',
  'assignment:deleted',
  'assignment:updated',
  'assignment:extended',
  'assignment:panel',
  'submission:created',
  'submission:graded',
  'gradebook:cell',
  'submission:withdrawn',
  'draft:saved',
  'member:joined',
  'member:left',
  'member:removed',
  'member:restored',
  'profile:updated',
  'notification:created',
  'notifications:read',
  'file:ready',
  'file:deleted',
  'upload:progress',
  'post:created',
  'post:updated',
  'post:deleted',
  'post:seen',
  'comment:created',
  'comment:deleted',
  'thread:comment',
  'stream:updated',
  'lesson:started',
  'lesson:question',
  'lesson:closed',
  'lesson:ended',
  'lesson:tally',
  'lesson:answer',
] as const satisfies readonly LiveEventType[];
true satisfies Covers<LiveEventType, typeof LIVE_EVENT_TYPES>;

export interface ChatReply {
  question: string;
  answer: string;
  at: string;
}

/** What an acknowledgement says: done, or refused with a reason. */
export type Ack = { ok: true } | { ok: false; code: string; message: string };

export interface ServerToClientEvents {
  'course:created': (event: LiveEvent<'course:created'>) => void;
  'course:updated': (event: LiveEvent<'course:updated'>) => void;
  'course:deleted': (event: LiveEvent<'course:deleted'>) => void;
  'course:teachers': (event: LiveEvent<'course:teachers'>) => void;
  'course:categories': (event: LiveEvent<'course:categories'>) => void;
  'assignment:created': (event: LiveEvent<'assignment:created'>) => void;
  'assignment:deleted': (event: LiveEvent<'assignment:deleted'>) => void;
  'assignment:updated': (event: LiveEvent<'assignment:updated'>) => void;
  'assignment:extended': (event: LiveEvent<'assignment:extended'>) => void;
  'assignment:panel': (event: LiveEvent<'assignment:panel'>) => void;
  'submission:created': (event: LiveEvent<'submission:created'>) => void;
  'submission:graded': (event: LiveEvent<'submission:graded'>) => void;
  'gradebook:cell': (event: LiveEvent<'gradebook:cell'>) => void;
  'submission:withdrawn': (event: LiveEvent<'submission:withdrawn'>) => void;
  'draft:saved': (event: LiveEvent<'draft:saved'>) => void;
  'member:joined': (event: LiveEvent<'member:joined'>) => void;
  'member:left': (event: LiveEvent<'member:left'>) => void;
  'member:removed': (event: LiveEvent<'member:removed'>) => void;
  'member:restored': (event: LiveEvent<'member:restored'>) => void;
  'profile:updated': (event: LiveEvent<'profile:updated'>) => void;
  'notification:created': (event: LiveEvent<'notification:created'>) => void;
  'notifications:read': (event: LiveEvent<'notifications:read'>) => void;
  'file:ready': (event: LiveEvent<'file:ready'>) => void;
  'file:deleted': (event: LiveEvent<'file:deleted'>) => void;
  'upload:progress': (event: LiveEvent<'upload:progress'>) => void;
  'post:created': (event: LiveEvent<'post:created'>) => void;
  'post:updated': (event: LiveEvent<'post:updated'>) => void;
  'post:deleted': (event: LiveEvent<'post:deleted'>) => void;
  'post:seen': (event: LiveEvent<'post:seen'>) => void;
  'comment:created': (event: LiveEvent<'comment:created'>) => void;
  'comment:deleted': (event: LiveEvent<'comment:deleted'>) => void;
  'thread:comment': (event: LiveEvent<'thread:comment'>) => void;
  'stream:updated': (event: LiveEvent<'stream:updated'>) => void;
  'lesson:started': (event: LiveEvent<'lesson:started'>) => void;
  'lesson:question': (event: LiveEvent<'lesson:question'>) => void;
  'lesson:closed': (event: LiveEvent<'lesson:closed'>) => void;
  'lesson:ended': (event: LiveEvent<'lesson:ended'>) => void;
  'lesson:tally': (event: LiveEvent<'lesson:tally'>) => void;
  'lesson:answer': (event: LiveEvent<'lesson:answer'>) => void;
  /** Someone is typing a comment on a post or in a thread the tab may read (not stored, never replayed). */
  typing: (event: TypingEvent) => void;
  /** This tab's session signed out or was revoked; the socket is closed right after. */
  'session:ended': (info: { reason: string }) => void;
  'chat:reply': (reply: ChatReply) => void;
  /** A refused client message, when it had no acknowledgement to carry the refusal. */
  'error:message': (error: { code: string; message: string }) => void;
  /**
   * Sent once on every connect, before any live event: what the tab missed after the `after` of its
   * handshake (DESIGN §8 catch-up). Live events follow it with no gap and none of its ids again.
   */
  'events:missed': (missed: MissedEvents) => void;
}

export interface ClientToServerEvents {
  /** Ask the assistant; the ack says whether the question was taken, the answer comes as chat:reply. */
  'chat:ask': (payload: { question: string }, ack: (result: Ack) => void) => void;
  /** Hand the socket a refreshed access token so it is not closed when the old one expires. */
  'auth:token': (payload: { token: string }, ack: (result: Ack) => void) => void;
  /**
   * A student's tab says which assignment it shows and whether they are typing (DESIGN §13 panel);
   * `assignmentId: null` when it shows none. Only members' reports for visible assignments count.
   */
  'presence:set': (
    payload: { assignmentId: string | null; state: PresenceState | null },
    ack: (result: Ack) => void,
  ) => void;
  /**
   * The course's teacher shows an assignment's live panel (DESIGN §13), or `null` when the tab no
   * longer does: the server computes and sends `assignment:panel` only while someone watches it.
   */
  'panel:watch': (payload: { assignmentId: string | null }, ack: (result: Ack) => void) => void;
  /**
   * The caller is typing a comment on a post or in a private thread (DESIGN §19): relayed as
   * `typing` to the others who may read it, at most once every TYPING_EVERY_MS per target.
   */
  typing: (payload: TypingTarget, ack: (result: Ack) => void) => void;
}

/** Every server → client event name, at runtime (tests check each one's audience). */
export const SERVER_TO_CLIENT_EVENTS = [
  ...LIVE_EVENT_TYPES,
  'session:ended',
  'chat:reply',
  'error:message',
  'events:missed',
  'typing',
] as const satisfies readonly (keyof ServerToClientEvents)[];
true satisfies Covers<keyof ServerToClientEvents, typeof SERVER_TO_CLIENT_EVENTS>;

/** Every client → server event name, at runtime (tests check who may send each one). */
export const CLIENT_TO_SERVER_EVENTS = [
  'chat:ask',
  'auth:token',
  'presence:set',
  'panel:watch',
  'typing',
] as const satisfies readonly (keyof ClientToServerEvents)[];
true satisfies Covers<keyof ClientToServerEvents, typeof CLIENT_TO_SERVER_EVENTS>;

/**
 * What a tab missed after an event id, oldest first: the answer to GET /api/events?after= and the
 * `events:missed` message of every socket connect. `resync` when the gap is no longer kept (or the
 * id is not one the server handed out): refetch what is shown instead. Continue from `lastId`.
 */
export type MissedEvents =
  { resync: false; lastId: number; events: LiveEvent[] } | { resync: true; lastId: number; events: [] };

/**
 * The socket handshake's `auth`: the access token, and the id of the last live event the tab
 * applied (absent on its first connect), so the server sends what it missed before anything live.
 */
export interface SocketAuth {
  token: string;
  after?: number;
}

/** Why a socket connection was refused: `connect_error`'s message is one of these codes. */
export const SocketRefusal = {
  noToken: 'unauthorized',
  invalidToken: 'invalid_token',
  tokenExpired: 'token_expired',
  sessionEnded: 'session_ended',
  /** The server could not check the token just now (its database is down): try again shortly. */
  unavailable: 'service_unavailable',
} as const;
