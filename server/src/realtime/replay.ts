import { and, asc, eq, gt, lt, or, sql } from 'drizzle-orm';
import type { LiveEvent, LiveEventType } from '@classwave/shared';
import type { Caller } from '../auth/service.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/client.js';
import { courseMembers, events } from '../db/schema.js';
import { userRoom } from './rooms.js';

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
  // Prepared once: every tab runs these on every (re)connect.
  const boundsQuery = db
    .select({ min: sql<number | null>`min(${events.id})`, max: sql<number | null>`max(${events.id})` })
    .from(events)
    .prepare('event_bounds');
  // A reconnect storm asks this thousands of times a second: callers arriving in the same turn of
  // the event loop share one query, which starts after they all arrived (so it sees what they must).
  const bounds = sharedAfterArrival(async () => {
    const [row] = await boundsQuery.execute();
    return {
      min: row?.min === null || row?.min === undefined ? null : Number(row.min),
      max: Number(row?.max ?? 0),
    };
  });

  // Besides the ids after `after`, the few smaller ones whose transactions had not committed when
  // `after` was written (they were in its snapshot's running set): they may have committed, and been
  // sent, after the client left. Other transactions never widen this, however long they run.
  const afterId = sql.placeholder('after');
  const cursor = db
    .select({ snapshot: events.snapshot, createdAt: events.createdAt })
    .from(events)
    .where(eq(events.id, afterId));
  const lateCommit = and(
    lt(events.id, afterId),
    sql`${events.xid} >= (select pg_snapshot_xmin(snapshot) from ${cursor} as c)`,
    sql`not pg_visible_in_snapshot(${events.xid}, (select snapshot from ${cursor} as c))`,
    // Keeps the index range short when some transaction stayed open for long.
    sql`${events.createdAt} >= (select created_at from ${cursor} as c) - ${sql.raw(`interval '${LATE_COMMIT_LOOKBACK_S} seconds'`)}`,
  );
  const missedQuery = db
    .select({ id: events.id, type: events.type, data: events.data, createdAt: events.createdAt })
    .from(events)
    .where(
      and(
        or(gt(events.id, afterId), lateCommit),
        // The caller's current rooms: their user room and the course rooms of their active memberships,
        // read here so a removal counts from the moment it commits. Role rooms are left out on purpose:
        // events stored before classes (DESIGN §11) went to `role:student`, and would show other courses.
        sql`${events.audience} && (array[${sql.placeholder('userRoom')}::text] || array(
          select 'course:' || ${courseMembers.courseId}::text from ${courseMembers}
          where ${courseMembers.studentId} = ${sql.placeholder('userId')}::uuid and ${courseMembers.status} = 'active'))`,
      ),
    )
    .orderBy(asc(events.id))
    .limit(MAX_REPLAY + 1)
    .prepare('events_missed');

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
      const rows = await missedQuery.execute({
        after,
        userRoom: userRoom(caller.userId),
        userId: caller.userId,
      });
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

/** `run` once for all callers that arrive before it starts; a caller never gets an answer older than its call. */
export function sharedAfterArrival<T>(run: () => Promise<T>): () => Promise<T> {
  let next: Promise<T> | undefined;
  return () => {
    next ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      next = undefined;
      return run();
    });
    return next;
  };
}
