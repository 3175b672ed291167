import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MailCatcher } from '../support/mail-catcher.js';
import { tusMetadata } from '../support/uploads.js';
import { ChildServer, freePort } from './child-server.js';
import { ok, signUp } from './http.js';

/**
 * A resumable upload survives its server (DESIGN §18): the real server as a child process, killed
 * with SIGKILL while a chunk streams in, started again on the same data; the client asks where the
 * upload stands (HEAD), sends the rest, and the file downloads byte for byte.
 */
const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
});

const SIZE = 3 * 1024 * 1024;
const bytes = Buffer.from(Array.from({ length: SIZE }, (_, i) => (i * 31 + (i >> 12)) % 256));

describe('an upload interrupted by SIGKILL', () => {
  it('resumes from the offset the restarted server reports and completes byte for byte', async () => {
    const mail = await new MailCatcher().start();
    cleanups.push(() => mail.stop());
    const dataDir = mkdtempSync(path.join(tmpdir(), 'classwave-upload-crash-'));
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    const server = new ChildServer({
      port: await freePort(),
      dataDir,
      smtpUrl: mail.url,
      jwtSecret: 'reliability-secret-that-is-long-enough-for-hs256',
    });
    cleanups.push(() => server.kill());
    await server.start();
    const base = server.url;
    const mailTo = (email: string) => mail.latestTo(email, 15_000);
    const teacher = await signUp(base, mailTo, 'teacher', 'Crash Teacher');
    const student = await signUp(base, mailTo, 'student', 'Crash Student');
    const course = await ok<{ id: string; joinCode: string }>(base, 'POST', '/api/courses', {
      token: teacher.token,
      body: { title: 'Crash course', code: 'CR1', description: 'Uploads that survive' },
    });
    await ok(base, 'POST', '/api/courses/join', { token: student.token, body: { code: course.joinCode } });
    const assignment = await ok<{ id: string }>(base, 'POST', '/api/assignments', {
      token: teacher.token,
      body: {
        title: 'Upload',
        courseId: course.id,
        dueDate: new Date(Date.now() + 7 * 86_400_000).toISOString(),
      },
    });

    const tus = { 'tus-resumable': '1.0.0', authorization: `Bearer ${student.token}` };
    const created = await fetch(`${base}/api/uploads`, {
      method: 'POST',
      headers: {
        ...tus,
        'upload-length': String(SIZE),
        'upload-metadata': tusMetadata({ purpose: 'submission', targetId: assignment.id, name: 'big.bin' }),
      },
    });
    expect(created.status).toBe(201);
    const location = `${base}${created.headers.get('location')}`;
    const patch = (offset: number, body: Buffer | ReadableStream<Uint8Array>) =>
      fetch(location, {
        method: 'PATCH',
        headers: {
          ...tus,
          'upload-offset': String(offset),
          'content-type': 'application/offset+octet-stream',
        },
        body,
        // Node's fetch streams a body only with duplex 'half'.
        duplex: 'half',
      });
    expect((await patch(0, bytes.subarray(0, 1024 * 1024))).status).toBe(204);

    // A second chunk streams in slowly; the server is killed halfway through it.
    let sent = 0;
    const slow = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent >= 1024 * 1024) return controller.close();
        controller.enqueue(bytes.subarray(1024 * 1024 + sent, 1024 * 1024 + sent + 64 * 1024));
        sent += 64 * 1024;
        await new Promise((r) => setTimeout(r, 20));
      },
    });
    const cut = patch(1024 * 1024, slow).then(
      () => 'answered',
      () => 'cut off',
    );
    while (sent < 512 * 1024) await new Promise((r) => setTimeout(r, 10));
    await server.kill();
    expect(await cut).toBe('cut off');

    await server.start();
    const head = await fetch(location, { method: 'HEAD', headers: tus });
    expect(head.status).toBe(200);
    const offset = Number(head.headers.get('upload-offset'));
    expect(offset).toBeGreaterThanOrEqual(1024 * 1024);
    expect(offset).toBeLessThan(SIZE);
    expect((await patch(offset, bytes.subarray(offset))).status).toBe(204);

    const id = location.split('/').pop();
    const file = await fetch(`${base}/api/files/${id}`, {
      headers: { authorization: `Bearer ${student.token}` },
    });
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(bytes)).toBe(true);
    // Its errors (pino's error level), not the start-up banner it prints as plain text.
    expect(server.errors.filter((line) => line.startsWith('{'))).toEqual([]);
  });
});
