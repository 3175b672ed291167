import type { LiveEvent, LiveEventData, LiveEventType } from '@classwave/shared';
import type { Clock } from '../clock.js';
import type { Db, Tx } from '../db/client.js';
import type { AudiencedEvent, CommittedLive, DomainEventBus, PendingEvent, RecordEvent } from '../events.js';
import { resolveMemberRooms } from './member-rooms.js';
import { resolveAssigneeRooms } from './assignee-rooms.js';
import { insertEvents } from './teacher-rooms.js';

/** What a rule sees of the transaction that recorded an event. */
export interface RuleContext {
  tx: Tx;
  /** Records more events, written with the one that triggered the rule. */
  record: RecordEvent;
  now: Date;
  /** The rooms the triggering event goes to. */
  audience: string[];
}
type Rule<T extends LiveEventType> = (data: LiveEventData[T], context: RuleContext) => Promise<void>;
/** Work done inside the transaction of a change, keyed by the type of event it recorded. */
export type OutboxRules = { [T in LiveEventType]?: Rule<T> };

/**
 * Transactions that report what they change. Events recorded during the work are written in the
 * same transaction, at its very end, and published on the bus only after the commit. Writers do
 * not wait for each other: ids are handed out at insert, so one can commit after a larger id, and
 * each event keeps its transaction id and the set of transactions still running when it was
 * written (its snapshot), from which a replay finds such late commits (replay.ts). An earlier
 * version serialised every write behind one lock held through COMMIT; bench S2 showed it capped
 * writes at one disk flush each.
 *
 * Modules add rules (`rules`): work that must commit with the change or not at all, such as the
 * notifications derived from it (DESIGN §14); the events those rules record are written alongside.
 */
export function createOutbox({ db, bus, clock }: { db: Db; bus: DomainEventBus; clock: Clock }) {
  const ruleSets: OutboxRules[] = [];
  /** Which module added each of `ruleSets`. */
  const owners: string[] = [];

  /** Runs every module's rules for each pending event; returns the events they recorded. */
  async function derive(tx: Tx, pending: readonly PendingEvent[]): Promise<PendingEvent[]> {
    const derived: PendingEvent[] = [];
    const record: RecordEvent = (type, data, audience) => void derived.push({ type, data, audience });
    const now = clock.now();
    for (const event of pending.filter((e) => !e.derived))
      for (const rules of ruleSets) {
        const rule = rules[event.type] as Rule<LiveEventType> | undefined;
        if (rule)
          await rule(event.data as LiveEventData[LiveEventType], {
            tx,
            record,
            now,
            audience: event.audience,
          });
      }
    return derived;
  }

  return {
    /** Adds `owner`'s (a module's) rules; rules of one event type run in the order their modules were set up. */
    rules(owner: string, rules: OutboxRules): void {
      ruleSets.push(rules);
      owners.push(owner);
    },

    /** The modules with a rule for `type`, in the order their rules run. */
    rulesOf(type: LiveEventType): string[] {
      return owners.filter((_, i) => ruleSets[i]![type] !== undefined);
    },

    async transaction<R>(work: (tx: Tx, record: RecordEvent) => Promise<R>): Promise<R> {
      const pending: PendingEvent[] = [];
      const record: RecordEvent = (type, data, audience, options) =>
        void pending.push({ type, data, audience, ...(options?.derived ? { derived: true as const } : {}) });
      let stored: Array<{ event: AudiencedEvent; derived: boolean }> = [];
      const result = await db.transaction(async (tx) => {
        const value = await work(tx, record);
        await resolveMemberRooms(tx, pending);
        if (ruleSets.length > 0 && pending.length > 0) pending.push(...(await derive(tx, pending)));
        // The rules read "the assignment's students" as recorded; the stored audience names them.
        await resolveAssigneeRooms(tx, pending);
        // Co-teachers' rooms are resolved as the events are written, after the rules (which read the
        // audience as recorded and may record more for the teachers).
        if (pending.length > 0) {
          const at = clock.now();
          const rows = await insertEvents(tx, pending, at);
          stored = pending.map((e, i) => ({
            event: {
              id: rows[i]!.id,
              type: e.type,
              at: at.toISOString(),
              data: e.data as LiveEvent['data'],
              audience: rows[i]!.audience,
            },
            derived: e.derived === true,
          }));
        }
        return value;
      });
      await announce(stored);
      return result;
    },

    /**
     * Sends events that a write inserted in its own statement, that statement being its whole
     * transaction (autocommit: it has committed when its rows come back), as `transaction` sends
     * its own: one round trip where BEGIN, the write, the events and COMMIT were four (issue 27: a
     * post's latency at a class of 30 was its write's). Only for types no module has a rule for
     * (`rulesOf`): the rules run in the change's transaction, which such a write does not open.
     */
    async committed(events: readonly AudiencedEvent[]): Promise<void> {
      const ruled = events.find((e) => ruleSets.some((rules) => rules[e.type] !== undefined));
      if (ruled) throw new Error(`${ruled.type} has outbox rules: record it in outbox.transaction`);
      await announce(events.map((event) => ({ event, derived: false })));
    },
  };

  /** Committed events to their audience and the bus's other subscribers, then what they hold. */
  async function announce(stored: ReadonlyArray<{ event: AudiencedEvent; derived: boolean }>) {
    if (stored.length === 0) return;
    const held: Promise<unknown>[] = [];
    const hold = (work: Promise<unknown>) => void held.push(work);
    for (const { event, derived } of stored)
      bus.emit('live', event, { hold, derived } satisfies CommittedLive);
    // Awaited: a new assignment's inbox rows then do not run under the next write's event. Tried
    // without (the teacher's answer for a class of 5,000 went from 370 ms to a few ms): in the
    // same run S3's event p99 went from 0.95x to 2.3x bare socket.io at 5,000 members. What is
    // held logs its own failures: the change has committed, and its answer stands.
    if (held.length > 0) await Promise.allSettled(held);
  }
}
export type Outbox = ReturnType<typeof createOutbox>;
