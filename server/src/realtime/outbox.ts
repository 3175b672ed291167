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
          // One statement takes the lock and inserts, so the locked section is this statement and
          // the COMMIT: no round trip to the app while other writers wait.
          const at = clock.now();
          const result = (await tx.execute(sql`
            insert into ${events} (type, data, audience, created_at)
            select e.item ->> 'type', e.item -> 'data',
              array(select jsonb_array_elements_text(e.item -> 'audience')),
              ${at.toISOString()}::timestamptz
            from (select pg_advisory_xact_lock(${EVENT_ORDER_LOCK})) as ordered,
              jsonb_array_elements(${JSON.stringify(pending)}::jsonb) with ordinality as e(item, n)
            order by e.n
            returning id::text as id`)) as unknown as { rows: Array<{ id: string }> };
          // Identity values are handed out in row order, so ascending ids follow `pending`'s order.
          const ids = result.rows.map((row) => Number(row.id)).sort((a, b) => a - b);
          stored = pending.map((e, i) => ({
            id: ids[i]!,
            type: e.type,
            at: at.toISOString(),
            data: e.data as LiveEvent['data'],
            audience: e.audience,
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
