import type { Role } from '@classwave/shared';

interface Live {
  userId: string;
  role: Role;
  until: number;
}

/**
 * Sessions recently found live in the database, so an authenticated request or socket handshake
 * does not query it each time. An ended session is forgotten before anyone is told it ended (the
 * auth service calls `end` on sign-out and revocation, other processes hear of it through the
 * socket adapter), and a tombstone keeps a lookup that raced the sign-out from caching it again.
 * `ttlMs` bounds how stale an entry can be if such a message were ever lost.
 */
export function createSessionCache({ ttlMs, max, now }: { ttlMs: number; max: number; now: () => number }) {
  const live = new Map<string, Live>();
  const ended = new Map<string, number>();

  function sweep(map: Map<string, { until: number } | number>, at: number) {
    for (const [key, value] of map) {
      if ((typeof value === 'number' ? value : value.until) > at) break; // insertion order ≈ expiry order
      map.delete(key);
    }
  }

  return {
    /** The role of a live session of this user, if known and fresh. */
    get(sessionId: string, userId: string): Role | undefined {
      const entry = live.get(sessionId);
      if (!entry) return undefined;
      if (entry.until <= now()) {
        live.delete(sessionId);
        return undefined;
      }
      return entry.userId === userId ? entry.role : undefined;
    },
    /** Remembers a session just read as live; false when it ended meanwhile (the caller refuses it). */
    remember(sessionId: string, userId: string, role: Role): boolean {
      const at = now();
      sweep(ended, at);
      if (ended.has(sessionId)) return false;
      if (live.size >= max) sweep(live, at);
      if (live.size >= max) live.delete(live.keys().next().value!);
      live.delete(sessionId);
      live.set(sessionId, { userId, role, until: at + ttlMs });
      return true;
    },
    /** The session ended: forget it, and refuse to cache it again from a lookup already under way. */
    end(sessionId: string): void {
      live.delete(sessionId);
      ended.delete(sessionId);
      ended.set(sessionId, now() + ttlMs);
    },
    get size() {
      return live.size;
    },
  };
}
export type SessionCache = ReturnType<typeof createSessionCache>;
