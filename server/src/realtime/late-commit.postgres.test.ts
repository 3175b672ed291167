/**
 * Runs only against the PostgreSQL server (vitest.config.ts includes it when DATABASE_URL is set):
 * PGlite runs one transaction at a time, so nothing can commit out of id order there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveEvent } from '@classwave/shared';
import { events } from '../db/schema.js';
import { userRoom } from './rooms.js';
import { createTestApp, openTestDatabase, type TestApp } from '../../test/support/app.js';
import { createStudent, type Actor } from '../../test/support/factories.js';

let database: Awaited<ReturnType<typeof openTestDatabase>>;
let t: TestApp;
let student: Actor;

beforeAll(async () => {
  database = await openTestDatabase();
  t = await createTestApp({ database });
  student = await createStudent(t);
});
afterAll(async () => {
  await t.close();
  await database.dispose();
});

/** Writes one event for the student, as the outbox does, in a transaction of its own. */
function writeEvent(title: string, holdOpen?: Promise<void>): Promise<number> {
  return database.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(events)
      .values({
        type: 'course:created',
        data: { title },
        audience: [userRoom(student.id)],
        createdAt: t.clock.now(),
      })
      .returning({ id: events.id });
    await holdOpen;
    return row!.id;
  });
}

async function replayAfter(id: number): Promise<number[]> {
  const res = await t.app.inject({ method: 'GET', url: `/api/events?after=${id}`, headers: student.headers });
  expect(res.statusCode).toBe(200);
  return res.json().events.map((e: LiveEvent) => e.id);
}

describe('an event that commits after one with a larger id', () => {
  it('is replayed to a client whose last event was the larger one, and nothing older is', async () => {
    const before = await writeEvent('Committed long before');
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = writeEvent('Slow to commit', gate);
    // Let the slow transaction take its id before the quick one does.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const quick = await writeEvent('Quick');

    // The client saw `quick` live and left; the slow one has not committed yet.
    expect(await replayAfter(quick)).toEqual([]);
    release();
    const slowId = await slow;
    expect(slowId).toBeGreaterThan(before);
    expect(slowId).toBeLessThan(quick);
    // Back again from `quick`: the late commit is there, the long-committed event is not.
    expect(await replayAfter(quick)).toEqual([slowId]);
    expect(await replayAfter(before)).toEqual([slowId, quick]);
  });
});
