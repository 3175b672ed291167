import { LIVE_EVENT_TYPES } from '@classwave/shared';
import type { AppSocket } from './types.js';

const LIVE = new Set<string>(LIVE_EVENT_TYPES);

/**
 * The handshake's `after` (DESIGN §8 catch-up): undefined on a first connect (none sent), the id
 * when it is one the server could have handed out, and 'invalid' otherwise (negative, fractional,
 * beyond 2^53, a string…), which is answered with a resync rather than a refusal: the tab then
 * refetches what it shows and carries on from the newest id.
 */
export function cursorOf(auth: unknown): number | undefined | 'invalid' {
  const after = (auth as { after?: unknown } | null | undefined)?.after;
  if (after === undefined || after === null) return undefined;
  return Number.isSafeInteger(after) && (after as number) >= 0 ? (after as number) : 'invalid';
}

/** How long after a replay a replayed id arriving late from another process is still dropped. */
const REPLAYED_GRACE_MS = 2000;

type Write = (data: unknown, options?: unknown, callback?: unknown) => unknown;
type Held = [data: string, options: unknown, callback: unknown];

/** A live event as socket.io encodes it for the main namespace: `2["<type>",{"id":…}]`. */
function isLiveEvent(data: unknown): data is string {
  if (typeof data !== 'string' || !data.startsWith('2["')) return false;
  return LIVE.has(data.slice(3, data.indexOf('"', 3)));
}

function idOf(packet: string): number | undefined {
  // The outbox puts `id` first in every live event's payload: read it without parsing the rest.
  const at = packet.indexOf('",{"id":');
  if (at > 0) {
    const id = parseInt(packet.slice(at + 8, at + 28), 10);
    if (Number.isSafeInteger(id)) return id;
  }
  try {
    const [, payload] = JSON.parse(packet.slice(1)) as [string, { id?: unknown }];
    return typeof payload.id === 'number' ? payload.id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Holds back the live events written to one socket, from now until `release`, so that what the tab
 * missed reaches it before anything live. It sits on the socket's engine.io connection (`write`, the
 * one call every packet to this socket goes through, whether broadcast to a room on this process or
 * arriving from another through the adapter), so the socket can join its rooms at once and lose
 * nothing published while its replay is read. Anything else (acknowledgements, session:ended, the
 * assistant's reply) passes straight through.
 */
export function holdLiveEvents(socket: AppSocket, graceMs = REPLAYED_GRACE_MS) {
  const conn = socket.conn as unknown as { write: Write };
  const write = conn.write;
  // Assigned back, never deleted: a deleted property turns the connection object into a
  // dictionary, several times its size (S5: memory per socket).
  const restore = () => {
    conn.write = write;
  };
  const held: Held[] = [];
  conn.write = function (this: unknown, data, options, callback) {
    if (!isLiveEvent(data)) return write.call(conn, data, options, callback);
    held.push([data, options, callback]);
    return conn;
  };
  return {
    /**
     * Sends `first` (the replay), then what was held in the order it came, less the events whose ids
     * the replay carried: no gap between the two and nothing twice. Only ids are compared: a held
     * event with a smaller id than the replay's last is a late commit the replay did not see. For
     * `graceMs` more, a replayed id that still comes live (published on another process before the
     * replay was read, and carried here by the adapter after it was sent) is dropped too.
     */
    release(first: () => void, replayed: ReadonlySet<number>): void {
      const skip = (data: unknown) => isLiveEvent(data) && replayed.has(idOf(data) ?? -1);
      conn.write = function (this: unknown, data, options, callback) {
        return skip(data) ? conn : write.call(conn, data, options, callback);
      };
      first();
      for (const [data, options, callback] of held) conn.write(data, options, callback);
      held.length = 0;
      if (replayed.size === 0) restore();
      else setTimeout(restore, graceMs).unref();
    },
  };
}
