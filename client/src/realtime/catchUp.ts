import type { LiveEvent, MissedEvents, SocketAuth } from '@classwave/shared';
import type { EventCursor } from './cursor';

export interface CatchUpOptions {
  cursor: EventCursor;
  apply: (event: LiveEvent) => void;
  /** Refetch everything shown: after the first connect, and when the server no longer has the gap. */
  refetchAll: () => void;
  /**
   * The session answer's `liveFrom`, when everything cached was fetched after it: the first
   * connection asks from there, and refetches only if something changed since.
   */
  liveFrom?: number | null;
}

/**
 * The catch-up a tab owes itself after each (re)connect, over the socket itself (DESIGN §8): every
 * handshake carries the last id the tab applied, and the server answers with `events:missed` before
 * it sends anything live on that connection. A connection lost before that answer delivered nothing,
 * so the next handshake asks again from the same id.
 */
export function createCatchUp({ cursor, apply, refetchAll, liveFrom = null }: CatchUpOptions) {
  let firstConnect = true;
  if (liveFrom !== null) cursor.moveTo(liveFrom);
  return {
    /** The handshake's `auth` now: the token and where to replay from. */
    auth(token: string): SocketAuth {
      return cursor.lastId === null ? { token } : { token, after: cursor.lastId };
    },

    /** The server's `events:missed`: apply it (each event once), or refetch when it says resync. */
    onMissed(missed: MissedEvents): void {
      if (firstConnect) {
        firstConnect = false;
        // Anything loaded before the socket was up may have missed an event: fetch it once more,
        // unless it was all fetched after `liveFrom` and nothing of this user's changed since. (What
        // did change is not applied: the data fetched may already show it, and counts would double.)
        if (liveFrom === null || missed.resync || missed.events.length > 0) refetchAll();
      } else if (missed.resync) {
        refetchAll();
      } else {
        missed.events.forEach(apply);
      }
      cursor.moveTo(missed.lastId);
    },
  };
}
