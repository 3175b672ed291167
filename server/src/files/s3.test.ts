import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import * as tus from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Assignment } from '@classwave/shared';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import {
  createAssignment,
  createCourse,
  createStudent,
  createTeacher,
  joinCourse,
  type Actor,
} from '../../test/support/factories.js';
import { listen } from '../../test/support/sockets.js';

/**
 * The same attachments on an S3-compatible store (DESIGN §18): a real one (s3rver) started here on
 * loopback in a temp folder, uploads by the tus client a browser uses, downloads by a short-lived
 * presigned redirect that the store answers with the file's type and disposition.
 */
const BUCKET = 'classwave-files';
let s3: S3rver;
let endpoint: string;
let t: TestApp;
let url: string;
let teacher: Actor;
let ada: Actor;
let ben: Actor;
let assignment: Assignment;

beforeAll(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'classwave-s3-'));
  s3 = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: dir,
    configureBuckets: [{ name: BUCKET, configs: [] }],
  });
  const { port } = await s3.run();
  endpoint = `http://127.0.0.1:${port}`;
  t = await createTestApp({
    env: {
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'classwave-files-')),
      STORAGE_URL: `s3://${BUCKET}`,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    },
  });
  url = await listen(t.app);
  [teacher, ada, ben] = await Promise.all([
    createTeacher(t),
    createStudent(t, 'Ada S3'),
    createStudent(t, 'Ben S3'),
  ]);
  const course = await createCourse(t, teacher);
  await joinCourse(t, ada, course);
  await joinCourse(t, ben, course);
  assignment = await createAssignment(t, teacher, course);
});
afterAll(async () => {
  await t?.close();
  await s3?.close();
});

/** Uploads with tus-js-client over HTTP, in chunks, as a browser would. */
function tusUpload(actor: Actor, bytes: Buffer, name: string, chunkSize = 64 * 1024): Promise<string> {
  return new Promise((resolve, reject) => {
    const upload = new tus.Upload(bytes, {
      endpoint: `${url}/api/uploads`,
      headers: { authorization: `Bearer ${actor.token}` },
      metadata: { purpose: 'submission', targetId: assignment.id, name },
      chunkSize,
      retryDelays: [],
      storeFingerprintForResuming: false,
      onError: reject,
      onSuccess: () => resolve(upload.url!.split('/').pop()!),
    });
    upload.start();
  });
}

const objectExists = async (key: string) => {
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  try {
    await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
    return true;
  } catch {
    return false;
  } finally {
    client.destroy();
  }
};

describe('attachments on S3', () => {
  it('upload with the tus client, download byte for byte through a presigned redirect, with a Range', async () => {
    const bytes = Buffer.from(Array.from({ length: 200 * 1024 }, (_, i) => (i * 7) % 256));
    const id = await tusUpload(ada, bytes, 'data.bin');
    expect(await objectExists(id)).toBe(true);

    const res = await t.app.inject({ method: 'GET', url: `/api/files/${id}`, headers: ada.headers });
    expect(res.statusCode).toBe(302);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toMatch(/^sandbox\b/);
    const location = String(res.headers.location);
    expect(location.startsWith(`${endpoint}/${BUCKET}/${id}?`)).toBe(true);
    expect(location).toMatch(/X-Amz-Expires=300/);

    const whole = await fetch(location);
    expect(whole.status).toBe(200);
    expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true);
    expect(whole.headers.get('content-disposition')).toMatch(/^attachment; filename="data.bin"/);
    expect(whole.headers.get('content-type')).toBe('application/octet-stream');

    const part = await fetch(location, { headers: { range: 'bytes=100-199' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(100, 200))).toBe(true);

    // Others are not redirected anywhere.
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/files/${id}`, headers: ben.headers })).statusCode,
    ).toBe(404);
  });

  it('serves HTML as bytes to save, and removes the object with the file', async () => {
    const id = await tusUpload(ada, Buffer.from('<html><script>alert(1)</script></html>'), 'page.png');
    const res = await t.app.inject({ method: 'GET', url: `/api/files/${id}?inline=1`, headers: ada.headers });
    const fetched = await fetch(String(res.headers.location));
    expect(fetched.headers.get('content-type')).toBe('application/octet-stream');
    expect(fetched.headers.get('content-disposition')).toMatch(/^attachment; /);

    const gone = await t.app.inject({ method: 'DELETE', url: `/api/files/${id}`, headers: ada.headers });
    expect(gone.statusCode).toBe(204);
    expect(await objectExists(id)).toBe(false);
  });
});
