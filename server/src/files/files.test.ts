import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Assignment, Course } from '@classwave/shared';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import {
  createAssignment,
  createCourse,
  createStudent,
  createTeacher,
  joinCourse,
  type Actor,
} from '../../test/support/factories.js';
import { createUpload, patchUpload, uploadFile } from '../../test/support/uploads.js';

let t: TestApp;
let teacher: Actor;
let ada: Actor;
let course: Course;
let assignment: Assignment;

beforeAll(async () => {
  t = await createTestApp({ env: { DATA_DIR: mkdtempSync(path.join(tmpdir(), 'classwave-files-')) } });
  [teacher, ada] = await Promise.all([createTeacher(t, 'Fiona Files'), createStudent(t, 'Ada Attach')]);
  course = await createCourse(t, teacher);
  await joinCourse(t, ada, course);
  assignment = await createAssignment(t, teacher, course);
});
afterAll(async () => t.close());

const get = (actor: Actor, url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { ...actor.headers, ...headers } });

describe('uploads (tus)', () => {
  it('stores a student file that downloads byte for byte', async () => {
    const bytes = Buffer.from('Hello, attachments.\n');
    const id = await uploadFile(t, ada, { purpose: 'submission', targetId: assignment.id, name: 'notes.txt' }, bytes);
    const res = await get(ada, `/api/files/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.rawPayload.equals(bytes)).toBe(true);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="notes.txt"/);
  });

  it('refuses more bytes than declared', async () => {
    const created = await createUpload(t, ada, { purpose: 'submission', targetId: assignment.id, name: 'a.bin' }, 4);
    expect(created.statusCode, created.body).toBe(201);
    const res = await patchUpload(t, ada, String(created.headers.location), 0, Buffer.from('123456789'));
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ statusCode: 413, code: 'file_too_large' });
  });
});
