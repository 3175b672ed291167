/**
 * Runs only against the PostgreSQL server (vitest.config.ts includes it when DATABASE_URL is set):
 * PGlite runs one transaction at a time, so an Undo cannot arrive while a process is mid-send.
 */
import { ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETURN_UNDO_SECONDS, type Assignment, type ScheduledReturn } from '@classwave/shared';
import { createTestApp, openTestDatabase, type TestApp } from '../../test/support/app.js';
import { slowJobProcess } from '../../test/support/jobs.js';
import {
  createAssignment,
  createCourse,
  createStudent,
  createTeacher,
  joinCourse,
  submit,
} from '../../test/support/factories.js';
import { jobs } from '../db/schema.js';
import { RETURN_JOB_KIND, returnJobs } from './scheduled-returns.js';

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
  slowJobProcess(t, database, RETURN_JOB_KIND, returnJobs[RETURN_JOB_KIND]!, gate);

describe('Undo while the Return is being sent', () => {
  it('waits for the sending process, then answers 409 return_already_sent; the grade is the student’s', async () => {
    const [teacher, student] = [await createTeacher(t), await createStudent(t)];
    const course = await createCourse(t, teacher);
    await joinCourse(t, student, course);
    const assignment = await createAssignment(t, teacher, course, { maxPoints: 23 });
    await t.app.inject({
      method: 'PATCH',
      url: `/api/assignments/${assignment.id}`,
      headers: teacher.headers,
      payload: { gradeRelease: 'manual' },
    });
    const own = await submit(t, student, assignment);
    await t.app.inject({
      method: 'PATCH',
      url: `/api/submissions/${own.id}`,
      headers: teacher.headers,
      payload: { grade: 17, baseVersion: 0 },
    });
    const scheduled = (
      await t.app.inject({
        method: 'POST',
        url: `/api/assignments/${assignment.id}/return`,
        headers: teacher.headers,
        payload: { undoable: true },
      })
    ).json<ScheduledReturn>();
    t.clock.advance(RETURN_UNDO_SECONDS * 1000);
    // Only this Return is due: the other jobs (retention, reminders) are out of the way.
    await database.db
      .update(jobs)
      .set({ runAt: new Date(t.clock.now().getTime() + 1000 * 3600_000) })
      .where(ne(jobs.kind, RETURN_JOB_KIND));

    let open!: () => void;
    const slow = slowProcess(new Promise<void>((resolve) => (open = resolve)));
    const sending = slow.runner.runOne();
    await slow.running;
    let answered = false;
    const undo = t.app
      .inject({ method: 'DELETE', url: `/api/returns/${scheduled.id}`, headers: teacher.headers })
      .finally(() => (answered = true));
    await new Promise((r) => setTimeout(r, 300));
    expect(answered).toBe(false);
    open();
    expect(await sending).toBe(true);
    const res = await undo;
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'return_already_sent' });
    const mine = (await t.app.inject({ method: 'GET', url: '/api/assignments', headers: student.headers }))
      .json<Assignment[]>()
      .find((a) => a.id === assignment.id);
    expect(mine).toMatchObject({ status: 'returned', submission: { grade: 17 } });
  });
});
