import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  Assignment,
  AssignmentPanel,
  Gradebook,
  GradebookCell,
  LiveEvent,
  Submission,
} from '@classwave/shared';
import { createAssignment, createClass, submit, type Actor } from '../../test/support/factories.js';
import { liveTestApp, type LiveTestApp } from '../../test/support/live-app.js';
import type { Recorder } from '../../test/support/sockets.js';

/**
 * An extended student's work is late only after their own due date (DESIGN §20), wherever it says
 * so: a grade's answer and event, the gradebook. Ada has three days more, Ben has the class's due
 * time; both hand in a minute after it, so Ben is late and Ada is not.
 */

let t: LiveTestApp;
beforeAll(async () => {
  t = await liveTestApp();
});
afterAll(() => t.close());

const inMinutes = (minutes: number) => new Date(t.clock.now().getTime() + minutes * 60_000).toISOString();

/** A class of Ada (extended by three days) and Ben, a minute after the class's due time. */
async function pastTheClassDueTime(gradeRelease: 'auto' | 'manual' = 'auto') {
  const { teacher, course, students } = await createClass(t, 2);
  const [ada, ben] = students as [Actor, Actor];
  const [classDue, extendedTo] = [inMinutes(4), inMinutes(60 * 24 * 3)];
  const assignment = await createAssignment(t, teacher, course, { dueDate: classDue, gradeRelease });
  const extended = await t.app.inject({
    method: 'PUT',
    url: `/api/assignments/${assignment.id}/extensions/${ada.id}`,
    headers: teacher.headers,
    payload: { dueDate: extendedTo },
  });
  expect(extended.statusCode, extended.body).toBe(200);
  t.clock.advance(5 * 60_000);
  return { teacher, course, assignment, ada, ben, classDue, extendedTo };
}

/** pastTheClassDueTime, and both hand in then. */
async function handedInAfterTheClass(gradeRelease: 'auto' | 'manual' = 'auto') {
  const setting = await pastTheClassDueTime(gradeRelease);
  const { assignment, ada, ben } = setting;
  const [adaWork, benWork] = [await submit(t, ada, assignment), await submit(t, ben, assignment)];
  // Each as its own list shows it: the control for everything below.
  expect([adaWork.late, benWork.late]).toEqual([null, 1]);
  return { ...setting, adaWork, benWork };
}

const gradedFor = (who: Actor) => (e: LiveEvent) =>
  e.type === 'submission:graded' && (e.data as Submission).studentId === who.id;
/** The teacher grades a submission by its id (PATCH /api/submissions/:id). */
const grade = (teacher: Actor, submissionId: string, points: number, baseVersion: number) =>
  t.app.inject({
    method: 'PATCH',
    url: `/api/submissions/${submissionId}`,
    headers: teacher.headers,
    payload: { grade: points, baseVersion },
  });
const cellsOf = async (teacher: Actor, courseId: string, assignmentId: string) => {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/courses/${courseId}/gradebook`,
    headers: teacher.headers,
  });
  const cells = res.json<Gradebook>().cells.filter((c) => c.assignmentId === assignmentId);
  return (who: Actor) => cells.find((c) => c.studentId === who.id);
};

describe("an extended student's lateness", () => {
  it('is measured against their own due date when the teacher grades, by the submission or the cell', async () => {
    const { teacher, course, assignment, ada, ben, adaWork, benWork } = await handedInAfterTheClass();
    const teacherTab = await t.tab(teacher);
    const byId = await grade(teacher, adaWork.id, 8, 0);
    expect(byId.statusCode, byId.body).toBe(200);
    expect(byId.json<Submission>().late).toBeNull();
    expect(((await teacherTab.waitFor(gradedFor(ada))).data as Submission).late).toBeNull();
    const byCell = await t.app.inject({
      method: 'PUT',
      url: `/api/assignments/${assignment.id}/grades/${ada.id}`,
      headers: teacher.headers,
      payload: { grade: 9, baseVersion: 1 },
    });
    expect(byCell.statusCode, byCell.body).toBe(200);
    expect(byCell.json<Submission>().late).toBeNull();
    // Ben's grade still says late: the class's due time is his.
    const ben8 = await grade(teacher, benWork.id, 8, 0);
    expect(ben8.json<Submission>().late).toBe(1);
    expect(((await teacherTab.waitFor(gradedFor(ben))).data as Submission).late).toBe(1);
    const cellOf = await cellsOf(teacher, course.id, assignment.id);
    expect(cellOf(ada)).toMatchObject({ grade: 9, late: null });
    expect(cellOf(ben)).toMatchObject({ grade: 8, late: 1 });
  });

  it("is measured against their own due date in the teacher's list of submissions", async () => {
    const { teacher, assignment, ada, ben } = await handedInAfterTheClass();
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/assignments/${assignment.id}/submissions`,
      headers: teacher.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    const late = Object.fromEntries(res.json<Submission[]>().map((s) => [s.studentId, s.late]));
    expect(late).toEqual({ [ada.id]: null, [ben.id]: 1 });
  });

  it('is measured against their own due date when held grades are returned', async () => {
    const { teacher, assignment, ada, ben, adaWork, benWork } = await handedInAfterTheClass('manual');
    for (const work of [adaWork, benWork]) {
      const held = await grade(teacher, work.id, 7, 0);
      expect(held.statusCode, held.body).toBe(200);
    }
    const [teacherTab, adaTab] = [await t.tab(teacher), await t.tab(ada)];
    const returned = await t.app.inject({
      method: 'POST',
      url: `/api/assignments/${assignment.id}/return`,
      headers: teacher.headers,
      payload: {},
    });
    expect(returned.json()).toEqual({ returned: 2 });
    const lateIn = async (r: Recorder, who: Actor) =>
      ((await r.waitFor(gradedFor(who))).data as Submission).late;
    expect([await lateIn(teacherTab, ada), await lateIn(adaTab, ada), await lateIn(teacherTab, ben)]).toEqual(
      [null, null, 1],
    );
  });

  it('is measured against their own due date when an excuse is taken back, in the cell and their view', async () => {
    const { teacher, assignment, ada, ben, classDue, extendedTo } = await handedInAfterTheClass();
    const adaTab = await t.tab(ada);
    const excuse = (who: Actor, excused: boolean) =>
      t.app.inject({
        method: 'POST',
        url: `/api/assignments/${assignment.id}/excuse`,
        headers: teacher.headers,
        payload: { studentId: who.id, excused },
      });
    await excuse(ada, true);
    const back = await excuse(ada, false);
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json<GradebookCell>()).toMatchObject({
      status: 'submitted',
      late: null,
      dueDate: extendedTo,
    });
    const mine = await adaTab.waitFor(
      (e) => e.type === 'assignment:updated' && (e.data as Assignment).status !== 'excused',
    );
    expect(mine.data).toMatchObject({
      status: 'submitted',
      submission: { late: null },
      dueDate: extendedTo,
      extendedFrom: classDue,
    });
    await excuse(ben, true);
    const benCell = (await excuse(ben, false)).json<GradebookCell>();
    expect(benCell).toMatchObject({ status: 'late', late: 1 });
    expect(benCell.dueDate).toBeUndefined();
  });

  it('says not submitted, not missing, when a grade for their missing work is taken back', async () => {
    const { teacher, assignment, ada, ben, classDue, extendedTo } = await pastTheClassDueTime();
    const adaTab = await t.tab(ada);
    const takeBack = async (who: Actor) => {
      const graded = await t.app.inject({
        method: 'PUT',
        url: `/api/assignments/${assignment.id}/grades/${who.id}`,
        headers: teacher.headers,
        payload: { grade: 0, baseVersion: 0 },
      });
      expect(graded.statusCode, graded.body).toBe(200);
      const cleared = await t.app.inject({
        method: 'DELETE',
        url: `/api/assignments/${assignment.id}/grades/${who.id}?baseVersion=1`,
        headers: teacher.headers,
      });
      expect(cleared.statusCode, cleared.body).toBe(200);
      return cleared.json<GradebookCell>();
    };
    expect(await takeBack(ada)).toMatchObject({ status: 'not_submitted', dueDate: extendedTo });
    const mine = await adaTab.waitFor(
      (e) => e.type === 'assignment:updated' && (e.data as Assignment).submission === null,
    );
    expect(mine.data).toMatchObject({ status: 'not_submitted', dueDate: extendedTo, extendedFrom: classDue });
    expect(await takeBack(ben)).toMatchObject({ status: 'missing' });
  });

  it("places them on the assignment's live panel by their own due date", async () => {
    const { teacher, assignment, ada, ben } = await pastTheClassDueTime();
    const states = async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/assignments/${assignment.id}/panel`,
        headers: teacher.headers,
      });
      const { students } = res.json<AssignmentPanel>();
      return [ada, ben].map((who) => students.find((s) => s.id === who.id)?.state);
    };
    expect(await states()).toEqual(['not_opened', 'missing']);
    await submit(t, ada, assignment);
    await submit(t, ben, assignment);
    expect(await states()).toEqual(['submitted', 'late']);
  });
});
