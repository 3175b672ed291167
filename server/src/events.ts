import { EventEmitter } from 'node:events';

/** In-process domain events, emitted by services after their transaction commits. */
export interface DomainEvents {
  /** A session signed out or was revoked: its sockets must be told and closed. */
  'session:ended': [{ sessionId: string; userId: string; reason: string }];
}

export class DomainEventBus extends EventEmitter<DomainEvents> {}
