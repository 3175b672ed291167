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

/**
 * Transactions that report what they change. Events recorded during the work are written in the
 * same transaction, at its very end, and published on the bus only after the commit. Writers do
 * not wait for each other: ids are handed out at insert, so one can commit after a larger id, and
 * each event keeps its transaction id and the set of transactions still running when it was
 * written (its snapshot), from which a replay finds such late commits (replay.ts). An earlier version serialised every write
 * behind one lock held through COMMIT; bench S2 showed it capped writes at one disk flush each.
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
          const at = clock.now();
          const rows = await tx
            .insert(events)
            .values(pending.map((e) => ({ type: e.type, data: e.data, audience: e.audience, createdAt: at })))
            .returning({ id: events.id });
          stored = pending.map((e, i) => ({
            id: rows[i]!.id,
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
