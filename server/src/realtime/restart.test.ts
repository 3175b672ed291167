import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveEvent } from '@classwave/shared';
import { io as connectClient } from 'socket.io-client';
import { createTestApp, openTestDatabase, type TestApp } from '../test/app.js';
import {
  createAssignment,
  createCourse,
  joinCourse,
  createStudent,
  createTeacher,
  type Actor,
} from '../test/factories.js';
import { listen, record } from '../test/sockets.js';

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
    const socket = connectClient(url, {
      transports: ['websocket'],
      auth: { token: student.token },
      reconnectionDelay: 100,
      reconnectionDelayMax: 200,
    });
    const tab = record(socket);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const course = await createCourse(first, teacher);
    await joinCourse(first, student, course);
    const seen = await tab.waitFor(
      (e) => e.type === 'member:joined' && (e.data as { course: { id: string } }).course.id === course.id,
    );
    let lastId = seen.id;

    // The server stops; the tab keeps trying to reconnect.
    await first.close();
    const second = await createTestApp({ database });
    const missed: string[] = [];
    for (let i = 0; i < 20; i++)
      missed.push((await createAssignment(second, teacher, course, { title: `While away ${i}` })).id);

    // The new process comes up on the same address; the tab reconnects by itself and asks what it missed.
    const reconnected = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    await second.app.listen({ port, host: '127.0.0.1' });
    await reconnected;
    const replay = await second.app.inject({
      method: 'GET',
      url: `/api/events?after=${lastId}`,
      headers: student.headers,
    });
    expect(replay.statusCode).toBe(200);
    const events: LiveEvent[] = replay.json().events;
    expect(events.map((e) => (e.data as { id: string }).id)).toEqual(missed);
    expect(new Set(events.map((e) => e.id)).size).toBe(20);
    lastId = replay.json().lastId;

    const live = await createAssignment(second, teacher, course, { title: 'After the restart' });
    const arrived = await tab.waitFor((e) => (e.data as { id: string }).id === live.id);
    expect(arrived.id).toBeGreaterThan(lastId - 1);
    socket.disconnect();
    await second.close();
  });
});
