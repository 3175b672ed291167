/**
 * Runs only against the PostgreSQL server (vitest.config.ts includes it when DATABASE_URL is set):
 * PGlite runs one transaction at a time, so one process cannot be mid-run while another polls.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createTestApp, openTestDatabase, type TestApp } from '../../test/support/app.js';
import { slowJobProcess } from '../../test/support/jobs.js';
import {
  createAssignment,
  createCourse,
  createStudent,
  createTeacher,
  joinCourse,
} from '../../test/support/factories.js';
import { jobs, notifications } from '../db/schema.js';
import { notificationJobs } from './jobs.js';
import { jobKeys } from './reminders.js';

const HOUR = 3600_000;
let database: Awaited<ReturnType<typeof openTestDatabase>>;
let t: TestApp;

beforeAll(async () => {
  database = await openTestDatabase();
  t = await createTestApp({ database, env: { JOB_POLL_MS: '0' } });
});
afterAll(async () => {
  await t.close();
  await database.dispose();
});

const slowProcess = (gate: Promise<void>) =>
  slowJobProcess(t, database, 'due_soon', notificationJobs.due_soon!, gate);

async function setUp() {
  const teacher = await createTeacher(t);
  const course = await createCourse(t, teacher);
  const student = await createStudent(t);
  await joinCourse(t, student, course);
  const assignment = await createAssignment(t, teacher, course, {
    dueDate: new Date(t.clock.now().getTime() + 10 * HOUR).toISOString(),
  });
  // Due within 24 h: the reminder is due at once. Only it: the others (retention, earlier tests') are out of the way.
  await database.db.update(jobs).set({ runAt: new Date(t.clock.now().getTime() + 1000 * HOUR) });
  await database.db
    .update(jobs)
    .set({ runAt: t.clock.now() })
    .where(eq(jobs.key, jobKeys.dueSoon(assignment.id)));
  const stored = () =>
    database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, student.id), eq(notifications.kind, 'due_soon')));
  return { assignment, stored };
}

describe('a reminder being run by one process', () => {
  it('is skipped, not waited for nor doubled, by another; it is stored once the first commits', async () => {
    const { stored } = await setUp();
    let open!: () => void;
    const slow = slowProcess(new Promise<void>((resolve) => (open = resolve)));
    const first = slow.runner.runOne();
    await slow.running;
    // Mid-run: the other process finds nothing it may take, at once.
    const started = Date.now();
    expect(await t.app.core.jobs.runDue()).toBe(0);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await stored()).toEqual([]);
    open();
    expect(await first).toBe(true);
    expect(await stored()).toHaveLength(1);
    expect(await t.app.core.jobs.runDue()).toBe(0);
    expect(await stored()).toHaveLength(1);
  });

  it('is run in full by another process when the first dies before committing', async () => {
    const { assignment, stored } = await setUp();
    let kill!: (error: Error) => void;
    const slow = slowProcess(new Promise<void>((_resolve, reject) => (kill = reject)));
    const first = slow.runner.runOne();
    await slow.running;
    expect(await t.app.core.jobs.runDue()).toBe(0);
    kill(new Error('process exited'));
    await first;
    expect(await stored()).toEqual([]);
    const [job] = await database.db
      .select()
      .from(jobs)
      .where(eq(jobs.key, jobKeys.dueSoon(assignment.id)));
    expect(job).toMatchObject({ doneAt: null, attempts: 1 });
    t.clock.advance(60_000);
    expect(await t.app.core.jobs.runDue()).toBeGreaterThan(0);
    expect(await stored()).toHaveLength(1);
  });
});
