import type { Profile } from './auth.js';
import type { MemberEventData } from './classes.js';
import type { Assignment, Course, Submission } from './teaching.js';

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
  'assignment:created': Assignment;
  'assignment:deleted': { id: string; courseId: string };
  'submission:created': Submission;
  'submission:graded': Submission;
  /** Membership changes (DESIGN §11): to the course's teacher and that student's tabs. */
  'member:joined': MemberEventData;
  'member:left': MemberEventData;
  'member:removed': MemberEventData;
  'member:restored': MemberEventData;
  /** The user changed their profile (their name): to their own tabs (DESIGN §15). */
  'profile:updated': Profile;
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
  'assignment:created',
  'assignment:deleted',
  'submission:created',
  'submission:graded',
  'member:joined',
  'member:left',
  'member:removed',
  'member:restored',
  'profile:updated',
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
  'assignment:created': (event: LiveEvent<'assignment:created'>) => void;
  'assignment:deleted': (event: LiveEvent<'assignment:deleted'>) => void;
  'submission:created': (event: LiveEvent<'submission:created'>) => void;
  'submission:graded': (event: LiveEvent<'submission:graded'>) => void;
  'member:joined': (event: LiveEvent<'member:joined'>) => void;
  'member:left': (event: LiveEvent<'member:left'>) => void;
  'member:removed': (event: LiveEvent<'member:removed'>) => void;
  'member:restored': (event: LiveEvent<'member:restored'>) => void;
  'profile:updated': (event: LiveEvent<'profile:updated'>) => void;
  /** This tab's session signed out or was revoked; the socket is closed right after. */
  'session:ended': (info: { reason: string }) => void;
  'chat:reply': (reply: ChatReply) => void;
  /** A refused client message, when it had no acknowledgement to carry the refusal. */
  'error:message': (error: { code: string; message: string }) => void;
}

export interface ClientToServerEvents {
  /** Ask the assistant; the ack says whether the question was taken, the answer comes as chat:reply. */
  'chat:ask': (payload: { question: string }, ack: (result: Ack) => void) => void;
  /** Hand the socket a refreshed access token so it is not closed when the old one expires. */
  'auth:token': (payload: { token: string }, ack: (result: Ack) => void) => void;
}

/** Every server → client event name, at runtime (tests check each one's audience). */
export const SERVER_TO_CLIENT_EVENTS = [
  ...LIVE_EVENT_TYPES,
  'session:ended',
  'chat:reply',
  'error:message',
] as const satisfies readonly (keyof ServerToClientEvents)[];
true satisfies Covers<keyof ServerToClientEvents, typeof SERVER_TO_CLIENT_EVENTS>;

/** Every client → server event name, at runtime (tests check who may send each one). */
export const CLIENT_TO_SERVER_EVENTS = [
  'chat:ask',
  'auth:token',
] as const satisfies readonly (keyof ClientToServerEvents)[];
true satisfies Covers<keyof ClientToServerEvents, typeof CLIENT_TO_SERVER_EVENTS>;

/** The answer to GET /api/events?after=: the missed events, or a request to refetch everything shown. */
export type ReplayResponse = { resync: false; events: LiveEvent[] } | { resync: true; events: [] };

/** Why a socket connection was refused: `connect_error`'s message is one of these codes. */
export const SocketRefusal = {
  noToken: 'unauthorized',
  invalidToken: 'invalid_token',
  tokenExpired: 'token_expired',
  sessionEnded: 'session_ended',
  /** The server could not check the token just now (its database is down): try again shortly. */
  unavailable: 'service_unavailable',
} as const;
