import { sql } from 'drizzle-orm';
import type { LiveEvent, LiveEventData, LiveEventType } from '@classwave/shared';
import type { Clock } from '../clock.js';
import type { Db, Tx } from '../db/client.js';
import { events } from '../db/schema.js';
import type { DomainEventBus } from '../events.js';

/** A stored event with the rooms that may see it. */
export type AudiencedEvent = LiveEvent & { audience: string[] };

export type RecordEvent = <T extends LiveEventType>(
  type: T,
  data: LiveEventData[T],
  audience: string[],
) => void;

/** Any fixed number: serialises event inserts so their ids grow in commit order. */
const EVENT_ORDER_LOCK = 727_274_002;

/**
 * Transactions that report what they change. Events recorded during the work are written in the
 * same transaction, at its very end, under a transaction-level advisory lock: ids are then handed
 * out in commit order, so a client replaying "after id N" can never miss an event that committed
 * late with a smaller id. They are published on the bus only after the commit.
 */
export function createOutbox({ db, bus, clock }: { db: Db; bus: DomainEventBus; clock: Clock }) {
  return {
    async transaction<R>(work: (tx: Tx, record: RecordEvent) => Promise<R>): Promise<R> {
      const pending: Array<{ type: LiveEventType; data: unknown; audience: string[] }> = [];
      const record: RecordEvent = (type, data, audience) => void pending.push({ type, data, audience });
      let stored: AudiencedEvent[] = [];
      const result = await db.transaction(async (tx) => {
        const value = await work(tx, record);
        if (pending.length > 0) {
          await tx.execute(sql`select pg_advisory_xact_lock(${EVENT_ORDER_LOCK})`);
          const at = clock.now();
          const rows = await tx
            .insert(events)
            .values(pending.map((e) => ({ type: e.type, data: e.data, audience: e.audience, createdAt: at })))
            .returning();
          stored = rows.map((row) => ({
            id: row.id,
            type: row.type as LiveEventType,
            at: row.createdAt.toISOString(),
            data: row.data as LiveEvent['data'],
            audience: row.audience,
          }));
        }
        return value;
      });
      for (const event of stored) bus.emit('live', event);
      return result;
    },
  };
}
export type Outbox = ReturnType<typeof createOutbox>;
