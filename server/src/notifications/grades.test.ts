import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Assignment, LiveEvent, Notification, NotificationPage } from '@classwave/shared';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import {
  createCourse,
  createStudent,
  createTeacher,
  inDays,
  joinCourse,
  submit,
  type Actor,
} from '../../test/support/factories.js';
import { barrier, connect, listen, type Recorder } from '../../test/support/sockets.js';

/** "Grade returned" (DESIGN §13, §14): only when the grade reaches the student, and only to a member. */
let t: TestApp;
let url: string;
const sockets: Recorder[] = [];
beforeAll(async () => {
  t = await createTestApp();
  url = await listen(t.app);
});
afterAll(async () => {
  sockets.forEach((s) => s.close());
  await t.close();
});

async function tab(actor: Actor): Promise<Recorder> {
  const socket = await connect(url, actor.token);
  sockets.push(socket);
  return socket;
}

const gradeNotes = async (actor: Actor, assignment: Assignment) =>
  (await t.app.inject({ method: 'GET', url: '/api/notifications', headers: actor.headers }))
    .json<NotificationPage>()
    .items.filter((n) => n.kind === 'grade_returned' && n.assignmentId === assignment.id);

/** Live events a tab heard about this assignment's grade: the graded submission and its inbox entry. */
const heardOf = (recorder: Recorder, assignment: Assignment) =>
  recorder.events.filter(
    (e: LiveEvent) =>
      (e.type === 'submission:graded' &&
        (e.data as { assignmentId: string }).assignmentId === assignment.id) ||
      (e.type === 'notification:created' &&
        (e.data as Notification).assignmentId === assignment.id &&
        (e.data as Notification).kind === 'grade_returned'),
  );

/** A course with one student who has submitted to an assignment released as `gradeRelease`. */
async function submitted(gradeRelease: 'auto' | 'manual') {
  const teacher = await createTeacher(t);
  const course = await createCourse(t, teacher);
  const student = await createStudent(t);
  await joinCourse(t, student, course);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/assignments',
    headers: teacher.headers,
    payload: { title: 'Quiz', dueDate: inDays(3), courseId: course.id, maxPoints: 20, gradeRelease },
  });
  expect(res.statusCode).toBe(201);
  const assignment = res.json<Assignment>();
  const submission = await submit(t, student, assignment);
  const grade = async (points: number) => {
    const graded = await t.app.inject({
      method: 'PATCH',
      url: `/api/submissions/${submission.id}`,
      headers: teacher.headers,
      payload: { grade: points, baseVersion: 0 },
    });
    expect(graded.statusCode, graded.body).toBe(200);
  };
  const returnGrades = async () => {
    const returned = await t.app.inject({
      method: 'POST',
      url: `/api/assignments/${assignment.id}/return`,
      headers: teacher.headers,
      payload: {},
    });
    expect(returned.json()).toEqual({ returned: 1 });
  };
  return { teacher, course, student, assignment, grade, returnGrades };
}

describe('grade_returned', () => {
  it('waits for Return when grades are held: nothing for the student until then, one entry after', async () => {
    const { teacher, student, assignment, grade, returnGrades } = await submitted('manual');
    const [studentTab, teacherTab] = await Promise.all([tab(student), tab(teacher)]);
    await grade(17);
    await teacherTab.waitFor((e) => e.type === 'submission:graded');
    await barrier(studentTab);
    expect(heardOf(studentTab, assignment)).toEqual([]);
    expect(await gradeNotes(student, assignment)).toEqual([]);

    await returnGrades();
    const heard = await studentTab.waitFor(
      (e) => e.type === 'notification:created' && (e.data as Notification).kind === 'grade_returned',
    );
    const [note] = await gradeNotes(student, assignment);
    expect(note).toMatchObject({ title: 'Grade returned: Quiz', readAt: null });
    expect(note!.body).toMatch(/· 17 points/);
    expect(heard.data).toMatchObject({ id: note!.id });
    await barrier(studentTab);
    expect(heardOf(studentTab, assignment).map((e) => e.type)).toEqual([
      'submission:graded',
      'notification:created',
    ]);
    expect(await gradeNotes(student, assignment)).toHaveLength(1);
  });

  it.each([
    ['removed by the teacher', 'remove'],
    ['who left', 'leave'],
  ] as const)(
    'reaches a former member (%s) neither live nor in the inbox nor in a replay; the teacher still hears the grade',
    async (_name, how) => {
      for (const release of ['auto', 'manual'] as const) {
        const { teacher, course, student, assignment, grade, returnGrades } = await submitted(release);
        const [studentTab, teacherTab] = await Promise.all([tab(student), tab(teacher)]);
        const head = (
          await t.app.inject({ method: 'GET', url: '/api/events', headers: student.headers })
        ).json<{ lastId: number }>().lastId;
        const gone =
          how === 'remove'
            ? await t.app.inject({
                method: 'DELETE',
                url: `/api/courses/${course.id}/members/${student.id}`,
                headers: teacher.headers,
              })
            : await t.app.inject({
                method: 'POST',
                url: `/api/courses/${course.id}/leave`,
                headers: student.headers,
              });
        expect(gone.statusCode).toBeLessThan(300);
        await grade(12);
        if (release === 'manual') await returnGrades();
        await teacherTab.waitFor(
          (e) =>
            e.type === 'submission:graded' && (e.data as { returnedAt: string | null }).returnedAt !== null,
        );
        await barrier(studentTab);
        expect({ release, heard: heardOf(studentTab, assignment) }).toEqual({ release, heard: [] });
        expect({ release, inbox: await gradeNotes(student, assignment) }).toEqual({ release, inbox: [] });
        const replay = (
          await t.app.inject({ method: 'GET', url: `/api/events?after=${head}`, headers: student.headers })
        ).json<{ events: LiveEvent[] }>().events;
        expect(replay.filter((e) => e.type === 'submission:graded')).toEqual([]);
      }
    },
  );

  it('reaches a student restored to the class as before', async () => {
    const { teacher, course, student, assignment, grade } = await submitted('auto');
    const studentTab = await tab(student);
    const path = `/api/courses/${course.id}/members/${student.id}`;
    expect((await t.app.inject({ method: 'DELETE', url: path, headers: teacher.headers })).statusCode).toBe(
      200,
    );
    const restored = await t.app.inject({ method: 'POST', url: `${path}/restore`, headers: teacher.headers });
    expect(restored.statusCode).toBe(200);
    await grade(9);
    await studentTab.waitFor((e) => e.type === 'notification:created');
    expect((await gradeNotes(student, assignment)).map((n) => n.body)).toEqual([
      expect.stringMatching(/· 9 points/),
    ]);
  });
});
