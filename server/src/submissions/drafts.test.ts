import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Assignment, Submission } from '@classwave/shared';
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
import { connect, listen, type Recorder } from '../../test/support/sockets.js';

let t: TestApp;
let url: string;
let teacher: Actor;
let ada: Actor;
let ben: Actor;
beforeAll(async () => {
  t = await createTestApp();
  url = await listen(t.app);
  [teacher, ada, ben] = await Promise.all([
    createTeacher(t),
    createStudent(t, 'Ada Student'),
    createStudent(t, 'Ben Student'),
  ]);
});
afterAll(() => t.close());

const newAssignment = async (body: { dueDate?: string } = {}) => {
  const course = await createCourse(t, teacher);
  await Promise.all([joinCourse(t, ada, course), joinCourse(t, ben, course)]);
  return { course, assignment: await createAssignment(t, teacher, course, body) };
};

const getDraft = (who: Actor, assignment: Assignment) =>
  t.app.inject({ method: 'GET', url: `/api/assignments/${assignment.id}/draft`, headers: who.headers });
const putDraft = (who: Actor, assignment: Assignment, content: string, baseVersion: number) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/assignments/${assignment.id}/draft`,
    headers: who.headers,
    payload: { content, baseVersion },
  });
const post = (who: Actor, assignment: Assignment, content: string, key?: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/assignments/${assignment.id}/submissions`,
    headers: { ...who.headers, ...(key ? { 'idempotency-key': key } : {}) },
    payload: { content },
  });
const unsubmit = (who: Actor, assignment: Assignment) =>
  t.app.inject({
    method: 'DELETE',
    url: `/api/assignments/${assignment.id}/submission`,
    headers: who.headers,
  });
const submissionsOf = async (assignment: Assignment): Promise<Submission[]> =>
  (
    await t.app.inject({
      method: 'GET',
      url: `/api/assignments/${assignment.id}/submissions`,
      headers: teacher.headers,
    })
  ).json();

describe('PUT /api/assignments/:id/draft', () => {
  it('saves a first draft at version 1 and restores it in another session', async () => {
    const { assignment } = await newAssignment();
    const saved = await putDraft(ada, assignment, 'The first paragraph', 0);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ version: 1, updatedAt: expect.any(String) });
    const restored = await getDraft(ada, assignment);
    expect(restored.statusCode).toBe(200);
    expect(restored.json()).toEqual({
      content: 'The first paragraph',
      version: 1,
      updatedAt: saved.json().updatedAt,
    });
  });

  it('moves the version on with each save from the current one', async () => {
    const { assignment } = await newAssignment();
    await putDraft(ada, assignment, 'a', 0);
    const second = await putDraft(ada, assignment, 'ab', 1);
    expect(second.json().version).toBe(2);
    expect((await getDraft(ada, assignment)).json().content).toBe('ab');
  });

  it('refuses a stale save with 409 draft_conflict carrying the newer text, and keeps the newer text', async () => {
    const { assignment } = await newAssignment();
    await putDraft(ada, assignment, 'from tab A', 0);
    const later = await putDraft(ada, assignment, 'from tab A, later', 1);
    const stale = await putDraft(ada, assignment, 'from tab B', 1);
    expect(stale.statusCode).toBe(409);
    // The server's own time of the newer save: the losing tab's "Saved" shows it, not its own clock.
    expect(stale.json()).toMatchObject({
      code: 'draft_conflict',
      content: 'from tab A, later',
      version: 2,
      updatedAt: later.json().updatedAt,
    });
    const first = await putDraft(ada, assignment, 'from tab B too', 0);
    expect(first.statusCode).toBe(409);
    expect((await getDraft(ada, assignment)).json()).toMatchObject({
      content: 'from tab A, later',
      version: 2,
    });
  });

  it('lets exactly one of two racing saves from the same version win', async () => {
    const { assignment } = await newAssignment();
    await putDraft(ada, assignment, 'start', 0);
    const results = await Promise.all([
      putDraft(ada, assignment, 'tab A', 1),
      putDraft(ada, assignment, 'tab B', 1),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const winner = results.find((r) => r.statusCode === 200)!;
    const loser = results.find((r) => r.statusCode === 409)!;
    expect(loser.json().version).toBe(winner.json().version);
  });

  it('keeps each student’s draft their own', async () => {
    const { assignment } = await newAssignment();
    await putDraft(ada, assignment, 'Ada’s words', 0);
    expect((await getDraft(ben, assignment)).statusCode).toBe(404);
    expect((await putDraft(ben, assignment, 'Ben’s words', 0)).statusCode).toBe(200);
    expect((await getDraft(ada, assignment)).json().content).toBe('Ada’s words');
  });

  it('allows an empty draft (the student cleared the box) but not one over the limit', async () => {
    const { assignment } = await newAssignment();
    expect((await putDraft(ada, assignment, '', 0)).statusCode).toBe(200);
    const tooLong = await putDraft(ada, assignment, 'x'.repeat(50_001), 1);
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().message).toContain('content');
  });

  it.each([
    [{ content: 'x' }, 'baseVersion'],
    [{ content: 'x', baseVersion: -1 }, 'baseVersion'],
    [{ content: 'x', baseVersion: 1.5 }, 'baseVersion'],
    [{ baseVersion: 0 }, 'content'],
    [{ content: 5, baseVersion: 0 }, 'content'],
  ])('refuses %o naming %s', async (payload, field) => {
    const { assignment } = await newAssignment();
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/assignments/${assignment.id}/draft`,
      headers: ada.headers,
      payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(field);
  });

  it("tells the student's other tabs with draft:saved, and nobody else", async () => {
    const { assignment } = await newAssignment();
    const [adaTab, benTab, teacherTab] = await Promise.all([
      connect(url, ada.token),
      connect(url, ben.token),
      connect(url, teacher.token),
    ]);
    try {
      const saved = (await putDraft(ada, assignment, 'words', 0)).json();
      const event = await adaTab.waitFor((e) => e.type === 'draft:saved');
      expect(event.data).toEqual({ assignmentId: assignment.id, version: 1, updatedAt: saved.updatedAt });
      await putDraft(ada, assignment, 'more words', 1);
      await adaTab.waitFor((e) => e.type === 'draft:saved' && (e.data as { version: number }).version === 2);
      expect(benTab.events.filter((e) => e.type === 'draft:saved')).toEqual([]);
      expect(teacherTab.events.filter((e) => e.type === 'draft:saved')).toEqual([]);
    } finally {
      [adaTab, benTab, teacherTab].forEach((r: Recorder) => r.close());
    }
  });

  it('refuses a save after the student submitted', async () => {
    const { assignment } = await newAssignment();
    await submit(t, ada, assignment, 'Done');
    const res = await putDraft(ada, assignment, 'more', 0);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('You have already submitted this assignment.');
  });
});

describe('drafts follow the rules of submitting', () => {
  it('answers 403 not_a_member to a student who left the course, 404 to one who never joined', async () => {
    const { course, assignment } = await newAssignment();
    await putDraft(ada, assignment, 'before leaving', 0);
    const left = await t.app.inject({
      method: 'POST',
      url: `/api/courses/${course.id}/leave`,
      headers: ada.headers,
    });
    expect(left.statusCode).toBe(204);
    for (const res of [await getDraft(ada, assignment), await putDraft(ada, assignment, 'after', 1)]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('not_a_member');
    }
    const stranger = await createStudent(t, 'Cy Stranger');
    for (const res of [await getDraft(stranger, assignment), await putDraft(stranger, assignment, 'x', 0)]) {
      expect(res.statusCode).toBe(404);
    }
  });

  it('answers 403 to the teacher and 404 for an assignment that is not there', async () => {
    const { assignment } = await newAssignment();
    expect((await getDraft(teacher, assignment)).statusCode).toBe(403);
    expect((await putDraft(teacher, assignment, 'x', 0)).statusCode).toBe(403);
    const missing = { ...assignment, id: randomUUID() };
    expect((await getDraft(ada, missing)).statusCode).toBe(404);
    expect((await putDraft(ada, missing, 'x', 0)).statusCode).toBe(404);
  });
});

describe('POST /api/assignments/:id/submissions with an Idempotency-Key', () => {
  it('answers the same submission with 200 when the same key comes again, and deletes the draft', async () => {
    const { assignment } = await newAssignment();
    await putDraft(ada, assignment, 'almost done', 0);
    const key = randomUUID();
    const first = await post(ada, assignment, 'Done', key);
    expect(first.statusCode).toBe(201);
    expect((await getDraft(ada, assignment)).statusCode).toBe(404);
    const again = await post(ada, assignment, 'Done', key);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(await submissionsOf(assignment)).toHaveLength(1);
  });

  it('keeps one row and one answer when ten POSTs with the same key race', async () => {
    const { assignment } = await newAssignment();
    const key = randomUUID();
    const results = await Promise.all(Array.from({ length: 10 }, () => post(ben, assignment, 'Raced', key)));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(results.map((r) => r.json().id)).size).toBe(1);
    expect(await submissionsOf(assignment)).toHaveLength(1);
  });

  it('answers 409 to a different key once a submission exists', async () => {
    const { assignment } = await newAssignment();
    await post(ada, assignment, 'First', randomUUID());
    const other = await post(ada, assignment, 'Second', randomUUID());
    expect(other.statusCode).toBe(409);
    expect((await submissionsOf(assignment)).map((s) => s.content)).toEqual(['First']);
  });

  it("does not let one student's key answer with another's submission", async () => {
    const { assignment } = await newAssignment();
    const key = randomUUID();
    await post(ada, assignment, 'Ada', key);
    const ben1 = await post(ben, assignment, 'Ben', key);
    expect(ben1.statusCode).toBe(201);
    expect((await submissionsOf(assignment)).map((s) => s.content).sort()).toEqual(['Ada', 'Ben']);
  });

  it('refuses a key that is not a UUID, naming the header', async () => {
    const { assignment } = await newAssignment();
    const res = await post(ada, assignment, 'x', 'not-a-uuid');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('idempotency-key');
    expect(await submissionsOf(assignment)).toHaveLength(0);
  });
});

describe('DELETE /api/assignments/:id/submission', () => {
  it('takes the submission back as the draft and tells the teacher and the student live', async () => {
    const { course, assignment } = await newAssignment();
    const [adaTab, teacherTab, benTab] = await Promise.all([
      connect(url, ada.token),
      connect(url, teacher.token),
      connect(url, ben.token),
    ]);
    try {
      const own = await submit(t, ada, assignment, 'My essay');
      const res = await unsubmit(ada, assignment);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ content: 'My essay', version: 1 });
      expect(await submissionsOf(assignment)).toEqual([]);
      expect((await getDraft(ada, assignment)).json()).toMatchObject({ content: 'My essay', version: 1 });
      const expected = { id: own.id, assignmentId: assignment.id, courseId: course.id, studentId: ada.id };
      for (const tab of [adaTab, teacherTab]) {
        expect((await tab.waitFor((e) => e.type === 'submission:withdrawn')).data).toEqual(expected);
      }
      // Submitting again works, and the draft saved from the restored version goes on.
      expect((await putDraft(ada, assignment, 'My essay, improved', 1)).statusCode).toBe(200);
      expect((await post(ada, assignment, 'My essay, improved', randomUUID())).statusCode).toBe(201);
      expect(benTab.events.filter((e) => e.type === 'submission:withdrawn')).toEqual([]);
    } finally {
      [adaTab, teacherTab, benTab].forEach((r) => r.close());
    }
  });

  it('refuses a graded submission with 409 already_graded', async () => {
    const { assignment } = await newAssignment();
    const own = await submit(t, ada, assignment, 'Graded one');
    const graded = await t.app.inject({
      method: 'PATCH',
      url: `/api/submissions/${own.id}`,
      headers: teacher.headers,
      payload: { grade: 90, baseVersion: 0 },
    });
    expect(graded.statusCode).toBe(200);
    const res = await unsubmit(ada, assignment);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('already_graded');
    expect(await submissionsOf(assignment)).toHaveLength(1);
  });

  it('does not tell the student of a held grade: a neutral 409 until the grade is returned', async () => {
    const course = await createCourse(t, teacher);
    await joinCourse(t, ada, course);
    const assignment = await createAssignment(t, teacher, course, { gradeRelease: 'manual' });
    const own = await submit(t, ada, assignment, 'Held one');
    const graded = await t.app.inject({
      method: 'PATCH',
      url: `/api/submissions/${own.id}`,
      headers: teacher.headers,
      payload: { grade: 70, baseVersion: 0 },
    });
    expect(graded.statusCode).toBe(200);
    const held = await unsubmit(ada, assignment);
    expect(held.statusCode).toBe(409);
    expect(held.json().code).toBe('conflict');
    expect(held.json().message).not.toMatch(/grade/i);
    expect(await submissionsOf(assignment)).toHaveLength(1);

    const returned = await t.app.inject({
      method: 'POST',
      url: `/api/assignments/${assignment.id}/return`,
      headers: teacher.headers,
      payload: {},
    });
    expect(returned.json()).toEqual({ returned: 1 });
    expect((await unsubmit(ada, assignment)).json().code).toBe('already_graded');
  });

  it('refuses after the due time with 409 past_due', async () => {
    // Due in a minute; two minutes on, the access token is still good but the due time has passed.
    const { assignment } = await newAssignment({
      dueDate: new Date(t.clock.now().getTime() + 60_000).toISOString(),
    });
    await submit(t, ada, assignment, 'Just in time');
    t.clock.advance(2 * 60_000);
    try {
      const res = await unsubmit(ada, assignment);
      expect(res.statusCode).toBe(409);
      expect(res.json().code).toBe('past_due');
    } finally {
      t.clock.advance(-2 * 60_000);
    }
    expect(await submissionsOf(assignment)).toHaveLength(1);
  });

  it('answers 404 when there is nothing to take back, 403 to the teacher and a former member', async () => {
    const { course, assignment } = await newAssignment();
    expect((await unsubmit(ada, assignment)).statusCode).toBe(404);
    expect((await unsubmit(teacher, assignment)).statusCode).toBe(403);
    await submit(t, ben, assignment, 'Ben’s');
    await t.app.inject({ method: 'POST', url: `/api/courses/${course.id}/leave`, headers: ben.headers });
    const res = await unsubmit(ben, assignment);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('not_a_member');
    expect(await submissionsOf(assignment)).toHaveLength(1);
  });
});
