import type { LiveEvent, MissedEvents, SocketAuth } from '@classwave/shared';
import type { EventCursor } from './cursor';

export interface CatchUpOptions {
  cursor: EventCursor;
  apply: (event: LiveEvent) => void;
  /** Refetch everything shown: after the first connect, and when the server no longer has the gap. */
  refetchAll: () => void;
}

/**
 * The catch-up a tab owes itself after each (re)connect, over the socket itself (DESIGN §8): every
 * handshake carries the last id the tab applied, and the server answers with `events:missed` before
 * it sends anything live on that connection. A connection lost before that answer delivered nothing,
 * so the next handshake asks again from the same id.
 */
export function createCatchUp({ cursor, apply, refetchAll }: CatchUpOptions) {
  let firstConnect = true;
  return {
    /** The handshake's `auth` now: the token and where to replay from. */
    auth(token: string): SocketAuth {
      return cursor.lastId === null ? { token } : { token, after: cursor.lastId };
    },

    /** The server's `events:missed`: apply it (each event once), or refetch when it says resync. */
    onMissed(missed: MissedEvents): void {
      if (firstConnect) {
        firstConnect = false;
        // Anything loaded before the socket was up may have missed an event: fetch it once more.
        refetchAll();
      } else if (missed.resync) {
        refetchAll();
      } else {
        missed.events.forEach(apply);
      }
      cursor.moveTo(missed.lastId);
    },
  };
}
