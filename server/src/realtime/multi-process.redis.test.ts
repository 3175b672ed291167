/**
 * Runs only when REDIS_URL is set (vitest.config.ts includes it then): two server instances, each
 * with its own HTTP server and socket.io, share the database and talk only through Redis.
 */
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssignmentPanel, LiveEvent, MissedEvents } from '@classwave/shared';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import {
  createAssignment,
  createCourse,
  createStudent,
  createTeacher,
  joinCourse,
  submit,
} from '../../test/support/factories.js';
import { barrier, connect, listen, openSocket, record, type Recorder } from '../../test/support/sockets.js';
import type { Replay } from './replay.js';

const redisUrl = process.env.REDIS_URL!;
let first: TestApp;
let second: TestApp;
let firstUrl: string;
let secondUrl: string;
const open: Recorder[] = [];

beforeAll(async () => {
  first = await createTestApp({ env: { REDIS_URL: redisUrl } });
  second = await createTestApp({ env: { REDIS_URL: redisUrl }, database: first.app.core.database });
  firstUrl = await listen(first.app);
  secondUrl = await listen(second.app);
});
afterAll(async () => {
  open.forEach((r) => r.close());
  await second.close();
  await first.close();
});

/**
 * The teacher's tab on one instance shows the assignment's panel; the other instance learns of it
 * through Redis (a lease), which takes a moment.
 */
async function watchPanel(teacherTab: Recorder, assignmentId: string) {
  const ack = await (teacherTab.socket as unknown as Socket)
    .timeout(3000)
    .emitWithAck('panel:watch', { assignmentId });
  expect(ack).toEqual({ ok: true });
  await new Promise((r) => setTimeout(r, 200));
}

describe('several server processes with the Redis adapter', () => {
  it('delivers a write made on one instance to sockets connected to the other, to the right audience only', async () => {
    const teacher = await createTeacher(first);
    const student = await createStudent(first, 'Remote Student');
    const bystander = await createStudent(first, 'Bystander');
    const teacherOnSecond = await connect(secondUrl, teacher.token);
    const studentOnFirst = await connect(firstUrl, student.token);
    const bystanderOnSecond = await connect(secondUrl, bystander.token);
    open.push(teacherOnSecond, studentOnFirst, bystanderOnSecond);

    const course = await createCourse(first, teacher);
    await Promise.all([joinCourse(first, student, course), joinCourse(first, bystander, course)]);
    const assignment = await createAssignment(first, teacher, course);
    await bystanderOnSecond.waitFor(
      (e) => e.type === 'assignment:created' && (e.data as { id: string }).id === assignment.id,
    );

    const submission = await submit(first, student, assignment, 'Across processes');
    const seen = await teacherOnSecond.waitFor(
      (e) => e.type === 'submission:created' && (e.data as { id: string }).id === submission.id,
    );
    expect(seen.data).toMatchObject({ content: 'Across processes' });

    // A grade given on the second instance reaches the student on the first.
    const graded = await second.app.inject({
      method: 'PATCH',
      url: `/api/submissions/${submission.id}`,
      headers: teacher.headers,
      payload: { grade: 80, baseVersion: 0 },
    });
    expect(graded.statusCode).toBe(200);
    await studentOnFirst.waitFor(
      (e) => e.type === 'submission:graded' && (e.data as { grade: number }).grade === 80,
    );

    // Then: the bystander heard nothing of the submission.
    await barrier(bystanderOnSecond);
    expect(bystanderOnSecond.events.filter((e) => e.type.startsWith('submission'))).toEqual([]);
  });

  it("moves a student's sockets on the other instance into and out of the course's room at once", async () => {
    const teacher = await createTeacher(first);
    const student = await createStudent(first, 'Moving Student');
    const [teacherOnSecond, studentOnSecond] = await Promise.all([
      connect(secondUrl, teacher.token),
      connect(secondUrl, student.token),
    ]);
    open.push(teacherOnSecond, studentOnSecond);
    const course = await createCourse(first, teacher);
    const isCreated = (id: string) => (e: { type: string; data: unknown }) =>
      e.type === 'assignment:created' && (e.data as { id: string }).id === id;

    // Joined on the first instance: the socket on the second hears the course, without reconnecting.
    await joinCourse(first, student, course);
    const heard = await createAssignment(first, teacher, course, { title: 'After joining' });
    await studentOnSecond.waitFor(isCreated(heard.id));

    // Removed on the first instance: the next event, written after the answer, never reaches it.
    const removed = await first.app.inject({
      method: 'DELETE',
      url: `/api/courses/${course.id}/members/${student.id}`,
      headers: teacher.headers,
    });
    expect(removed.statusCode).toBe(200);
    const unheard = await createAssignment(first, teacher, course, { title: 'After removal' });
    await teacherOnSecond.waitFor(isCreated(unheard.id));
    await barrier(studentOnSecond);
    expect(studentOnSecond.events.filter(isCreated(unheard.id))).toEqual([]);
    expect(studentOnSecond.events.map((e) => e.type)).toContain('member:removed');
  });

  it("counts a student's presence reported to one instance in the panel read and sent by the other", async () => {
    const teacher = await createTeacher(first);
    const student = await createStudent(first, 'Present Student');
    const course = await createCourse(first, teacher);
    await joinCourse(first, student, course);
    const assignment = await createAssignment(first, teacher, course);
    const [teacherOnSecond, studentOnFirst] = [
      await connect(secondUrl, teacher.token),
      await connect(firstUrl, student.token),
    ];
    open.push(teacherOnSecond, studentOnFirst);
    await watchPanel(teacherOnSecond, assignment.id);
    const ack = await (studentOnFirst.socket as unknown as Socket)
      .timeout(3000)
      .emitWithAck('presence:set', { assignmentId: assignment.id, state: 'writing' });
    expect(ack).toEqual({ ok: true });
    const panel = await second.app.inject({
      method: 'GET',
      url: `/api/assignments/${assignment.id}/panel`,
      headers: teacher.headers,
    });
    expect(panel.json<AssignmentPanel>().students).toEqual([
      { id: student.id, fullName: 'Present Student', state: 'writing' },
    ]);
    const heard = await teacherOnSecond.waitFor(
      (e) =>
        e.type === 'assignment:panel' &&
        (e.data as AssignmentPanel).assignmentId === assignment.id &&
        (e.data as AssignmentPanel).counts.writing === 1,
    );
    expect(heard.data).toMatchObject({ counts: { writing: 1, not_opened: 0 } });
  });

  it('counts a draft saved through one instance, with no tab open, in the panel the other sends', async () => {
    const teacher = await createTeacher(first);
    const student = await createStudent(first, 'Drafting Student');
    const course = await createCourse(first, teacher);
    await joinCourse(first, student, course);
    const assignment = await createAssignment(first, teacher, course);
    const teacherOnSecond = await connect(secondUrl, teacher.token);
    open.push(teacherOnSecond);
    await watchPanel(teacherOnSecond, assignment.id);
    const saved = await first.app.inject({
      method: 'PUT',
      url: `/api/assignments/${assignment.id}/draft`,
      headers: student.headers,
      payload: { content: 'Begun offline', baseVersion: 0 },
    });
    expect(saved.statusCode).toBe(200);
    await teacherOnSecond.waitFor(
      (e) =>
        e.type === 'assignment:panel' &&
        (e.data as AssignmentPanel).assignmentId === assignment.id &&
        (e.data as AssignmentPanel).counts.writing === 1,
    );
    const panel = await second.app.inject({
      method: 'GET',
      url: `/api/assignments/${assignment.id}/panel`,
      headers: teacher.headers,
    });
    expect(panel.json<AssignmentPanel>().students).toEqual([
      { id: student.id, fullName: 'Drafting Student', state: 'writing' },
    ]);
  });

  it('disconnects a signed-out session on every instance', async () => {
    const student = await createStudent(first);
    const onFirst = await connect(firstUrl, student.token);
    const onSecond = await connect(secondUrl, student.token);
    open.push(onFirst, onSecond);
    const ended = Promise.all(
      [onFirst, onSecond].map((r) => new Promise((resolve) => r.socket.once('disconnect', resolve))),
    );
    await first.app.inject({ method: 'POST', url: '/api/auth/signout', headers: student.headers });
    await ended;
    expect(onSecond.socket.connected).toBe(false);
  });

  it('refuses a signed-out access token on the other instance too, though it had just accepted it', async () => {
    const student = await createStudent(first);
    const me = (app: TestApp) => app.app.inject({ method: 'GET', url: '/api/me', headers: student.headers });
    // The second instance has now seen the session live (and keeps that in its session cache).
    expect((await me(second)).statusCode).toBe(200);
    const onSecond = await connect(secondUrl, student.token);
    open.push(onSecond);
    const told = new Promise((resolve) => onSecond.socket.once('disconnect', resolve));
    await first.app.inject({ method: 'POST', url: '/api/auth/signout', headers: student.headers });
    await told; // the sign-out has reached the second instance through Redis
    const refused = await me(second);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ code: 'session_ended' });
  });

  it('catches a socket up on one instance with what another wrote around its replay, each event once, none ahead', async () => {
    const teacher = await createTeacher(first);
    const student = await createStudent(first);
    const course = await createCourse(first, teacher);
    await joinCourse(first, student, course);
    const head = (await connect(secondUrl, student.token)).missed[0]!.lastId;
    await createAssignment(first, teacher, course, { title: 'While away' });
    // The real replay on the second instance, with writes on the first around its read.
    const replay = second.app.core.replay as {
      forSocket: (...a: Parameters<typeof second.app.core.replay.forSocket>) => Promise<Replay>;
    };
    const original = replay.forSocket;
    const written: string[] = [];
    replay.forSocket = async (caller, after, rooms) => {
      if (caller.userId !== student.id) return original(caller, after, rooms);
      replay.forSocket = original;
      written.push((await createAssignment(first, teacher, course, { title: 'Before the read' })).id);
      const result = await original(caller, after, rooms);
      written.push((await createAssignment(first, teacher, course, { title: 'After the read' })).id);
      return result;
    };
    try {
      const tab = record(openSocket(secondUrl, undefined, { auth: { token: student.token, after: head } }));
      open.push(tab);
      const idOf = (e: LiveEvent) =>
        (e.data as { id?: string; assignmentId?: string }).assignmentId ?? (e.data as { id: string }).id;
      await tab.waitFor((e) => e.type === 'assignment:created' && idOf(e) === written[1]);
      await barrier(tab);
      // Another write's event may come a moment later through Redis: give a late duplicate its chance.
      await new Promise((r) => setTimeout(r, 500));
      await barrier(tab);
      expect(tab.heard[0]?.name).toBe('events:missed');
      const missed = tab.heard[0]!.args[0] as MissedEvents;
      const ids = [...missed.events.map((e) => e.id), ...tab.events.map((e) => e.id)];
      expect(new Set(ids).size).toBe(ids.length);
      const about = [...missed.events, ...tab.events].map(idOf);
      for (const id of written) expect(about.filter((x) => x === id)).toHaveLength(1);
    } finally {
      replay.forSocket = original;
    }
  });
  it("drops a course's cached assignment rows on every instance when one of them changes it", async () => {
    const teacher = await createTeacher(first);
    const student = await createStudent(first, 'Cached Student');
    const course = await createCourse(first, teacher);
    await joinCourse(first, student, course);
    const assignment = await createAssignment(first, teacher, course, { title: 'First title' });
    const titlesOn = async (t: TestApp) => {
      const res = await t.app.inject({ url: '/api/assignments', headers: student.headers });
      return (res.json() as { title: string }[]).map((a) => a.title);
    };
    expect(await titlesOn(second)).toEqual(['First title']); // the second instance caches the course's rows
    const edit = await first.app.inject({
      method: 'PATCH',
      url: `/api/assignments/${assignment.id}`,
      headers: teacher.headers,
      payload: { title: 'Second title' },
    });
    expect(edit.statusCode).toBe(200);
    // The word travels through Redis: within moments, and long before the cache's own expiry (30 s).
    const started = Date.now();
    while ((await titlesOn(second))[0] !== 'Second title' && Date.now() - started < 3000)
      await new Promise((r) => setTimeout(r, 20));
    expect(await titlesOn(second)).toEqual(['Second title']);
    expect(Date.now() - started).toBeLessThan(3000);
  });
});
