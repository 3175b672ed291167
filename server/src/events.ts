import { EventEmitter } from 'node:events';
import type { AudiencedEvent } from './realtime/outbox.js';

/** A session that signed out or was revoked: its sockets must be told and closed. */
export interface SessionEnded {
  sessionId: string;
  userId: string;
  reason: string;
}

/** In-process domain events, emitted by services after their transaction commits. */
export interface DomainEvents {
  'session:ended': [SessionEnded];
  /** A change committed with its live event (see realtime/outbox.ts): to be sent to its audience. */
  live: [AudiencedEvent];
  /** A student's membership changed (committed): their sockets join or leave the course's room. */
  membership: [{ studentId: string; courseId: string; active: boolean }];
  /**
   * Courses whose cached assignment rows are stale (assignments/read-model.ts): raised by the
   * process that committed the change (`remote: false`, which the realtime module passes on to the
   * other processes) and by the realtime module for a change on another process (`remote: true`).
   */
  'readModel:stale': [{ courseIds: string[]; remote: boolean }];
}

export class DomainEventBus extends EventEmitter<DomainEvents> {}
