import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveEvent, MissedEvents } from '@classwave/shared';
import { io as connectClient } from 'socket.io-client';
import { createTestApp, openTestDatabase, type TestApp } from '../../test/support/app.js';
import {
  createAssignment,
  createCourse,
  joinCourse,
  createStudent,
  createTeacher,
  type Actor,
} from '../../test/support/factories.js';
import { listen, record } from '../../test/support/sockets.js';

/**
 * A student's tab is connected, the server goes away, 20 assignments are created meanwhile (on the
 * next server process, over the same database), and the tab comes back: it catches up on exactly
 * those 20, in order, and keeps receiving live events on the new process.
 */
let first: TestApp;
let database: Awaited<ReturnType<typeof openTestDatabase>>;
let teacher: Actor;
let student: Actor;

beforeAll(async () => {
  database = await openTestDatabase();
  first = await createTestApp({ database });
  [teacher, student] = await Promise.all([createTeacher(first), createStudent(first)]);
});
afterAll(() => database.dispose());

describe('catching up across a server restart', () => {
  it('replays the 20 events missed while the server was down, exactly once, then carries on live', async () => {
    const url = await listen(first.app);
    const port = Number(new URL(url).port);
    // Like the app's tab: every handshake sends the last id it applied (DESIGN §8).
    let applied: number | null = null;
    const socket = connectClient(url, {
      transports: ['websocket'],
      auth: (send) =>
        send(applied === null ? { token: student.token } : { token: student.token, after: applied }),
      reconnectionDelay: 100,
      reconnectionDelayMax: 200,
    });
    const tab = record(socket);
    await new Promise((resolve) => socket.once('events:missed', resolve));
    const course = await createCourse(first, teacher);
    await joinCourse(first, student, course);
    const seen = await tab.waitFor(
      (e) => e.type === 'member:joined' && (e.data as { course: { id: string } }).course.id === course.id,
    );
    applied = seen.id;

    // The server stops; the tab keeps trying to reconnect.
    await first.close();
    const second = await createTestApp({ database });
    const missed: string[] = [];
    for (let i = 0; i < 20; i++)
      missed.push((await createAssignment(second, teacher, course, { title: `While away ${i}` })).id);

    // The new process comes up on the same address; the tab reconnects by itself, its handshake
    // saying where it stopped, and the server sends what it missed before anything live.
    const caughtUp = new Promise<MissedEvents>((resolve) => socket.once('events:missed', resolve));
    await second.app.listen({ port, host: '127.0.0.1' });
    const replay = await caughtUp;
    expect(replay.resync).toBe(false);
    const events: LiveEvent[] = replay.events;
    expect(events.map((e) => e.type)).toEqual(missed.map(() => 'assignment:created'));
    expect(events.map((e) => (e.data as { id: string }).id)).toEqual(missed);
    expect(new Set(events.map((e) => e.id)).size).toBe(20);
    expect(events.every((e) => e.id > seen.id)).toBe(true);

    const live = await createAssignment(second, teacher, course, { title: 'After the restart' });
    const arrived = await tab.waitFor((e) => (e.data as { id: string }).id === live.id);
    expect(arrived.id).toBeGreaterThan(replay.lastId);
    // Nothing replayed also came live.
    expect(tab.events.filter((e) => events.some((m) => m.id === e.id))).toEqual([]);
    socket.disconnect();
    await second.close();
  });
});
