import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Assignment, LiveEvent, Notification, NotificationPage, Submission } from '@classwave/shared';
import {
  createCourse,
  createStudent,
  createTeacher,
  inDays,
  joinCourse,
  submit,
  type Actor,
} from '../../test/support/factories.js';
import { liveTestApp, type LiveTestApp } from '../../test/support/live-app.js';
import { barrier, type Recorder } from '../../test/support/sockets.js';

/** "Grade returned" (DESIGN §13, §14): only when the grade reaches the student, and only to a member. */
let t: LiveTestApp;
beforeAll(async () => {
  t = await liveTestApp();
});
afterAll(() => t.close());

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
    const [studentTab, teacherTab] = await Promise.all([t.tab(student), t.tab(teacher)]);
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
        const [studentTab, teacherTab] = await Promise.all([t.tab(student), t.tab(teacher)]);
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
    const studentTab = await t.tab(student);
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

describe('a grade changed after it reached the student (DESIGN §17)', () => {
  const patch = (actor: Actor, submissionId: string, grade: number, baseVersion: number) =>
    t.app.inject({
      method: 'PATCH',
      url: `/api/submissions/${submissionId}`,
      headers: actor.headers,
      payload: { grade, baseVersion },
    });
  const ownGrade = async (student: Actor, assignment: Assignment) => {
    const list = (
      await t.app.inject({ method: 'GET', url: '/api/assignments', headers: student.headers })
    ).json<Assignment[]>();
    return list.find((a) => a.id === assignment.id)?.submission?.grade;
  };

  it('is held again on manual: the student keeps the returned grade, with nothing heard, until Return', async () => {
    const { teacher, student, assignment, grade, returnGrades } = await submitted('manual');
    await grade(17);
    await returnGrades();
    const studentTab = await t.tab(student);
    const [own] = (
      await t.app.inject({
        method: 'GET',
        url: `/api/assignments/${assignment.id}/submissions`,
        headers: teacher.headers,
      })
    ).json<Submission[]>();
    expect(own).toMatchObject({ grade: 17, held: false });

    const changed = await patch(teacher, own!.id, 15, own!.version);
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json<Submission>()).toMatchObject({ grade: 15, held: true });
    await barrier(studentTab);
    expect(heardOf(studentTab, assignment)).toEqual([]);
    expect(await ownGrade(student, assignment)).toBe(17);
    const grades = (await t.app.inject({ method: 'GET', url: '/api/grades', headers: student.headers })).json<
      { items: { assignmentId: string; grade: number | null }[] }[]
    >();
    expect(grades.flatMap((c) => c.items).find((i) => i.assignmentId === assignment.id)?.grade).toBe(17);
    const exported = (
      await t.app.inject({ method: 'GET', url: '/api/me/export', headers: student.headers })
    ).json<{ submissions: { assignmentId: string; grade: number | null }[] }>();
    expect(exported.submissions.find((s) => s.assignmentId === assignment.id)?.grade).toBe(17);
    const todo = (await t.app.inject({ method: 'GET', url: '/api/todo', headers: teacher.headers })).json<{
      toReturn: { assignmentId: string; count: number }[];
    }>();
    expect(todo.toReturn).toContainEqual(expect.objectContaining({ assignmentId: assignment.id, count: 1 }));

    await returnGrades();
    const heard = await studentTab.waitFor(
      (e) => e.type === 'notification:created' && (e.data as Notification).assignmentId === assignment.id,
    );
    // Minutes after the first Return: the same entry, saying what the grade is now.
    expect((heard.data as Notification).body).toMatch(/· 15 points out of 20/);
    expect(await ownGrade(student, assignment)).toBe(15);
    expect(await gradeNotes(student, assignment)).toHaveLength(1);
  });

  it('reaches the student at once on auto, told once per burst of corrections', async () => {
    const { teacher, student, assignment } = await submitted('auto');
    const studentTab = await t.tab(student);
    const [own] = (
      await t.app.inject({
        method: 'GET',
        url: `/api/assignments/${assignment.id}/submissions`,
        headers: teacher.headers,
      })
    ).json<Submission[]>();
    for (const [i, points] of [10, 12, 14].entries()) {
      const res = await patch(teacher, own!.id, points, i);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<Submission>().held).toBe(false);
    }
    await barrier(studentTab);
    expect(await ownGrade(student, assignment)).toBe(14);
    const notes = await gradeNotes(student, assignment);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ title: 'Grade returned: Quiz', readAt: null });
    expect(notes[0]!.body).toMatch(/· 14 points out of 20/);

    // Later, outside that burst: a change of its own, on top of the inbox.
    t.clock.advance(11 * 60_000);
    const later = await patch(teacher, own!.id, 16, 3);
    expect(later.statusCode, later.body).toBe(200);
    await barrier(studentTab);
    const after = await gradeNotes(student, assignment);
    expect(after.map((n) => n.title)).toEqual(['Grade changed: Quiz', 'Grade returned: Quiz']);
    expect(after[0]!.body).toMatch(/· 16 points out of 20/);
  });
});
