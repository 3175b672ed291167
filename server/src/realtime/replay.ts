import { and, asc, eq, gt, lt, or, sql } from 'drizzle-orm';
import type { LiveEvent, LiveEventType, MissedEvents } from '@classwave/shared';
import type { Caller } from '../auth/caller.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/client.js';
import { courseMembers, courses, events } from '../db/schema.js';
import { batchLoader } from '../db/batch-loader.js';
import { userRoom } from './rooms.js';

/**
 * More missed events than this and the client is better off refetching what it shows. A teacher's
 * submission now comes with its notification and a panel count (three events, not one), so the
 * limit grew with them: at 500 the reliability pass's teachers were told to resync after a restart.
 */
export const MAX_REPLAY = 2000;
/** A gap up to this many events (everyone's) is read once for all sockets asking from its cursor. */
const SHARED_GAP_LIMIT = 5000;
/** How far back before the client's last event a late commit is looked for. */
const LATE_COMMIT_LOOKBACK_S = 300;

export type Replay = MissedEvents;

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
    .select({ snapshot: events.snapshot, createdAt: events.createdAt, xid: events.xid })
    .from(events)
    .where(eq(events.id, afterId));
  const lateCommit = and(
    lt(events.id, afterId),
    sql`${events.xid} >= (select pg_snapshot_xmin(snapshot) from ${cursor} as c)`,
    sql`not pg_visible_in_snapshot(${events.xid}, (select snapshot from ${cursor} as c))`,
    // Its own transaction's earlier events (a change and the notifications derived from it) are not
    // visible in its snapshot either, yet committed with it: the client that has `after` has them.
    sql`${events.xid} <> (select xid from ${cursor} as c)`,
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
        // A course in the bin is no room of anyone's: its course:deleted went to each member's own room.
        sql`${events.audience} && (array[${sql.placeholder('userRoom')}::text] || array(
          select 'course:' || ${courseMembers.courseId}::text from ${courseMembers}
          join ${courses} on ${courses.id} = ${courseMembers.courseId} and ${courses.deletedAt} is null
          where ${courseMembers.studentId} = ${sql.placeholder('userId')}::uuid and ${courseMembers.status} = 'active'))`,
      ),
    )
    .orderBy(asc(events.id))
    .limit(MAX_REPLAY + 1)
    .prepare('events_missed');

  // The same gap for everyone, with each event's audience: a reconnection storm's tabs mostly lost
  // their connection at one moment, so they share a cursor and one read of what came after it.
  const gapQuery = db
    .select({
      id: events.id,
      type: events.type,
      data: events.data,
      createdAt: events.createdAt,
      audience: events.audience,
    })
    .from(events)
    .where(or(gt(events.id, afterId), lateCommit))
    .orderBy(asc(events.id))
    .limit(SHARED_GAP_LIMIT + 1)
    .prepare('events_after_cursor');
  const toEvent = (row: { id: number; type: string; data: unknown; createdAt: Date }): LiveEvent => ({
    id: row.id,
    type: row.type as LiveEventType,
    at: row.createdAt.toISOString(),
    data: row.data as LiveEvent['data'],
  });

  /**
   * The gap after each cursor, read once and indexed by room, so each socket collects the events of
   * its own rooms without scanning everyone's; undefined when it is too large to share.
   */
  const gapAfter = batchLoader(async (cursors: number[]) => {
    const found = new Map<number, Map<string, LiveEvent[]> | undefined>();
    for (const after of cursors) {
      const rows = await gapQuery.execute({ after });
      if (rows.length > SHARED_GAP_LIMIT) {
        found.set(after, undefined);
        continue;
      }
      const byRoom = new Map<string, LiveEvent[]>();
      for (const row of rows) {
        const event = toEvent(row);
        for (const room of row.audience) {
          const list = byRoom.get(room);
          if (list) list.push(event);
          else byRoom.set(room, [event]);
        }
      }
      found.set(after, byRoom);
    }
    return found;
  });

  const service = {
    /** The newest event id (0 before the first): where a tab that loads its data after now starts. */
    head: async (): Promise<number> => (await bounds()).max,

    /**
     * What a socket missed after `after`, for a caller whose rooms the handshake just read (their
     * user room and their active courses' rooms): the same answer as `after`, but sockets asking
     * from one cursor in the same turn share one read of the whole gap, filtered here by audience.
     * A gap too large to share is read for this caller alone.
     */
    async forSocket(caller: Caller, after: number, rooms: readonly string[]): Promise<Replay> {
      const { min, max } = await bounds();
      if (after > max || (min !== null && after < min - 1)) return { resync: true, events: [], lastId: max };
      // Ids grow by one per event (late commits aside): a gap this long is not worth reading whole.
      if (max - after > SHARED_GAP_LIMIT) return service.after(caller, after);
      const byRoom = await gapAfter(after);
      if (!byRoom) return service.after(caller, after);
      const own = [userRoom(caller.userId), ...rooms.filter((r) => r.startsWith('course:'))];
      const mine = new Map<number, LiveEvent>();
      for (const room of own) for (const event of byRoom.get(room) ?? []) mine.set(event.id, event);
      if (mine.size > MAX_REPLAY) return { resync: true, events: [], lastId: max };
      return { resync: false, lastId: max, events: [...mine.values()].sort((a, b) => a.id - b.id) };
    },

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
      return { resync: false, lastId: max, events: rows.map(toEvent) };
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
  return service;
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
