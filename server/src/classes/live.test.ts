import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveEvent } from '@classwave/shared';
import {
  createAssignment,
  createCourse,
  createStudent,
  createTeacher,
  joinCourse,
  type Actor,
} from '../../test/support/factories.js';
import { liveTestApp, type LiveTestApp } from '../../test/support/live-app.js';
import { barrier } from '../../test/support/sockets.js';

/** Membership moves sockets at once (DESIGN §11): in on joining, out on removal, and replay agrees. */
let t: LiveTestApp;
let teacher: Actor;
beforeAll(async () => {
  t = await liveTestApp();
  teacher = await createTeacher(t);
});
afterAll(() => t.close());

const about = (id: string) => (e: LiveEvent) => (e.data as { id?: string }).id === id;

describe('a student socket and course membership', () => {
  it('starts hearing the course on joining, without reconnecting, and stops at removal, live and in replay', async () => {
    const course = await createCourse(t, teacher);
    const student = await createStudent(t);
    const socket = await t.tab(student);

    await joinCourse(t, student, course);
    await socket.waitFor((e) => e.type === 'member:joined');
    const first = await createAssignment(t, teacher, course, { title: 'Heard' });
    await socket.waitFor(about(first.id));

    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/courses/${course.id}/members/${student.id}`,
      headers: teacher.headers,
    });
    expect(removed.statusCode).toBe(200);
    const told = await socket.waitFor((e) => e.type === 'member:removed');
    expect(told.data).toMatchObject({
      course: { id: course.id, joinCode: null },
      member: { status: 'removed' },
    });

    const second = await createAssignment(t, teacher, course, { title: 'Not for them' });
    await t.app.inject({ method: 'DELETE', url: `/api/assignments/${first.id}`, headers: teacher.headers });
    await barrier(socket);
    expect(socket.events.filter(about(second.id))).toEqual([]);
    expect(socket.events.filter((e) => e.type === 'assignment:deleted')).toEqual([]);

    // A tab that reconnects and asks what it missed gets nothing of the course either: only its
    // own notice of the removal (DESIGN §14), written with it.
    const replay = await t.app.inject({
      method: 'GET',
      url: `/api/events?after=${told.id}`,
      headers: student.headers,
    });
    expect(
      replay.json<{ events: LiveEvent[] }>().events.map((e) => [e.type, (e.data as { kind?: string }).kind]),
    ).toEqual([['notification:created', 'removed_from_course']]);
  });

  it('puts a member socket in the course room at connect', async () => {
    const course = await createCourse(t, teacher);
    const [member, outsider] = await Promise.all([createStudent(t), createStudent(t)]);
    await joinCourse(t, member, course);
    const [m, o] = await Promise.all([t.tab(member), t.tab(outsider)]);
    const assignment = await createAssignment(t, teacher, course);
    await m.waitFor(about(assignment.id));
    await barrier(o);
    expect(o.events.filter(about(assignment.id))).toEqual([]);
  });

  it('stops a student who leaves hearing the course', async () => {
    const course = await createCourse(t, teacher);
    const student = await createStudent(t);
    await joinCourse(t, student, course);
    const socket = await t.tab(student);
    await t.app.inject({ method: 'POST', url: `/api/courses/${course.id}/leave`, headers: student.headers });
    await socket.waitFor((e) => e.type === 'member:left');
    const assignment = await createAssignment(t, teacher, course);
    await barrier(socket);
    expect(socket.events.filter(about(assignment.id))).toEqual([]);
  });
});
