/**
 * Runs only when REDIS_URL is set (vitest.config.ts includes it then): two server instances, each
 * with its own HTTP server and socket.io, share the database and talk only through Redis.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app.js';
import {
  createAssignment,
  createCourse,
  createStudent,
  createTeacher,
  joinCourse,
  submit,
} from '../test/factories.js';
import { barrier, connect, listen, type Recorder } from '../test/sockets.js';

const redisUrl = process.env.REDIS_URL!;
let first: TestApp;
let second: TestApp;
let firstUrl: string;
let secondUrl: string;
const open: Recorder[] = [];

beforeAll(async () => {
  first = await createTestApp({ env: { REDIS_URL: redisUrl } });
  second = await createTestApp({ env: { REDIS_URL: redisUrl }, database: first.app.database });
  firstUrl = await listen(first.app);
  secondUrl = await listen(second.app);
});
afterAll(async () => {
  open.forEach((r) => r.close());
  await second.close();
  await first.close();
});

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
      payload: { grade: 80 },
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
});
