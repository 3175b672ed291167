import type { LiveEvent, MissedEvents } from '@classwave/shared';
import { describe, expect, it } from 'vitest';
import { createCatchUp } from './catchUp';
import { EventCursor } from './cursor';

const event = (id: number): LiveEvent =>
  ({ id, type: 'course:deleted', at: new Date(0).toISOString(), data: { id: `c${id}` } }) as LiveEvent;
const missed = (lastId: number, ids: number[] = []): MissedEvents => ({
  resync: false,
  lastId,
  events: ids.map(event),
});

function setUp(liveFrom: number | null = null) {
  const cursor = new EventCursor();
  const applied: number[] = [];
  let refetches = 0;
  const apply = (e: LiveEvent) => {
    if (cursor.accept(e.id)) applied.push(e.id);
  };
  const catchUp = createCatchUp({ cursor, apply, refetchAll: () => refetches++, liveFrom });
  return { catchUp, applied, live: (id: number) => apply(event(id)), refetches: () => refetches };
}

describe('catching up over the socket', () => {
  it('sends no cursor on the first handshake, then the last id applied on every later one', () => {
    const t = setUp();
    expect(t.catchUp.auth('tok-1')).toEqual({ token: 'tok-1' });
    t.catchUp.onMissed(missed(3));
    expect(t.catchUp.auth('tok-1')).toEqual({ token: 'tok-1', after: 3 });
    t.live(4);
    t.live(5);
    // A refreshed token and the cursor as they are at this handshake.
    expect(t.catchUp.auth('tok-2')).toEqual({ token: 'tok-2', after: 5 });
  });

  it('refetches what is shown after the first connect, then applies what was missed, each event once', () => {
    const t = setUp();
    t.catchUp.onMissed(missed(10));
    expect(t.refetches()).toBe(1);
    t.live(11);
    // Reconnected: the server replays from 11 (an overlap is dropped by id), then live events follow.
    t.catchUp.onMissed(missed(14, [11, 12, 13]));
    t.live(14);
    t.live(13);
    expect(t.applied).toEqual([11, 12, 13, 14]);
    expect(t.refetches()).toBe(1);
    expect(t.catchUp.auth('tok')).toEqual({ token: 'tok', after: 14 });
  });

  it('refetches without applying when the server answers resync, and carries on from its head', () => {
    const t = setUp();
    t.catchUp.onMissed(missed(3));
    t.catchUp.onMissed({ resync: true, lastId: 900, events: [] });
    expect(t.refetches()).toBe(2);
    expect(t.applied).toEqual([]);
    expect(t.catchUp.auth('tok')).toEqual({ token: 'tok', after: 900 });
  });

  it('asks again from the same id when a connection was lost before its catch-up arrived', () => {
    const t = setUp();
    t.catchUp.onMissed(missed(7));
    t.live(8);
    const first = t.catchUp.auth('tok');
    // The connection dropped before events:missed: nothing live came on it either (the server holds
    // live events until its replay is sent), so the next handshake names the same id.
    expect(t.catchUp.auth('tok')).toEqual(first);
    expect(first).toEqual({ token: 'tok', after: 8 });
  });

  it("starts from the session answer's liveFrom, and refetches nothing when nothing changed since", () => {
    const t = setUp(40);
    expect(t.catchUp.auth('tok')).toEqual({ token: 'tok', after: 40 });
    t.catchUp.onMissed(missed(52));
    expect(t.refetches()).toBe(0);
    expect(t.catchUp.auth('tok')).toEqual({ token: 'tok', after: 52 });
  });

  it('refetches, without applying, when something changed between liveFrom and the first connect', () => {
    const t = setUp(40);
    // The data fetched after liveFrom may already show event 41: applied on top, a count would double.
    t.catchUp.onMissed(missed(41, [41]));
    expect(t.refetches()).toBe(1);
    expect(t.applied).toEqual([]);
    const resynced = setUp(40);
    resynced.catchUp.onMissed({ resync: true, lastId: 9000, events: [] });
    expect(resynced.refetches()).toBe(1);
    // Later connections catch up by applying, as without liveFrom.
    t.catchUp.onMissed(missed(43, [42, 43]));
    expect(t.applied).toEqual([42, 43]);
    expect(t.refetches()).toBe(1);
  });
});
