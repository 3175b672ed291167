import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Submission } from '@classwave/shared';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import { uploadFile } from '../../test/support/uploads.js';
import { connect, listen } from '../../test/support/sockets.js';
import {
  createAssignment,
  createCourse,
  createStudent,
  joinCourse,
  createTeacher,
  submit,
  type Actor,
} from '../../test/support/factories.js';

let t: TestApp;
let teacher: Actor;
let ada: Actor;
let ben: Actor;
beforeAll(async () => {
  t = await createTestApp();
  [teacher, ada, ben] = await Promise.all([
    createTeacher(t),
    createStudent(t, 'Ada Student'),
    createStudent(t, 'Ben Student'),
  ]);
});
afterAll(() => t.close());

/** An assignment in a fresh course that Ada and Ben have joined. */
const newAssignment = async (maxPoints = 100) => {
  const course = await createCourse(t, teacher);
  await Promise.all([joinCourse(t, ada, course), joinCourse(t, ben, course)]);
  return createAssignment(t, teacher, course, { maxPoints });
};
const submissionsOf = async (assignmentId: string): Promise<Submission[]> =>
  (
    await t.app.inject({
      method: 'GET',
      url: `/api/assignments/${assignmentId}/submissions`,
      headers: teacher.headers,
    })
  ).json();

describe('POST /api/assignments/:id/submissions', () => {
  it('stores the answer once and refuses a second with 409', async () => {
    const assignment = await newAssignment();
    const first = await submit(t, ada, assignment, 'First answer');
    expect(first).toMatchObject({ grade: null, feedback: null });
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/assignments/${assignment.id}/submissions`,
      headers: ada.headers,
      payload: { content: 'Second answer' },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('You have already submitted this assignment.');
    expect((await submissionsOf(assignment.id)).map((s) => s.content)).toEqual(['First answer']);
  });

  it('keeps exactly one submission when ten requests race', async () => {
    const assignment = await newAssignment();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: `/api/assignments/${assignment.id}/submissions`,
          headers: ben.headers,
          payload: { content: `try ${i}` },
        }),
      ),
    );
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 201)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(9);
    expect(await submissionsOf(assignment.id)).toHaveLength(1);
  });

  it.each([
    [{ content: '' }, 'content'],
    [{ content: '   \n ' }, 'content'],
    [{ content: 'x'.repeat(50_001) }, 'content'],
    [{}, 'content'],
    [{ content: ['a'] }, 'content'],
  ])('refuses %o naming %s', async (payload, field) => {
    const assignment = await newAssignment();
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/assignments/${assignment.id}/submissions`,
      headers: ada.headers,
      payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(field);
    expect(await submissionsOf(assignment.id)).toHaveLength(0);
  });

  // DESIGN §18: a photo of handwritten work needs no words beside it.
  it('takes a blank answer that carries a file', async () => {
    const assignment = await newAssignment();
    const fileId = await uploadFile(
      t,
      ada,
      { purpose: 'submission', targetId: assignment.id, name: 'working.txt' },
      Buffer.from('2x + 3 = 7, so x = 2'),
    );
    const teacherTab = await connect(await listen(t.app), teacher.token);
    try {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/assignments/${assignment.id}/submissions`,
        headers: ada.headers,
        payload: { content: '', fileIds: [fileId] },
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({ files: [{ id: fileId, name: 'working.txt' }] });
      // The teacher's open list gets the files with the submission, live.
      const created = await teacherTab.waitFor((e) => e.type === 'submission:created');
      expect(created.data).toMatchObject({ files: [{ id: fileId, name: 'working.txt' }] });
    } finally {
      teacherTab.close();
    }
  });

  it('answers 404 for an assignment that does not exist', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/assignments/00000000-0000-4000-8000-000000000000/submissions',
      headers: ada.headers,
      payload: { content: 'x' },
    });
    expect(res.statusCode).toBe(404);
  });

  it('stores HTML-looking text exactly as sent', async () => {
    const assignment = await newAssignment();
    const content = `<script>alert("x")</script> ' OR 1=1; -- ✓ 𝔘𝔫𝔦𝔠𝔬𝔡𝔢`;
    await submit(t, ada, assignment, content);
    expect((await submissionsOf(assignment.id))[0]?.content).toBe(content);
  });
});

describe('GET /api/assignments/:id/submissions', () => {
  it("lists the course teacher's submissions newest first, with each student's name", async () => {
    const assignment = await newAssignment();
    await submit(t, ada, assignment, 'from Ada');
    t.clock.advance(1000);
    await submit(t, ben, assignment, 'from Ben');
    const list = await submissionsOf(assignment.id);
    expect(list.map((s) => [s.student.fullName, s.content])).toEqual([
      ['Ben Student', 'from Ben'],
      ['Ada Student', 'from Ada'],
    ]);
  });
});

describe('PATCH /api/submissions/:id', () => {
  it('grades, regrades and clears feedback', async () => {
    const assignment = await newAssignment(20);
    const own = await submit(t, ada, assignment);
    const graded = await t.app.inject({
      method: 'PATCH',
      url: `/api/submissions/${own.id}`,
      headers: teacher.headers,
      payload: { grade: 18, feedback: ' Well argued. ', baseVersion: 0 },
    });
    expect(graded.statusCode).toBe(200);
    expect(graded.json()).toMatchObject({
      grade: 18,
      feedback: 'Well argued.',
      student: { fullName: 'Ada Student' },
    });
    expect(graded.json().gradedAt).not.toBeNull();
    const regraded = await t.app.inject({
      method: 'PATCH',
      url: `/api/submissions/${own.id}`,
      headers: teacher.headers,
      payload: { grade: 20, feedback: null, baseVersion: 1 },
    });
    expect(regraded.json()).toMatchObject({ grade: 20, feedback: null });
  });

  it.each([
    [{ grade: 21, baseVersion: 1 }, 'at most 20'],
    [{ grade: -1, baseVersion: 1 }, 'grade'],
    [{ grade: 7.5, baseVersion: 1 }, 'grade'],
    [{ grade: '10', baseVersion: 1 }, 'grade'],
    [{ baseVersion: 1 }, 'grade'],
    [{ grade: 5 }, 'baseVersion'],
    [{ grade: 5, baseVersion: -1 }, 'baseVersion'],
    [{ grade: 5, feedback: 'x'.repeat(5001), baseVersion: 1 }, 'feedback'],
  ])('refuses %o (%s) and keeps the old grade', async (payload, mention) => {
    const assignment = await newAssignment(20);
    const own = await submit(t, ben, assignment);
    await t.app.inject({
      method: 'PATCH',
      url: `/api/submissions/${own.id}`,
      headers: teacher.headers,
      payload: { grade: 10, baseVersion: 0 },
    });
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/submissions/${own.id}`,
      headers: teacher.headers,
      payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(mention);
    expect((await submissionsOf(assignment.id))[0]?.grade).toBe(10);
  });
});
