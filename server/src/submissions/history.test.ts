import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receiptId, type Assignment, type SubmissionView } from '@classwave/shared';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import {
  createAssignment,
  createCourse,
  createStudent,
  createTeacher,
  joinCourse,
  submit,
  type Actor,
} from '../../test/support/factories.js';

let t: TestApp;
let teacher: Actor;
let ada: Actor;
let ben: Actor;
let stranger: Actor;
beforeAll(async () => {
  t = await createTestApp();
  [teacher, ada, ben, stranger] = await Promise.all([
    createTeacher(t),
    createStudent(t, 'Ada Student'),
    createStudent(t, 'Ben Student'),
    createStudent(t, 'Stan Stranger'),
  ]);
});
afterAll(() => t.close());

/** An assignment in a fresh course that Ada and Ben have joined (not the stranger). */
const newAssignment = async (body: Parameters<typeof createAssignment>[3] = {}) => {
  const course = await createCourse(t, teacher);
  await Promise.all([joinCourse(t, ada, course), joinCourse(t, ben, course)]);
  return { course, assignment: await createAssignment(t, teacher, course, body) };
};
const view = (actor: Actor, assignmentId: string) =>
  t.app.inject({ method: 'GET', url: `/api/assignments/${assignmentId}/submission`, headers: actor.headers });
const ownView = async (actor: Actor, assignment: Assignment): Promise<SubmissionView> => {
  const res = await view(actor, assignment.id);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const unsubmit = async (actor: Actor, assignment: Assignment) => {
  const res = await t.app.inject({
    method: 'DELETE',
    url: `/api/assignments/${assignment.id}/submission`,
    headers: actor.headers,
  });
  expect(res.statusCode, res.body).toBe(200);
};
const grade = async (submissionId: string, value: number, feedback: string, baseVersion: number) => {
  const res = await t.app.inject({
    method: 'PATCH',
    url: `/api/submissions/${submissionId}`,
    headers: teacher.headers,
    payload: { grade: value, feedback, baseVersion },
  });
  expect(res.statusCode, res.body).toBe(200);
};

describe('GET /api/assignments/:id/submission', () => {
  it('gives the student their own text, receipt, status and history', async () => {
    const { assignment } = await newAssignment();
    const own = await submit(t, ada, assignment, 'Line one\nLine two — مرحبا');
    expect(await ownView(ada, assignment)).toEqual({
      assignmentId: assignment.id,
      status: 'submitted',
      submission: {
        ...own,
        content: 'Line one\nLine two — مرحبا',
        receipt: { id: receiptId(own.id), at: own.submittedAt },
        // No rubric scores until a grade by the rubric is returned (DESIGN §17).
        rubricScores: null,
      },
      history: [{ kind: 'submitted', at: own.submittedAt, receiptId: receiptId(own.id) }],
    });
  });

  it('lists submits and unsubmits oldest first, and says there is no submission after a take-back', async () => {
    const { assignment } = await newAssignment();
    const first = await submit(t, ada, assignment, 'First try');
    t.clock.advance(60_000);
    const takenBackAt = t.clock.now().getTime();
    await unsubmit(ada, assignment);

    const between = await ownView(ada, assignment);
    expect(between.submission).toBeNull();
    expect(between.status).toBe('not_submitted');
    expect(between.history.map((h) => [h.kind, h.receiptId])).toEqual([
      ['submitted', receiptId(first.id)],
      ['unsubmitted', receiptId(first.id)],
    ]);
    expect(new Date(between.history[1]!.at).getTime()).toBeGreaterThanOrEqual(takenBackAt);

    t.clock.advance(60_000);
    const second = await submit(t, ada, assignment, 'Second try');
    const after = await ownView(ada, assignment);
    expect(after.submission).toMatchObject({ content: 'Second try', receipt: { id: receiptId(second.id) } });
    expect(after.history.map((h) => [h.kind, h.receiptId])).toEqual([
      ['submitted', receiptId(first.id)],
      ['unsubmitted', receiptId(first.id)],
      ['submitted', receiptId(second.id)],
    ]);
    const times = after.history.map((h) => new Date(h.at).getTime());
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(after.history[2]!.at).toBe(second.submittedAt);
  });

  it('shows no held grade or feedback, then the returned ones after Return, and keeps them while a change is held', async () => {
    const { assignment } = await newAssignment({ gradeRelease: 'manual', maxPoints: 23 });
    const own = await submit(t, ada, assignment);
    await grade(own.id, 17, 'Kumquat: held feedback', 0);

    const held = await ownView(ada, assignment);
    expect(held.status).toBe('submitted');
    expect(held.submission).toMatchObject({ grade: null, feedback: null, gradedAt: null, returnedAt: null });
    expect(JSON.stringify(held)).not.toContain('Kumquat');

    const returned = await t.app.inject({
      method: 'POST',
      url: `/api/assignments/${assignment.id}/return`,
      headers: teacher.headers,
      payload: {},
    });
    expect(returned.statusCode, returned.body).toBe(200);
    const after = await ownView(ada, assignment);
    expect(after.status).toBe('returned');
    expect(after.submission).toMatchObject({ grade: 17, feedback: 'Kumquat: held feedback' });
    expect(after.submission!.returnedAt).not.toBeNull();

    // A change to the returned grade is held again: the student keeps the one returned.
    await grade(own.id, 20, 'Changed: not yet returned', 1);
    const changed = await ownView(ada, assignment);
    expect(changed.submission).toMatchObject({ grade: 17, feedback: 'Kumquat: held feedback' });
    expect(JSON.stringify(changed)).not.toContain('Changed');
  });

  it('answers 404 no_submission to a member who never submitted, even when a classmate did', async () => {
    const { assignment } = await newAssignment();
    await submit(t, ada, assignment, "Ada's private answer");
    const res = await view(ben, assignment.id);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'no_submission' });
    expect(res.body).not.toContain('private answer');
  });

  it('answers the same 404 to the teacher, a non-member and a removed student, and for an unknown assignment', async () => {
    const { course, assignment } = await newAssignment();
    await submit(t, ada, assignment, "Ada's answer");
    await submit(t, ben, assignment, "Ben's answer");
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/courses/${course.id}/members/${ben.id}`,
      headers: teacher.headers,
    });
    expect(removed.statusCode, removed.body).toBe(200);

    const unknown = await view(ada, '00000000-0000-4000-8000-000000000000');
    for (const res of [
      await view(teacher, assignment.id),
      await view(stranger, assignment.id),
      await view(ben, assignment.id),
      unknown,
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(unknown.json());
    }
    expect(unknown.json()).toMatchObject({ code: 'not_found' });
  });

  it('refuses an id that is not a UUID with 400', async () => {
    const res = await view(ada, 'not-a-uuid');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed' });
  });

  it('needs a signed-in caller', async () => {
    const { assignment } = await newAssignment();
    const res = await t.app.inject({ method: 'GET', url: `/api/assignments/${assignment.id}/submission` });
    expect(res.statusCode).toBe(401);
  });
});
