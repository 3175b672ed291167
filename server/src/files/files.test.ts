import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type {
  AssignmentFiles,
  Assignment,
  Course,
  LiveEvent,
  OwnSubmission,
  Submission,
  SubmissionView,
} from '@classwave/shared';
import { PASSWORD } from '../../test/support/app.js';
import {
  createAssignment,
  createCourse,
  createStudent,
  createTeacher,
  joinCourse,
  type Actor,
} from '../../test/support/factories.js';
import { liveTestApp, type LiveTestApp } from '../../test/support/live-app.js';
import { barrier } from '../../test/support/sockets.js';
import { createUpload, patchUpload, TUS, uploadFile } from '../../test/support/uploads.js';
import { FILES_SWEEP_KIND } from './uploads.js';
import { orientationOf, orientationSegment } from './sniff.js';

/**
 * Attachments (DESIGN §18) on the real app and database, the disk storage: tus uploads checked
 * before a byte is stored, sniffed and stripped of EXIF when whole, downloads with their headers
 * and ranges, a submit's files, and feedback files that wait for the grade's Return.
 */
let t: LiveTestApp;
let dataDir: string;
let teacher: Actor;
let otherTeacher: Actor;
let ada: Actor;
let ben: Actor;
let course: Course;
let assignment: Assignment;

const LIMITS = { UPLOAD_MAX_BYTES: '100000', UPLOAD_MAX_FILES: '4', UPLOAD_QUOTA_BYTES: '250000' };

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'classwave-files-'));
  t = await liveTestApp({ env: { DATA_DIR: dataDir, ...LIMITS } });
  [teacher, otherTeacher, ada, ben] = await Promise.all([
    createTeacher(t, 'Fiona Files'),
    createTeacher(t, 'Otto Other'),
    createStudent(t, 'Ada Attach'),
    createStudent(t, 'Ben Bytes'),
  ]);
  course = await createCourse(t, teacher);
  await joinCourse(t, ada, course);
  await joinCourse(t, ben, course);
});
// Each test its own assignment, so one's files do not count against another's limit.
beforeEach(async () => {
  assignment = await createAssignment(t, teacher, course);
});
afterAll(() => t.close());

const get = (actor: Actor, url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { ...actor.headers, ...headers } });
const isReady = (e: LiveEvent, id: string) =>
  e.type === 'file:ready' && (e as LiveEvent<'file:ready'>).data.file.id === id;
const del = (actor: Actor, url: string) => t.app.inject({ method: 'DELETE', url, headers: actor.headers });
const work = (name: string, target?: Assignment) => ({
  purpose: 'submission',
  targetId: (target ?? assignment).id,
  name,
});

/** A JPEG: SOI, an APP1 EXIF segment holding a "GPS" position, a JFIF APP0, a table, the scan, EOI. */
function jpegWithExif() {
  const segment = (marker: number, body: Buffer) => {
    const head = Buffer.from([0xff, marker, 0, 0]);
    head.writeUInt16BE(body.length + 2, 2);
    return Buffer.concat([head, body]);
  };
  const exif = segment(
    0xe1,
    Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), Buffer.from('MM\0*GPS 48.8584N 2.2945E')]),
  );
  const jfif = segment(0xe0, Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'latin1'));
  const table = segment(0xdb, Buffer.alloc(65, 1));
  const scan = Buffer.concat([
    segment(0xda, Buffer.from([1, 1, 0, 0, 0x3f, 0])),
    Buffer.from([0x12, 0x34, 0xff, 0x00, 0x56]),
  ]);
  const soi = Buffer.from([0xff, 0xd8]);
  const eoi = Buffer.from([0xff, 0xd9]);
  return {
    withExif: Buffer.concat([soi, exif, jfif, table, scan, eoi]),
    without: Buffer.concat([soi, jfif, table, scan, eoi]),
  };
}
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('0000000d49484452000000010000000108060000001f15c489', 'hex'),
  Buffer.from('0000000049454e44ae426082', 'hex'),
]);

describe('POST /api/uploads (tus)', () => {
  it('stores a student file that downloads byte for byte, with the file headers', async () => {
    const bytes = Buffer.from('Hello, attachments.\n');
    const id = await uploadFile(t, ada, work('notes.txt'), bytes);
    const res = await get(ada, `/api/files/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.rawPayload.equals(bytes)).toBe(true);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="notes.txt"/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toMatch(/^sandbox\b/);
    expect(res.headers['content-length']).toBe(String(bytes.length));
  });

  it('stores every byte sent over a real connection in many chunks (each freed once on disk)', async () => {
    const pieces = Array.from({ length: 9 }, (_, i) => randomBytes(10_000 + i));
    const bytes = Buffer.concat(pieces);
    const created = await createUpload(t, ada, work('recording.bin'), bytes.length);
    expect(created.statusCode, created.body).toBe(201);
    const location = String(created.headers.location);
    // The body streamed piece by piece, so the server reads it in several chunks off the socket.
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = pieces.shift();
        if (!next) return controller.close();
        controller.enqueue(Buffer.from(next));
        await new Promise((resolve) => setTimeout(resolve, 2));
      },
    });
    const sent = await fetch(`${t.url}${location}`, {
      method: 'PATCH',
      headers: {
        ...TUS,
        ...ada.headers,
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
      },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(sent.status, await sent.text()).toBe(204);
    const res = await get(ada, `/api/files/${location.split('/').pop()}`);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(bytes)).toBe(true);
  });

  it('resumes an interrupted upload from the offset the server reports', async () => {
    const bytes = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 251));
    const created = await createUpload(t, ada, work('data.bin'), bytes.length);
    expect(created.statusCode, created.body).toBe(201);
    const location = String(created.headers.location);
    expect(location).toMatch(/^\/api\/uploads\/[0-9a-f-]{36}$/);
    expect((await patchUpload(t, ada, location, 0, bytes.subarray(0, 2000))).statusCode).toBe(204);
    const head = await t.app.inject({ method: 'HEAD', url: location, headers: { ...TUS, ...ada.headers } });
    expect(head.statusCode).toBe(200);
    expect(head.headers['upload-offset']).toBe('2000');
    // Someone else cannot see or continue it.
    const foreign = await t.app.inject({
      method: 'HEAD',
      url: location,
      headers: { ...TUS, ...ben.headers },
    });
    expect(foreign.statusCode).toBe(404);
    expect((await patchUpload(t, ben, location, 2000, bytes.subarray(2000))).statusCode).toBe(404);
    // A wrong offset is refused in our error shape.
    const wrong = await patchUpload(t, ada, location, 10, bytes.subarray(10));
    expect(wrong.statusCode).toBe(409);
    expect(wrong.json()).toMatchObject({ statusCode: 409, code: 'upload_refused' });
    // Pending: nobody downloads it yet.
    const id = location.split('/').pop()!;
    expect((await get(ada, `/api/files/${id}`)).statusCode).toBe(404);
    expect((await patchUpload(t, ada, location, 2000, bytes.subarray(2000))).statusCode).toBe(204);
    const res = await get(ada, `/api/files/${id}`);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(bytes)).toBe(true);
    expect(res.headers['content-type']).toBe('application/octet-stream');
  });

  it('refuses more bytes than declared, and an upload with no declared length', async () => {
    const created = await createUpload(t, ada, work('a.bin'), 4);
    const res = await patchUpload(t, ada, String(created.headers.location), 0, Buffer.from('123456789'));
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ statusCode: 413, code: 'file_too_large' });
    const deferred = await t.app.inject({
      method: 'POST',
      url: '/api/uploads',
      headers: {
        ...TUS,
        ...ada.headers,
        'upload-defer-length': '1',
        'upload-metadata': 'purpose c3VibWlzc2lvbg==',
      },
    });
    expect(deferred.statusCode).toBeGreaterThanOrEqual(400);
    expect(deferred.statusCode).toBeLessThan(500);
    expect(deferred.json()).toHaveProperty('code');
  });

  it('checks the size limit, the purpose and the metadata before a byte is stored, naming the problem', async () => {
    const before = readdirSync(path.join(dataDir, 'uploads')).length;
    const big = await createUpload(t, ada, work('big.bin'), 100_001);
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({
      code: 'file_too_large',
      message: expect.stringMatching(/UPLOAD_MAX_BYTES/),
    });
    // A comment's files are not there yet (a post's are: conversations/attachments.test.ts).
    const comment = await createUpload(
      t,
      ada,
      { purpose: 'comment', targetId: assignment.id, name: 'x.txt' },
      10,
    );
    expect(comment.statusCode).toBe(422);
    expect(comment.json()).toMatchObject({ code: 'purpose_not_available' });
    const cases: [Record<string, string>, RegExp][] = [
      [{ purpose: 'essay', targetId: assignment.id, name: 'x' }, /metadata.purpose/],
      [{ purpose: 'submission', targetId: 'nope', name: 'x' }, /metadata.targetId/],
      [{ purpose: 'submission', targetId: assignment.id, name: '../../' }, /metadata.name/],
      [{ purpose: 'submission', targetId: assignment.id, name: '\u0000\u0007' }, /metadata.name/],
      [{ purpose: 'submission', targetId: assignment.id }, /metadata.name/],
    ];
    for (const [meta, message] of cases) {
      const res = await createUpload(t, ada, meta, 10);
      expect(res.statusCode, JSON.stringify(meta)).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'validation_failed',
        message: expect.stringMatching(message),
      });
    }
    expect(readdirSync(path.join(dataDir, 'uploads')).length).toBe(before);
  });

  it('keeps only the last part of a name, without control characters, at most 255 characters', async () => {
    const names: [string, string][] = [
      ['../../etc/passwd', 'passwd'],
      ['C:\\Users\\ada\\essay.docx', 'essay.docx'],
      ['re\u0000port\u202e\u0007.pdf', 'report.pdf'],
      [`${'a'.repeat(1000)}.txt`, `${'a'.repeat(251)}.txt`],
    ];
    const student = await createStudent(t, 'Nina Names');
    await joinCourse(t, student, course);
    for (const [given, kept] of names) {
      const id = await uploadFile(t, student, work(given), Buffer.from('x'));
      const res = await get(student, `/api/files/${id}`);
      expect(res.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent(kept)}`);
      expect(res.headers['content-disposition']).not.toMatch(/[\r\n]/);
    }
  });

  it('limits the files a submission carries and the bytes a user keeps', async () => {
    const student = await createStudent(t, 'Quinn Quota');
    await joinCourse(t, student, course);
    for (let i = 0; i < 4; i++) await uploadFile(t, student, work(`${i}.txt`), Buffer.from('x'));
    const fifth = await createUpload(t, student, work('4.txt'), 1);
    expect(fifth.statusCode).toBe(422);
    expect(fifth.json()).toMatchObject({
      code: 'too_many_files',
      message: expect.stringMatching(/UPLOAD_MAX_FILES/),
    });

    const other = await createAssignment(t, teacher, course, { title: 'Quota' });
    const hoarder = await createStudent(t, 'Hal Hoarder');
    await joinCourse(t, hoarder, course);
    // Declared bytes count, whether stored yet or not: 2 × 100,000 of 250,000, then 60,000 more is over.
    expect((await createUpload(t, hoarder, work('a.bin', other), 100_000)).statusCode).toBe(201);
    expect((await createUpload(t, hoarder, work('b.bin', other), 100_000)).statusCode).toBe(201);
    const over = await createUpload(t, hoarder, work('c.bin', other), 60_000);
    expect(over.statusCode).toBe(413);
    expect(over.json()).toMatchObject({
      code: 'quota_exceeded',
      message: expect.stringMatching(/UPLOAD_QUOTA_BYTES/),
    });
  });

  it("refuses a submission file from a non-member (404), a removed member (403) and a teacher's materials from a student", async () => {
    const outsider = await createStudent(t, 'Olga Outside');
    expect((await createUpload(t, outsider, work('x.txt'), 1)).statusCode).toBe(404);
    expect(
      (await createUpload(t, otherTeacher, { purpose: 'assignment', targetId: assignment.id, name: 'x' }, 1))
        .statusCode,
    ).toBe(404);
    expect(
      (await createUpload(t, ada, { purpose: 'assignment', targetId: assignment.id, name: 'x' }, 1))
        .statusCode,
    ).toBe(403);
    expect((await createUpload(t, undefined as never, work('x.txt'), 1)).statusCode).toBe(401);
  });
});

describe('GET /api/files/:id', () => {
  it("removes a JPEG's EXIF and changes no other byte", async () => {
    const { withExif, without } = jpegWithExif();
    const id = await uploadFile(t, ada, work('IMG_0001.JPG'), withExif);
    const res = await get(ada, `/api/files/${id}`);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.rawPayload.equals(without)).toBe(true);
    expect(res.rawPayload.includes(Buffer.from('GPS'))).toBe(false);
  });

  it("removes a JPEG's XMP and IPTC, where editors copy the position, and keeps its other segments", async () => {
    const { withExif, without } = jpegWithExif();
    const segment = (marker: number, text: string) => {
      const body = Buffer.from(text, 'latin1');
      return Buffer.concat([
        Buffer.from([0xff, marker, (body.length + 2) >> 8, (body.length + 2) & 0xff]),
        body,
      ]);
    };
    const xmp = segment(
      0xe1,
      'http://ns.adobe.com/xap/1.0/\0<x:xmpmeta><exif:GPSLatitude>48,51.5N</exif:GPSLatitude>',
    );
    const extended = segment(0xe1, 'http://ns.adobe.com/xmp/extension/\0GPS 2,17.7E');
    const iptc = segment(0xed, 'Photoshop 3.0\x008BIM\x04\x04 GPS city Paris');
    // An APP1 of some other kind: not metadata with a place, kept as they are.
    const other = segment(0xe1, 'SomeVendor\0notes');
    const photo = Buffer.concat([withExif.subarray(0, 2), xmp, extended, iptc, other, withExif.subarray(2)]);
    const id = await uploadFile(t, ada, work('IMG_0003.JPG'), photo);
    const res = await get(ada, `/api/files/${id}`);
    expect(res.rawPayload.includes(Buffer.from('GPS'))).toBe(false);
    expect(res.rawPayload.equals(Buffer.concat([without.subarray(0, 2), other, without.subarray(2)]))).toBe(
      true,
    );
  });

  it('keeps a turned photo upright: its Orientation stays, alone, and the location goes', async () => {
    const { withExif, without } = jpegWithExif();
    // A big-endian EXIF block: Orientation 6 (turned right) and a GPS directory with a position.
    const tiff = Buffer.alloc(8 + 2 + 2 * 12 + 4);
    tiff.write('MM', 0, 'latin1');
    tiff.writeUInt16BE(42, 2);
    tiff.writeUInt32BE(8, 4);
    tiff.writeUInt16BE(2, 8);
    tiff.writeUInt16BE(0x0112, 10);
    tiff.writeUInt16BE(3, 12);
    tiff.writeUInt32BE(1, 14);
    tiff.writeUInt16BE(6, 18);
    tiff.writeUInt16BE(0x8825, 22);
    tiff.writeUInt16BE(4, 24);
    tiff.writeUInt32BE(1, 26);
    tiff.writeUInt32BE(tiff.length, 30);
    const body = Buffer.concat([
      Buffer.from('Exif\0\0', 'latin1'),
      tiff,
      Buffer.from('GPS 48.8584N 2.2945E'),
    ]);
    const exif = Buffer.concat([
      Buffer.from([0xff, 0xe1, (body.length + 2) >> 8, (body.length + 2) & 0xff]),
      body,
    ]);
    const photo = Buffer.concat([withExif.subarray(0, 2), exif, without.subarray(2)]);
    const id = await uploadFile(t, ada, work('IMG_0002.JPG'), photo);
    const res = await get(ada, `/api/files/${id}`);
    expect(res.rawPayload.includes(Buffer.from('GPS'))).toBe(false);
    expect(
      res.rawPayload.equals(
        Buffer.concat([without.subarray(0, 2), orientationSegment(6), without.subarray(2)]),
      ),
    ).toBe(true);
    expect(orientationOf(orientationSegment(6).subarray(10))).toBe(6);
    // The same tag written little-endian reads the same; nonsense reads as none.
    const little = Buffer.from([
      0x49, 0x49, 42, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, 8, 0, 0, 0, 0, 0,
    ]);
    expect(orientationOf(little)).toBe(8);
    expect(orientationOf(Buffer.from('MM\0*GPS 48.8584N'))).toBeUndefined();
    expect(orientationOf(Buffer.alloc(3))).toBeUndefined();
  });

  it('answers a Range with 206, and one outside the file with 416', async () => {
    const bytes = Buffer.from('0123456789abcdefghij');
    const id = await uploadFile(t, ada, work('range.bin'), bytes);
    const part = await get(ada, `/api/files/${id}`, { range: 'bytes=5-9' });
    expect(part.statusCode).toBe(206);
    expect(part.body).toBe('56789');
    expect(part.headers['content-range']).toBe('bytes 5-9/20');
    expect(part.headers['x-content-type-options']).toBe('nosniff');
    expect((await get(ada, `/api/files/${id}`, { range: 'bytes=-3' })).body).toBe('hij');
    expect((await get(ada, `/api/files/${id}`, { range: 'bytes=15-' })).body).toBe('fghij');
    const beyond = await get(ada, `/api/files/${id}`, { range: 'bytes=20-30' });
    expect(beyond.statusCode).toBe(416);
    expect(beyond.headers['content-range']).toBe('bytes */20');
    expect(beyond.json()).toMatchObject({ code: 'range_not_satisfiable' });
  });

  it('shows images and PDFs inline when asked, and HTML or SVG never (bytes to save)', async () => {
    const png = await uploadFile(t, ada, work('pic.png'), PNG);
    const inline = await get(ada, `/api/files/${png}?inline=1`);
    expect(inline.headers['content-type']).toBe('image/png');
    expect(inline.headers['content-disposition']).toMatch(/^inline; /);
    expect(inline.headers['content-security-policy']).toMatch(/^sandbox\b/);

    const html = await uploadFile(
      t,
      ada,
      work('cat.png'),
      Buffer.from('<!doctype html><script>alert(document.cookie)</script>'),
    );
    const svg = await uploadFile(
      t,
      ada,
      work('logo.svg'),
      Buffer.from(
        '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      ),
    );
    for (const id of [html, svg]) {
      const res = await get(ada, `/api/files/${id}?inline=1`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/octet-stream');
      expect(res.headers['content-disposition']).toMatch(/^attachment; /);
      expect(res.headers['content-security-policy']).toMatch(/^sandbox\b/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });
});

describe('a submission with files', () => {
  it('is refused while a file is still uploading, then carries every file, shown to the student and the teacher', async () => {
    const cara = await createStudent(t, 'Cara Carry');
    await joinCourse(t, cara, course);
    const ready = await uploadFile(t, cara, work('essay.txt'), Buffer.from('My essay'));
    const pending = await createUpload(t, cara, work('late.bin'), 10);
    const pendingId = String(pending.headers.location).split('/').pop()!;
    // The teacher cannot read work not handed in yet.
    expect((await get(teacher, `/api/files/${ready}`)).statusCode).toBe(404);

    const refused = await t.app.inject({
      method: 'POST',
      url: `/api/assignments/${assignment.id}/submissions`,
      headers: cara.headers,
      payload: { content: 'See files', fileIds: [ready, pendingId] },
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'files_not_ready',
      message: expect.stringContaining('late.bin'),
    });
    expect((await get(cara, `/api/assignments/${assignment.id}/submission`)).statusCode).toBe(404);

    const foreign = await uploadFile(t, ben, work('bens.txt'), Buffer.from('Ben'));
    const notMine = await t.app.inject({
      method: 'POST',
      url: `/api/assignments/${assignment.id}/submissions`,
      headers: cara.headers,
      payload: { content: 'See files', fileIds: [ready, foreign] },
    });
    expect(notMine.statusCode).toBe(400);
    expect(notMine.json().message).toContain(foreign);

    const res = await t.app.inject({
      method: 'POST',
      url: `/api/assignments/${assignment.id}/submissions`,
      headers: cara.headers,
      payload: { content: 'See files', fileIds: [ready] },
    });
    expect(res.statusCode, res.body).toBe(201);
    const summary = { id: ready, name: 'essay.txt', size: 8, type: 'text/plain' };
    expect(res.json<OwnSubmission>().files).toEqual([summary]);
    const view = (await get(cara, `/api/assignments/${assignment.id}/submission`)).json<SubmissionView>();
    expect(view.submission?.files).toEqual([summary]);
    const list = (await get(teacher, `/api/assignments/${assignment.id}/submissions`)).json<Submission[]>();
    expect(list.find((s) => s.studentId === cara.id)?.files).toEqual([summary]);
    // Handed in: the teacher reads it, the student can no longer remove it.
    expect((await get(teacher, `/api/files/${ready}`)).body).toBe('My essay');
    expect((await del(cara, `/api/files/${ready}`)).statusCode).toBe(404);
    // Nor upload more to the submitted work.
    expect((await createUpload(t, cara, work('more.txt'), 1)).statusCode).toBe(409);
  });

  it('lets the uploader remove a file before handing it in, and nobody else', async () => {
    const id = await uploadFile(t, ben, work('draft.txt'), Buffer.from('draft'));
    expect((await del(ada, `/api/files/${id}`)).statusCode).toBe(404);
    expect((await del(teacher, `/api/files/${id}`)).statusCode).toBe(404);
    expect((await del(ben, `/api/files/${id}`)).statusCode).toBe(204);
    expect((await get(ben, `/api/files/${id}`)).statusCode).toBe(404);
    expect(readdirSync(path.join(dataDir, 'files'))).not.toContain(id);
  });
});

describe('feedback files', () => {
  it('stay hidden from the student (route, live event, replay) while the grade is held, and arrive with its Return', async () => {
    const held = await createAssignment(t, teacher, course, { title: 'Held', gradeRelease: 'manual' });
    const adaLive = await t.tab(ada);
    const teacherLive = await t.tab(teacher);
    const id = await uploadFile(
      t,
      teacher,
      { purpose: 'feedback', targetId: held.id, studentId: ada.id, name: 'comments.txt' },
      Buffer.from('Well argued.'),
    );
    await teacherLive.waitFor((e) => isReady(e, id));
    expect((await get(ada, `/api/files/${id}`)).statusCode).toBe(404);
    expect((await get(ben, `/api/files/${id}`)).statusCode).toBe(404);

    const graded = await t.app.inject({
      method: 'PUT',
      url: `/api/assignments/${held.id}/grades/${ada.id}`,
      headers: teacher.headers,
      payload: { grade: 90, feedback: 'Good', baseVersion: 0 },
    });
    expect(graded.statusCode, graded.body).toBe(200);
    expect((await get(ada, `/api/files/${id}`)).statusCode).toBe(404);
    // Nor in the assignment's list of files, whatever student the student names.
    const listed = (who: Actor, query = '') =>
      get(who, `/api/assignments/${held.id}/files${query}`).then((r) => r.json<AssignmentFiles>());
    expect((await listed(ada)).feedback).toEqual([]);
    expect((await listed(ada, `?studentId=${ada.id}`)).feedback).toEqual([]);
    expect((await listed(teacher, `?studentId=${ada.id}`)).feedback.map((f) => f.id)).toEqual([id]);
    await barrier(adaLive);
    expect(adaLive.events.some((e) => isReady(e, id))).toBe(false);
    const replay = (await get(ada, '/api/events?after=0')).json<{
      events: { type: string; data: { file?: { id: string } } }[];
    }>();
    expect(replay.events.some((e) => e.type === 'file:ready' && e.data.file?.id === id)).toBe(false);

    const returned = await t.app.inject({
      method: 'POST',
      url: `/api/assignments/${held.id}/return`,
      headers: teacher.headers,
      payload: {},
    });
    expect(returned.statusCode, returned.body).toBe(200);
    await adaLive.waitFor((e) => isReady(e, id));
    expect((await get(ada, `/api/files/${id}`)).body).toBe('Well argued.');
    expect((await listed(ada)).feedback.map((f) => f.id)).toEqual([id]);
    // Ben's feedback is not Ada's business, nor hers his.
    expect((await get(ben, `/api/files/${id}`)).statusCode).toBe(404);
    expect((await listed(ben, `?studentId=${ada.id}`)).feedback).toEqual([]);
  });
});

describe("an assignment's materials", () => {
  it('are listed to its teacher and the members, in the order uploaded, and to nobody else', async () => {
    const sheet = await createAssignment(t, teacher, course, { title: 'With materials' });
    const first = await uploadFile(
      t,
      teacher,
      { purpose: 'assignment', targetId: sheet.id, name: 'worksheet.pdf' },
      Buffer.from('%PDF-1.4\n%%EOF\n'),
    );
    const second = await uploadFile(
      t,
      teacher,
      { purpose: 'assignment', targetId: sheet.id, name: 'notes.txt' },
      Buffer.from('Read chapter 3.'),
    );
    for (const who of [teacher, ada]) {
      const res = await get(who, `/api/assignments/${sheet.id}/files`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<AssignmentFiles>()).toEqual({
        materials: [
          { id: first, name: 'worksheet.pdf', size: 15, type: 'application/pdf' },
          { id: second, name: 'notes.txt', size: 15, type: 'text/plain' },
        ],
        feedback: [],
      });
    }
    expect((await get(otherTeacher, `/api/assignments/${sheet.id}/files`)).statusCode).toBe(404);
  });
});

describe('live uploads', () => {
  it('tell the student and the course teacher that a file is ready, and the teacher how far an upload is', async () => {
    const [adaLive, teacherLive, benLive, otherLive] = await Promise.all([
      t.tab(ada),
      t.tab(teacher),
      t.tab(ben),
      t.tab(otherTeacher),
    ]);
    const created = await createUpload(t, ada, work('live.bin'), 6000);
    const location = String(created.headers.location);
    const id = location.split('/').pop()!;
    expect((await patchUpload(t, ada, location, 0, Buffer.alloc(3000, 7))).statusCode).toBe(204);
    // Progress is sent at most every 500 ms an upload: the next chunk after that is heard.
    await new Promise((r) => setTimeout(r, 550));
    expect((await patchUpload(t, ada, location, 3000, Buffer.alloc(3000, 8))).statusCode).toBe(204);
    const moved = await teacherLive.waitFor(
      (e) => e.type === 'upload:progress' && (e as LiveEvent<'upload:progress'>).data.fileId === id,
    );
    expect(moved.data).toMatchObject({
      studentId: ada.id,
      assignmentId: assignment.id,
      name: 'live.bin',
      size: 6000,
    });
    await teacherLive.waitFor((e) => isReady(e, id));
    await adaLive.waitFor((e) => isReady(e, id));
    await barrier(benLive, otherLive, adaLive);
    for (const r of [benLive, otherLive])
      expect(r.events.some((e) => e.type === 'file:ready' || e.type === 'upload:progress')).toBe(false);
    // Progress is the teacher's panel's: never the student's own sockets, nor anyone else's.
    expect(adaLive.events.some((e) => e.type === 'upload:progress')).toBe(false);
  });
});

describe("the teacher's zip", () => {
  it("streams every handed-in file in a folder per student, to the course's teacher only", async () => {
    const zipped = await createAssignment(t, teacher, course, { title: 'Zip me' });
    for (const [student, text] of [
      [ada, 'Ada work'],
      [ben, 'Ben work'],
    ] as const) {
      const id = await uploadFile(t, student, work('answer.txt', zipped), Buffer.from(text));
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/assignments/${zipped.id}/submissions`,
        headers: student.headers,
        payload: { content: 'Attached', fileIds: [id] },
      });
      expect(res.statusCode).toBe(201);
    }
    const res = await get(teacher, `/api/assignments/${zipped.id}/submissions.zip`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.rawPayload.subarray(0, 2).toString()).toBe('PK');
    const names = res.rawPayload.toString('latin1');
    expect(names).toContain(`Ada Attach (${ada.id.slice(0, 8)})/answer.txt`);
    expect(names).toContain(`Ben Bytes (${ben.id.slice(0, 8)})/answer.txt`);
    expect((await get(otherTeacher, `/api/assignments/${zipped.id}/submissions.zip`)).statusCode).toBe(404);
    expect((await get(ada, `/api/assignments/${zipped.id}/submissions.zip`)).statusCode).toBe(403);
  });
});

describe('the daily sweep', () => {
  it('removes uploads abandoned for a day, bytes and row', async () => {
    const created = await createUpload(t, ben, work('abandoned.bin'), 100);
    const location = String(created.headers.location);
    await patchUpload(t, ben, location, 0, Buffer.alloc(50, 1));
    const id = location.split('/').pop()!;
    expect(readdirSync(path.join(dataDir, 'uploads'))).toContain(id);
    // A day on, the sweep runs (now, whenever an earlier test left its next run).
    t.clock.advance(25 * 3600 * 1000);
    try {
      await t.app.core.jobs.runNow([FILES_SWEEP_KIND]);
    } finally {
      t.clock.advance(-25 * 3600 * 1000);
    }
    expect(readdirSync(path.join(dataDir, 'uploads'))).not.toContain(id);
    const head = await t.app.inject({ method: 'HEAD', url: location, headers: { ...TUS, ...ben.headers } });
    expect(head.statusCode).toBe(404);
  });
});

describe('files and the account', () => {
  const DAY = 24 * 3600 * 1000;
  /** Moves the clock on, runs what fell due (a purge), then the sweep, and moves the clock back. */
  async function runJobsAfter(ms: number) {
    t.clock.advance(ms);
    try {
      await t.app.core.jobs.runDue();
      await t.app.core.jobs.runNow([FILES_SWEEP_KIND]);
    } finally {
      t.clock.advance(-ms);
    }
  }

  it('"Download my data" lists my files, and deleting the account removes their bytes', async () => {
    const leaver = await createStudent(t, 'Lea Leaving');
    await joinCourse(t, leaver, course);
    const id = await uploadFile(t, leaver, work('mine.txt'), Buffer.from('mine'));
    const exported = (await get(leaver, '/api/me/export')).json<{
      files: { id: string; name: string; download: string }[];
    }>();
    expect(exported.files).toEqual([
      expect.objectContaining({
        id,
        name: 'mine.txt',
        size: 4,
        type: 'text/plain',
        download: `/api/files/${id}`,
      }),
    ]);
    expect(
      (await get(ada, '/api/me/export')).json<{ files: { id: string }[] }>().files.map((f) => f.id),
    ).not.toContain(id);

    expect(readdirSync(path.join(dataDir, 'files'))).toContain(id);
    const gone = await t.app.inject({
      method: 'DELETE',
      url: '/api/me',
      headers: leaver.headers,
      payload: { password: PASSWORD },
    });
    expect(gone.statusCode, gone.body).toBe(204);
    await runJobsAfter(DAY + 60_000);
    expect(readdirSync(path.join(dataDir, 'files'))).not.toContain(id);
  });

  it("purging a binned assignment removes its files' bytes", async () => {
    const binned = await createAssignment(t, teacher, course, { title: 'To the bin' });
    const id = await uploadFile(
      t,
      teacher,
      { purpose: 'assignment', targetId: binned.id, name: 'sheet.txt' },
      Buffer.from('sheet'),
    );
    expect((await del(teacher, `/api/assignments/${binned.id}`)).statusCode).toBe(204);
    // Binned: nobody downloads it, its bytes wait for the purge (a restore brings it back).
    expect((await get(teacher, `/api/files/${id}`)).statusCode).toBe(404);
    expect(readdirSync(path.join(dataDir, 'files'))).toContain(id);
    await runJobsAfter(31 * DAY);
    expect(readdirSync(path.join(dataDir, 'files'))).not.toContain(id);
  });
});

describe('Download my data: my files', () => {
  it("zips every file I uploaded, a folder per kind, a second of one name numbered, nobody else's", async () => {
    const mine = await createAssignment(t, teacher, course, { title: 'My files' });
    for (const text of ['first', 'second'])
      await uploadFile(t, ada, work('notes-for-export.txt', mine), Buffer.from(`Ada ${text}`));
    await uploadFile(t, ben, work('ben-only-export.txt', mine), Buffer.from('Ben'));
    const res = await get(ada, '/api/me/files.zip');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe('attachment; filename="classwave-my-files.zip"');
    expect(res.rawPayload.subarray(0, 2).toString()).toBe('PK');
    const names = res.rawPayload.toString('latin1');
    expect(names).toContain('My work/notes-for-export.txt');
    expect(names).toContain('My work/2 notes-for-export.txt');
    expect(names).not.toContain('ben-only-export.txt');
    expect((await t.app.inject({ method: 'GET', url: '/api/me/files.zip' })).statusCode).toBe(401);
  });
});
