import { and, asc, eq, gt, lt, or, sql } from 'drizzle-orm';
import type { LiveEvent, LiveEventType } from '@classwave/shared';
import type { Caller } from '../auth/service.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/client.js';
import { events } from '../db/schema.js';
import { roomsOf } from './rooms.js';

/** More missed events than this and the client is better off refetching what it shows. */
export const MAX_REPLAY = 500;
/** How far back before the client's last event a late commit is looked for. */
const LATE_COMMIT_LOOKBACK_S = 300;

export type Replay =
  { resync: false; events: LiveEvent[]; lastId: number } | { resync: true; events: []; lastId: number };

export function createReplayService({
  db,
  clock,
  retentionMs,
}: {
  db: Db;
  clock: Clock;
  retentionMs: number;
}) {
  async function bounds() {
    const [row] = await db
      .select({ min: sql<number | null>`min(${events.id})`, max: sql<number | null>`max(${events.id})` })
      .from(events);
    return {
      min: row?.min === null || row?.min === undefined ? null : Number(row.min),
      max: Number(row?.max ?? 0),
    };
  }

  return {
    /**
     * The caller's events after `after`, oldest first. Without `after`, only the current last id,
     * so a client learns where to start. 'resync' when some of what it missed is no longer kept.
     */
    async after(caller: Caller, after: number | undefined): Promise<Replay> {
      const { min, max } = await bounds();
      if (after === undefined) return { resync: false, events: [], lastId: max };
      // An id beyond the last one means the data was reset; one before what is kept means it was pruned.
      if (after > max || (min !== null && after < min - 1)) return { resync: true, events: [], lastId: max };
      const rooms = roomsOf(caller);
      // Besides the ids after `after`, the few smaller ones whose transactions were still running
      // when `after` was written: they may have committed (and been sent) after the client left.
      const cursor = db
        .select({ horizon: events.horizon, createdAt: events.createdAt })
        .from(events)
        .where(eq(events.id, after));
      const lateCommit = and(
        lt(events.id, after),
        sql`${events.xid} >= (select horizon from ${cursor} as c)`,
        // A transaction left open for long makes the horizon old: look back a bounded time only.
        sql`${events.createdAt} >= (select created_at from ${cursor} as c) - ${sql.raw(`interval '${LATE_COMMIT_LOOKBACK_S} seconds'`)}`,
      );
      const rows = await db
        .select()
        .from(events)
        .where(
          and(or(gt(events.id, after), lateCommit), sql`${events.audience} && ${sql.param(rooms)}::text[]`),
        )
        .orderBy(asc(events.id))
        .limit(MAX_REPLAY + 1);
      if (rows.length > MAX_REPLAY) return { resync: true, events: [], lastId: max };
      return {
        resync: false,
        lastId: max,
        events: rows.map((row) => ({
          id: row.id,
          type: row.type as LiveEventType,
          at: row.createdAt.toISOString(),
          data: row.data as LiveEvent['data'],
        })),
      };
    },

    /** Deletes events older than the retention period, always keeping the newest (it marks where ids are). */
    async prune(): Promise<number> {
      const cutoff = new Date(clock.now().getTime() - retentionMs);
      const deleted = await db
        .delete(events)
        .where(
          and(lt(events.createdAt, cutoff), lt(events.id, sql`(select max(${events.id}) from ${events})`)),
        )
        .returning({ id: events.id });
      return deleted.length;
    },
  };
}
export type ReplayService = ReturnType<typeof createReplayService>;
