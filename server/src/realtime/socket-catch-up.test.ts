import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LIVE_EVENT_TYPES,
  type Course,
  type LiveEvent,
  type MissedEvents,
  type SocketAuth,
} from '@classwave/shared';
import { io as connectClient } from 'socket.io-client';
import {
  bearer,
  createTestApp,
  PASSWORD,
  refreshCookieOf,
  signIn,
  type TestApp,
} from '../../test/support/app.js';
import {
  createAssignment,
  createCourse,
  createStudent,
  createTeacher,
  joinCourse,
  type Actor,
} from '../../test/support/factories.js';
import { connect, disconnected, listen, record, type Recorder } from '../../test/support/sockets.js';
import type { Replay } from './replay.js';

/**
 * Catch-up over the socket (DESIGN §8): the handshake carries the last id a tab applied, and the
 * server sends `events:missed` (by the replay's rules) before any live event on that connection,
 * with no gap and nothing twice between the two. Real socket.io-client connections to the real app.
 */
let t: TestApp;
let url: string;
let teacher: Actor;
let ada: Actor;
let ben: Actor;
let course: Course;
const open: Recorder[] = [];

beforeAll(async () => {
  t = await createTestApp();
  url = await listen(t.app);
  [teacher, ada, ben] = await Promise.all([
    createTeacher(t, 'Teacher'),
    createStudent(t, 'Ada'),
    createStudent(t, 'Ben'),
  ]);
  course = await createCourse(t, teacher);
  await joinCourse(t, ada, course);
});
afterAll(async () => {
  open.forEach((r) => r.close());
  await t.close();
});

/** A tab like the app's: `auth` is a function, so every reconnect sends the current cursor. */
function tab(actor: Actor) {
  let lastId: number | null = null;
  const socket = connectClient(url, {
    path: '/socket.io',
    transports: ['websocket'],
    forceNew: true,
    reconnectionDelay: 50,
    reconnectionDelayMax: 100,
    auth: (send) =>
      send((lastId === null ? { token: actor.token } : { token: actor.token, after: lastId }) as SocketAuth),
  });
  const r = record(socket);
  open.push(r);
  const move = (id: number) => (lastId = lastId === null ? id : Math.max(lastId, id));
  socket.on('events:missed', (m: MissedEvents) => {
    m.events.forEach((e) => move(e.id));
    move(m.lastId);
  });
  socket.onAny((name: string, payload: { id: number }) => {
    if ((LIVE_EVENT_TYPES as readonly string[]).includes(name)) move(payload.id);
  });
  return { r, socket, cursor: () => lastId };
}

const nextMissed = (r: Recorder, count: number) =>
  r.waitForHeard(() => r.missed.length >= count).then(() => r.missed[count - 1]!);
/** Where the `events:missed` of the n-th connect sits among everything the socket heard. */
const missedAt = (r: Recorder, n: number) =>
  r.heard.map((h, i) => (h.name === 'events:missed' ? i : -1)).filter((i) => i >= 0)[n - 1]!;
const assignmentIdOf = (e: LiveEvent) =>
  e.type === 'assignment:created'
    ? (e.data as { id: string }).id
    : (e.data as { assignmentId?: string }).assignmentId;

describe('catching up over the socket', () => {
  it('sends exactly the missed events, in order, before any live one', async () => {
    const { r, socket, cursor } = tab(ada);
    const first = await nextMissed(r, 1);
    // A first connect (no cursor): nothing to replay, only where the stream is.
    expect(first).toMatchObject({ resync: false, events: [] });
    expect(cursor()).toBe(first.lastId);

    socket.disconnect();
    const missed: string[] = [];
    for (let i = 0; i < 5; i++)
      missed.push((await createAssignment(t, teacher, course, { title: `Away ${i}` })).id);
    socket.connect(); // the handshake sends the cursor as it is now
    const second = await nextMissed(r, 2);
    expect(second.resync).toBe(false);
    // Each assignment once, in order, ids growing.
    expect(second.events.map((e) => e.type)).toEqual(missed.map(() => 'assignment:created'));
    expect(second.events.map(assignmentIdOf)).toEqual(missed);
    const ids = second.events.map((e) => e.id);
    expect(ids.every((id) => id > first.lastId)).toBe(true);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    expect(second.lastId).toBeGreaterThanOrEqual(ids.at(-1)!);

    const live = await createAssignment(t, teacher, course, { title: 'Live after' });
    await r.waitFor((e) => e.type === 'assignment:created' && assignmentIdOf(e) === live.id);
    // Nothing live arrived before the replay on the second connection, and nothing replayed came live.
    const liveHeard = r.heard.slice(missedAt(r, 2) + 1).map((h) => (h.args[0] as LiveEvent).id);
    expect(liveHeard.every((id) => id > second.lastId)).toBe(true);
    expect(r.events.filter((e) => ids.includes(e.id))).toEqual([]);
    socket.disconnect();
  });

  it("starts from a session answer's liveFrom: nothing when nothing of the user's changed since, else what did", async () => {
    const signin = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signin',
      payload: { email: ada.email, password: PASSWORD },
    });
    const { session, liveFrom } = signin.json<{ session: { accessToken: string }; liveFrom: number }>();
    // Someone else's news after it: another course, which Ada is not in.
    const elsewhere = await createCourse(t, teacher, { title: 'Not Ada’s' });
    await createAssignment(t, teacher, elsewhere, { title: 'Not for Ada' });
    const quiet = await connect(url, session.accessToken, {
      auth: { token: session.accessToken, after: liveFrom },
    });
    open.push(quiet);
    expect(quiet.missed[0]).toMatchObject({ resync: false, events: [] });
    expect(quiet.missed[0]!.lastId).toBeGreaterThan(liveFrom);

    // A refresh's answer carries it too; news for Ada after it is what the next socket hears.
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      headers: { cookie: refreshCookieOf(signin) },
    });
    const again = refreshed.json<{ session: { accessToken: string }; liveFrom: number }>();
    expect(again.liveFrom).toBe(quiet.missed[0]!.lastId);
    const news = await createAssignment(t, teacher, course, { title: 'For Ada, after the refresh' });
    const heard = await connect(url, again.session.accessToken, {
      auth: { token: again.session.accessToken, after: again.liveFrom },
    });
    open.push(heard);
    expect(heard.missed[0]!.events.map(assignmentIdOf)).toEqual([news.id]);
  });

  it('delivers an event written while the replay is read exactly once, after the replay', async () => {
    const { r, socket } = tab(ada);
    await nextMissed(r, 1);
    socket.disconnect();
    await createAssignment(t, teacher, course, { title: 'Before' });

    // The real replay, with writes around its read (the race of a busy server, made certain): one
    // commits before the read (so it is both replayed and published live to the held socket), one
    // after it (published live only).
    const replay = t.app.core.replay as {
      forSocket: (...args: Parameters<typeof t.app.core.replay.forSocket>) => Promise<Replay>;
    };
    const original = replay.forSocket;
    const during: string[] = [];
    replay.forSocket = async (caller, after, rooms) => {
      if (caller.userId !== ada.id) return original(caller, after, rooms);
      replay.forSocket = original;
      during.push((await createAssignment(t, teacher, course, { title: 'During, before the read' })).id);
      const result = await original(caller, after, rooms);
      during.push((await createAssignment(t, teacher, course, { title: 'During, after the read' })).id);
      return result;
    };
    try {
      socket.connect();
      const missed = await nextMissed(r, 2);
      await r.waitFor((e) => e.type === 'assignment:created' && assignmentIdOf(e) === during[1]);
      const replayed = missed.events.map(assignmentIdOf);
      expect(replayed).toContain(during[0]);
      expect(replayed).not.toContain(during[1]);
      // Every event id reached the tab once: in the replay or live, never both, never twice.
      const afterConnect = r.heard.slice(missedAt(r, 2) + 1).map((h) => (h.args[0] as LiveEvent).id);
      const all = [...missed.events.map((e) => e.id), ...afterConnect];
      expect(new Set(all).size).toBe(all.length);
      expect(afterConnect.length).toBe(1); // the second write's assignment
      // Nothing of the second connection came before its replay.
      expect(r.heard.slice(missedAt(r, 1) + 1, missedAt(r, 2))).toEqual([]);
    } finally {
      replay.forSocket = original;
      socket.disconnect();
    }
  });

  it("replays only the caller's own rooms: a student outside the course hears nothing of it", async () => {
    const { r, socket } = tab(ben);
    await nextMissed(r, 1);
    socket.disconnect();
    const theirs = await createAssignment(t, teacher, course, { title: 'Not for Ben' });
    socket.connect();
    const missed = await nextMissed(r, 2);
    expect(missed.events.filter((e) => assignmentIdOf(e) === theirs.id)).toEqual([]);
    expect(missed.events.filter((e) => e.type.startsWith('assignment:'))).toEqual([]);
    socket.disconnect();
  });

  it('reconnects and asks again from the same id when the replay cannot be read', async () => {
    const { r, socket } = tab(ada);
    const first = await nextMissed(r, 1);
    socket.disconnect();
    const away = await createAssignment(t, teacher, course, { title: 'While the database hiccups' });
    const replay = t.app.core.replay as {
      forSocket: (...args: Parameters<typeof t.app.core.replay.forSocket>) => Promise<Replay>;
    };
    const original = replay.forSocket;
    const asked: number[] = [];
    replay.forSocket = async (caller, after, rooms) => {
      if (caller.userId !== ada.id) return original(caller, after, rooms);
      asked.push(after);
      if (asked.length === 1) {
        // Something live for the socket meanwhile: it must not reach the tab ahead of its gap.
        await createAssignment(t, teacher, course, { title: 'Held, then dropped' });
        throw new Error('connection terminated');
      }
      return original(caller, after, rooms);
    };
    try {
      socket.connect();
      const missed = await nextMissed(r, 2);
      expect(asked).toEqual([first.lastId, first.lastId]);
      expect(missed.events.map(assignmentIdOf)).toContain(away.id);
      expect(r.heard.slice(missedAt(r, 1) + 1, missedAt(r, 2))).toEqual([]);
    } finally {
      replay.forSocket = original;
      socket.disconnect();
    }
  });
});

describe('cursors the server cannot use', () => {
  const missedWith = async (auth: Record<string, unknown>): Promise<MissedEvents> => {
    const r = await connect(url, undefined, { auth: { token: ada.token, ...auth } });
    open.push(r);
    r.close();
    return r.missed[0]!;
  };

  it.each([
    ['negative', -1],
    ['fractional', 1.5],
    ['beyond 2^53', Number.MAX_SAFE_INTEGER + 2],
    ['huge', 1e300],
    ['a numeric string', '12'],
    ['a string', 'latest'],
    ['an object', { $gt: 0 }],
    ['an array', [1]],
    ['a boolean', true],
  ])('answers a %s cursor with resync, and stays up', async (_name, after) => {
    const missed = await missedWith({ after });
    expect(missed).toMatchObject({ resync: true, events: [] });
    expect(Number.isSafeInteger(missed.lastId)).toBe(true);
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
  });

  it('answers a cursor beyond the newest id with resync, and none (or null) with the head', async () => {
    const head = (await missedWith({})).lastId;
    expect(await missedWith({ after: head + 1000 })).toMatchObject({ resync: true, events: [] });
    expect(await missedWith({ after: null })).toEqual({ resync: false, events: [], lastId: head });
    expect(await missedWith({ after: head })).toEqual({ resync: false, events: [], lastId: head });
  });

  it('answers a gap older than what is kept with resync', async () => {
    // An app of its own: moving its clock two days would expire every other test's tokens.
    const aged = await createTestApp();
    try {
      const agedUrl = await listen(aged.app);
      const [owner, student] = await Promise.all([createTeacher(aged), createStudent(aged)]);
      const agedCourse = await createCourse(aged, owner);
      await joinCourse(aged, student, agedCourse);
      const head = (
        await aged.app.inject({ method: 'GET', url: '/api/events', headers: student.headers })
      ).json<{
        lastId: number;
      }>().lastId;
      await createAssignment(aged, owner, agedCourse);
      aged.clock.advance(48 * 3600 * 1000);
      const fresh = await signIn(aged, owner.email);
      await aged.app.inject({
        method: 'POST',
        url: '/api/assignments',
        headers: bearer(fresh.accessToken),
        payload: {
          title: 'New',
          dueDate: new Date(aged.clock.now().getTime() + 86_400_000).toISOString(),
          courseId: agedCourse.id,
        },
      });
      expect(await aged.app.core.replay.prune()).toBeGreaterThan(0);
      const token = (await signIn(aged, student.email)).accessToken;
      const r = await connect(agedUrl, undefined, { auth: { token, after: head } });
      expect(r.missed).toMatchObject([{ resync: true, events: [] }]);
      r.close();
      await disconnected(r.socket);
    } finally {
      await aged.close();
    }
  });
});
