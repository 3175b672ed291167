import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { submissionDrafts } from '../db/schema.js';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import {
  createAssignment,
  createCourse,
  createStudent,
  createTeacher,
  joinCourse,
  type Actor,
} from '../../test/support/factories.js';

/**
 * A draft save racing the submit that ends the draft (DESIGN §12): whichever commits first, no
 * draft row may outlive the submission. On PostgreSQL the two transactions really overlap; on
 * PGlite they are serialised, so the same test holds there trivially and guards the ordering.
 */

let t: TestApp;
let teacher: Actor;
let ada: Actor;
beforeAll(async () => {
  t = await createTestApp();
  [teacher, ada] = await Promise.all([createTeacher(t), createStudent(t, 'Ada Student')]);
});
afterAll(() => t.close());

describe('PUT /api/assignments/:id/draft racing POST /api/assignments/:id/submissions', () => {
  it('never leaves a draft beside the submission, whichever commits first', async () => {
    const course = await createCourse(t, teacher);
    await joinCourse(t, ada, course);
    const rounds = 12;
    const assignments = await Promise.all(
      Array.from({ length: rounds }, (_, i) => createAssignment(t, teacher, course, { title: `Race ${i}` })),
    );
    await Promise.all(
      assignments.map(async (assignment) => {
        const url = `/api/assignments/${assignment.id}`;
        const [saved, submitted] = await Promise.all([
          t.app.inject({
            method: 'PUT',
            url: `${url}/draft`,
            headers: ada.headers,
            payload: { content: 'late words', baseVersion: 0 },
          }),
          t.app.inject({
            method: 'POST',
            url: `${url}/submissions`,
            headers: { ...ada.headers, 'idempotency-key': randomUUID() },
            payload: { content: 'final words' },
          }),
        ]);
        expect(submitted.statusCode).toBe(201);
        // The save either went first (and its draft was deleted by the submit) or was refused.
        expect([200, 409]).toContain(saved.statusCode);
      }),
    );
    const { db } = t.app.core.database;
    const orphans = await Promise.all(
      assignments.map((a) =>
        db
          .select({ content: submissionDrafts.content })
          .from(submissionDrafts)
          .where(and(eq(submissionDrafts.assignmentId, a.id), eq(submissionDrafts.studentId, ada.id))),
      ),
    );
    expect(orphans.flat()).toEqual([]);
  });

  it('answers a bad body with a 400 naming the field, never a 500', async () => {
    const course = await createCourse(t, teacher);
    await joinCourse(t, ada, course);
    const assignment = await createAssignment(t, teacher, course);
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/assignments/${assignment.id}/draft`,
      headers: ada.headers,
      payload: { content: 'x', baseVersion: -1 },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('baseVersion');
  });
});
