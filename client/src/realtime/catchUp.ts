import type { LiveEvent } from '@classwave/shared';
import type { EventCursor } from './cursor';
import type { ReplayResult } from './liveApi';

export interface CatchUpOptions {
  cursor: EventCursor;
  /** GET /api/events after an id; undefined when the request failed (offline, 503, a dropped connection). */
  fetchMissed: (after: number | null) => Promise<ReplayResult | undefined>;
  isConnected: () => boolean;
  apply: (event: LiveEvent) => void;
  /** Refetch everything shown: after the first connect, and when the server no longer has the gap. */
  refetchAll: () => void;
  retryDelayMs?: (attempt: number) => number;
}

const defaultDelay = (attempt: number) => Math.min(500 * 2 ** attempt, 10_000);

/**
 * The catch-up a tab owes itself after each (re)connect. Until one succeeds, the position it must
 * replay from stays where the connection was lost: live events arriving meanwhile move the cursor
 * past the gap, and starting the next try from there would skip the gap for good. A failed try is
 * repeated while connected, and otherwise on the next connect.
 */
export function createCatchUp(options: CatchUpOptions) {
  const { cursor, fetchMissed, isConnected, apply, refetchAll } = options;
  const delay = options.retryDelayMs ?? defaultDelay;
  /** Where the owed replay starts; undefined when nothing is owed. */
  let owedFrom: number | null | undefined;
  let firstConnect = true;
  let generation = 0;

  return {
    async onConnect(): Promise<void> {
      const mine = ++generation;
      if (owedFrom === undefined) owedFrom = cursor.lastId;
      const from = owedFrom;
      for (let attempt = 0; ; attempt++) {
        const result = await fetchMissed(from);
        if (result) {
          if (firstConnect) {
            firstConnect = false;
            // Anything loaded before the socket was up may have missed an event: fetch it once more.
            refetchAll();
          } else if (result.resync) {
            refetchAll();
          } else {
            result.events.forEach(apply);
          }
          cursor.moveTo(result.lastId);
          if (owedFrom === from) owedFrom = undefined;
          return;
        }
        if (!isConnected() || mine !== generation) return; // the next connect tries again
        await new Promise((resolve) => setTimeout(resolve, delay(attempt)));
        if (!isConnected() || mine !== generation) return;
      }
    },
  };
}
