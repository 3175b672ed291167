import type { Server, Socket } from 'socket.io';
import type { ClientToServerEvents, PresenceState, ServerToClientEvents } from '@classwave/shared';
import type { Caller } from '../auth/caller.js';
import type { SessionEnded } from '../events.js';

/** What the server keeps on each socket (read on every process through the adapter's `fetchSockets`). */
export interface SocketData {
  caller: Caller;
  /**
   * What the student's tab shows (DESIGN §13 panel), set by `presence:set`. Kept on the socket so
   * `fetchSockets()` reads it on every process, through the Redis or the cluster adapter.
   */
  presence?: { assignmentId: string; courseId: string; state: PresenceState };
  /** The course rooms of the student's active memberships at connect (DESIGN §11). */
  courseRooms: string[];
  /** A question to the assistant is waiting for its answer (chat/module.ts); unset before the first. */
  chatPending?: boolean;
}

/** Between the app's processes (through the Redis or the cluster adapter). */
export interface InterServerEvents {
  /** A session ended on another process: drop it from this process's session cache, close its tabs here. */
  'session:ended': (ended: SessionEnded) => void;
  /** A change on another process made these courses' cached assignment rows stale. */
  'readModel:stale': (courseIds: string[]) => void;
  /** Another process's tabs show these assignments' live panels (panel/watch.ts). */
  'panel:watched': (assignmentIds: string[]) => void;
}

export type AppSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
export type AppIo = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

/** A client event's handler, made once for every socket (realtime/listener.ts). */
export type SocketHandler = (socket: AppSocket, payload: unknown, ack: unknown) => unknown;
