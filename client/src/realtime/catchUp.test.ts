import type { LiveEvent } from '@classwave/shared';
import { describe, expect, it } from 'vitest';
import { createCatchUp } from './catchUp';
import { EventCursor } from './cursor';
import type { ReplayResult } from './liveApi';

const event = (id: number): LiveEvent =>
  ({ id, type: 'course:deleted', at: new Date(0).toISOString(), data: { id: `c${id}` } }) as LiveEvent;

function setUp(answers: Array<ReplayResult | undefined>) {
  const cursor = new EventCursor();
  const asked: Array<number | null> = [];
  const applied: number[] = [];
  let refetches = 0;
  let connected = true;
  const catchUp = createCatchUp({
    cursor,
    fetchMissed: async (after) => {
      asked.push(after);
      return answers.shift();
    },
    isConnected: () => connected,
    apply: (e) => {
      if (cursor.accept(e.id)) applied.push(e.id);
    },
    refetchAll: () => refetches++,
    retryDelayMs: () => 1,
  });
  return {
    cursor,
    asked,
    applied,
    catchUp,
    live: (id: number) => {
      if (cursor.accept(id)) applied.push(id);
    },
    setConnected: (value: boolean) => (connected = value),
    refetches: () => refetches,
  };
}

describe('catching up after a reconnect', () => {
  it('retries a failed catch-up from where the connection was lost, though live events moved on', async () => {
    const t = setUp([
      { resync: false, events: [], lastId: 10 }, // the first connect
      undefined, // the server was restarting
      { resync: false, events: [event(11), event(12), event(13)], lastId: 13 },
    ]);
    await t.catchUp.onConnect();
    t.live(10);
    // Disconnected, 11 and 12 committed meanwhile; reconnected, and 13 arrives live at once.
    const catching = t.catchUp.onConnect();
    t.live(13);
    await catching;
    expect(t.asked).toEqual([null, 10, 10]);
    expect(t.applied.sort((a, b) => a - b)).toEqual([10, 11, 12, 13]);
  });

  it('owes the replay to the next connect when the socket drops before a try succeeds', async () => {
    const t = setUp([
      { resync: false, events: [], lastId: 5 },
      undefined,
      { resync: false, events: [event(6), event(7)], lastId: 7 },
    ]);
    await t.catchUp.onConnect();
    t.setConnected(false);
    await t.catchUp.onConnect(); // fails, and the socket is gone: no retry loop
    t.live(7); // the next connection delivers 7 live before its catch-up
    t.setConnected(true);
    await t.catchUp.onConnect();
    expect(t.asked).toEqual([null, 5, 5]);
    expect(t.applied.sort((a, b) => a - b)).toEqual([6, 7]);
  });

  it('refetches everything after the first connect and on resync, without replaying', async () => {
    const t = setUp([
      { resync: false, events: [], lastId: 3 },
      { resync: true, events: [], lastId: 900 },
      { resync: false, events: [], lastId: 900 },
    ]);
    await t.catchUp.onConnect();
    expect(t.refetches()).toBe(1);
    await t.catchUp.onConnect();
    expect(t.refetches()).toBe(2);
    await t.catchUp.onConnect();
    expect(t.asked).toEqual([null, 3, 900]);
    expect(t.refetches()).toBe(2);
  });
});
