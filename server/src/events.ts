import { EventEmitter } from 'node:events';
import type { LiveEvent, LiveEventData, LiveEventType } from '@classwave/shared';

/** A stored live event with the rooms that may see it. */
export type AudiencedEvent<T extends LiveEventType = LiveEventType> = LiveEvent<T> & { audience: string[] };

/** Narrows a committed event to one type, so its data reads as that type's. */
export const isEvent = <T extends LiveEventType>(
  event: AudiencedEvent,
  type: T,
): event is AudiencedEvent<T> => event.type === type;

/** An event recorded during a transaction, not yet written. */
export interface PendingEvent {
  type: LiveEventType;
  data: unknown;
  audience: string[];
  /** The writer did itself, in its own statements, what the outbox's rules derive from this event. */
  derived?: true;
}

/**
 * The event types a writer may record `{ derived: true }`, each with the modules whose outbox rules
 * for it the writer does itself, in their order: a grade and a Return write the student's feedback
 * files' events and "grade returned" entry in their own statements, a new assignment for a class its
 * students' inbox entries and reminders (assignments/create.ts) (issue 30, a write in three round
 * trips). The outbox then runs no rule at all for the event, so these must be every rule of the
 * type: derived.test.ts fails when a module adds another one the writers skip.
 */
export const DONE_BY_THE_WRITER = {
  'submission:graded': ['files', 'notifications'],
  'assignment:created': ['notifications'],
} as const satisfies Partial<Record<LiveEventType, readonly string[]>>;

/** An event type a writer may record as derived (see DONE_BY_THE_WRITER). */
export type DerivedEventType = keyof typeof DONE_BY_THE_WRITER;

/**
 * Records a live event in the transaction at hand (realtime/outbox.ts writes it at its end). With
 * `{ derived: true }` (only for a type in DONE_BY_THE_WRITER) the outbox runs no rule for it: the
 * writer has already written what every rule of its type would.
 */
export type RecordEvent = <T extends LiveEventType>(
  type: T,
  data: LiveEventData[T],
  audience: string[],
  options?: T extends DerivedEventType ? { derived: true } : never,
) => void;

/**
 * Handed to `live` subscribers with each committed event: `hold` makes the writer's answer wait for
 * a subscriber's work (a new assignment's inbox rows, which must not run under the next write).
 * Anything else a subscriber starts after a commit goes to `core.afterCommit` instead.
 */
export interface Committed {
  hold(work: Promise<unknown>): void;
}

/** Handed to `live` subscribers with each committed event: `Committed`, and how it was recorded. */
export interface CommittedLive extends Committed {
  /**
   * The event was recorded with `{ derived: true }`: its writer did in its own statements what the
   * outbox's rules derive from it, and so what a subscriber would run after the commit in a rule's
   * stead (a new assignment's inbox rows, written by its write for a class: issue 30).
   */
  derived: boolean;
}

/** A session that signed out or was revoked: its sockets must be told and closed. */
export interface SessionEnded {
  sessionId: string;
  userId: string;
  reason: string;
}

/**
 * In-process domain events. The one road for work that follows a commit (DESIGN §16): subscribe
 * here, with the jobs table as the net where the work must survive a crash.
 */
export interface DomainEvents {
  'session:ended': [SessionEnded];
  /** A change committed with its live event: sent to its audience, and to whoever follows it here. */
  live: [AudiencedEvent, CommittedLive];
  /** A student's membership changed (committed): their sockets join or leave the course's room. */
  membership: [{ studentId: string; courseId: string; active: boolean }];
  /**
   * An account's e-mail address became verified (committed, with its `account:verified` job,
   * auth/verified.ts): subscribers `hold` the answer while they run that job.
   */
  'account:verified': [{ userId: string }, Committed];
  /**
   * Courses whose cached assignment rows are stale (assignments/read-model.ts): raised by the
   * process that committed the change (`remote: false`, which the assignments module passes on to
   * the other processes) and by that module for a change on another process (`remote: true`).
   */
  'readModel:stale': [{ courseIds: string[]; remote: boolean }];
}

export class DomainEventBus extends EventEmitter<DomainEvents> {}
