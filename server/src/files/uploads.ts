import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { EVENTS, Server, type Upload } from '@tus/server';
import { and, eq, sql } from 'drizzle-orm';
import { ErrorCode, FILE_PURPOSES, type FilePurpose } from '@classwave/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Caller } from '../auth/caller.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/client.js';
import { courses, files, jobs } from '../db/schema.js';
import { AppError, errorBody } from '../http/errors.js';
import type { Outbox } from '../realtime/outbox.js';
import { audience } from '../realtime/rooms.js';
import { checkUpload, type UploadLimits } from './access.js';
import { cleanFileName } from './names.js';
import { metadataSegments, orientationSegment, sniffType, withoutRanges } from './sniff.js';
import { StagingStore } from './staging.js';
import type { FileStorage } from './storage.js';
import { readyAudience, toSummary } from './views.js';

/** tus answers at most this often with a progress event per upload (DESIGN §18: the teacher's panel). */
export const PROGRESS_EVERY_MS = 500;
export const UPLOADS_PATH = '/api/uploads';
/** The daily job that removes abandoned uploads and files whose parent is gone (module.ts). */
export const FILES_SWEEP_KIND = 'files_sweep';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What tus sends when a hook refuses: the status and our one error body (http/errors.ts). */
const refusal = (status: number, code: string, message: string) => ({
  status_code: status,
  body: JSON.stringify(errorBody(status, code, message)),
});

/** The tus metadata of a new upload, checked: purpose, targetId (uuid), name and, for feedback, studentId. */
function readMetadata(upload: Upload) {
  const meta = upload.metadata ?? {};
  const purpose = meta.purpose ?? '';
  if (!(FILE_PURPOSES as readonly string[]).includes(purpose))
    throw new AppError(
      400,
      ErrorCode.validationFailed,
      `metadata.purpose must be one of ${FILE_PURPOSES.join(', ')}`,
    );
  const targetId = meta.targetId ?? '';
  if (!UUID.test(targetId))
    throw new AppError(400, ErrorCode.validationFailed, 'metadata.targetId must be a uuid');
  const studentId = meta.studentId ?? undefined;
  if (studentId !== undefined && !UUID.test(studentId))
    throw new AppError(400, ErrorCode.validationFailed, 'metadata.studentId must be a uuid');
  const name = cleanFileName(meta.name ?? meta.filename ?? '');
  if (name === undefined)
    throw new AppError(
      400,
      ErrorCode.validationFailed,
      'metadata.name must name the file (a path or control characters alone are no name)',
    );
  if (upload.sizeIsDeferred || upload.size === undefined)
    throw new AppError(
      400,
      ErrorCode.validationFailed,
      'Upload-Length is required: a file declares its size up front',
    );
  return {
    purpose: purpose as FilePurpose,
    targetId: targetId.toLowerCase(),
    studentId: studentId?.toLowerCase(),
    name,
    size: upload.size,
  };
}

/**
 * Resumable uploads (tus 1.0, DESIGN §18) behind the authenticate hook. A new upload is checked and
 * its pending row written before a byte is stored (`onUploadCreate`); its bytes go to a staging
 * folder under DATA_DIR, and once the last one arrives the type is sniffed, a JPEG's EXIF cut out,
 * the bytes put in the storage (disk or S3) and the row made ready, with `file:ready` in the same
 * transaction. Only the uploader may resume, read the offset of, or abandon an upload.
 */
export function createUploads(options: {
  db: Db;
  outbox: Outbox;
  clock: Clock;
  log: FastifyBaseLogger;
  storage: FileStorage;
  limits: UploadLimits;
  stagingDir: string;
  appOrigin: string;
}) {
  const { db, outbox, clock, log, storage, limits, stagingDir } = options;
  const datastore = new StagingStore(stagingDir);
  /** The caller of each web request handed to tus (the routes set it). */
  const callers = new WeakMap<Request, Caller>();
  const callerOfTus = (req: unknown): Caller => {
    const caller = callers.get(req as Request);
    if (!caller) throw refusal(401, ErrorCode.unauthorized, 'Sign in to continue.');
    return caller;
  };
  const asRefusal = (error: unknown) => {
    if (error instanceof AppError) return refusal(error.statusCode, error.code, error.message);
    if (error && typeof error === 'object' && 'status_code' in error) return error;
    log.error({ err: error }, 'upload hook failed');
    return refusal(500, ErrorCode.internal, 'Something went wrong on our side.');
  };

  /** Stores a finished upload and marks it ready; safe to run again (a crash between the steps). */
  async function finish(id: string): Promise<void> {
    const [row] = await db.select().from(files).where(eq(files.id, id));
    if (!row || row.status !== 'pending') return;
    const staged = path.join(stagingDir, id);
    const { size } = await stat(staged);
    if (size !== row.declaredSize) return;
    const mime = await sniffType(staged);
    const cut = mime === 'image/jpeg' ? await metadataSegments(staged) : [];
    // The location goes with the EXIF, XMP and IPTC; a turned photo keeps its Orientation alone.
    const orientation = cut.find((r) => r.orientation !== undefined && r.orientation !== 1)?.orientation;
    const insert = orientation ? orientationSegment(orientation) : undefined;
    const stored = size - cut.reduce((n, r) => n + (r.end - r.start), 0) + (insert?.length ?? 0);
    // Nothing to cut: the staged file is the stored one (on the disk, linked rather than copied).
    const storing =
      cut.length === 0 && storage.adopt
        ? storage.adopt(row.storageKey, staged)
        : storage.put(row.storageKey, withoutRanges(staged, size, cut, insert), stored);
    // At the same time, the flushes while it arrived end without failing: the disk storage's own
    // flush writes what they had not reached yet rather than waiting for the last of them.
    await Promise.all([datastore.flushed(id), storing]);
    await outbox.transaction(async (tx, record) => {
      const [ready] = await tx
        .update(files)
        .set({ status: 'ready', mime, receivedSize: size, storedSize: stored, readyAt: clock.now() })
        .where(and(eq(files.id, id), eq(files.status, 'pending')))
        .returning();
      if (!ready) return;
      const rooms = await readyAudience(tx, ready);
      if (rooms.length > 0)
        record(
          'file:ready',
          {
            file: toSummary(ready),
            purpose: ready.purpose as FilePurpose,
            assignmentId: ready.targetId!,
            courseId: ready.courseId!,
            studentId: ready.studentId,
          },
          rooms,
        );
    });
    await datastore.remove(id).catch(() => {});
    lastProgress.delete(id);
  }

  /**
   * The uploader asking where a finished upload stands: complete (its staged bytes are gone). One
   * whose every byte arrived before the process stopped, short of storing them, is finished now:
   * a client resuming after a crash finds it done and the file ready.
   */
  async function finished(id: string, caller: Caller): Promise<Response | undefined> {
    const [row] = await db.select().from(files).where(eq(files.id, id));
    if (!row || row.uploaderId !== caller.userId) return undefined;
    if (row.status === 'pending') {
      const staged = await stat(path.join(stagingDir, id)).catch(() => undefined);
      if (staged?.size !== row.declaredSize) return undefined;
      await finish(id);
    }
    const length = String(row.declaredSize);
    return new Response(null, {
      status: 200,
      headers: {
        'Tus-Resumable': '1.0.0',
        'Upload-Offset': length,
        'Upload-Length': length,
        'Cache-Control': 'no-store',
      },
    });
  }

  const lastProgress = new Map<string, number>();
  async function progress(id: string, received: number): Promise<void> {
    await outbox.transaction(async (tx, record) => {
      const [row] = await tx
        .update(files)
        .set({ receivedSize: received })
        .where(and(eq(files.id, id), eq(files.status, 'pending')))
        .returning();
      if (!row) return void lastProgress.delete(id); // finished (or gone) meanwhile
      if (row.purpose !== 'submission' || !row.targetId || !row.studentId) return;
      const [course] = await tx
        .select({ teacherId: courses.teacherId })
        .from(courses)
        .where(eq(courses.id, row.courseId!));
      if (!course) return;
      record(
        'upload:progress',
        {
          fileId: id,
          assignmentId: row.targetId,
          studentId: row.studentId,
          name: row.name,
          received,
          size: row.declaredSize,
        },
        audience.teachers(row.courseId!, course.teacherId),
      );
    });
  }

  const tus = new Server({
    path: UPLOADS_PATH,
    datastore,
    relativeLocation: true,
    allowedOrigins: [options.appOrigin],
    allowedCredentials: true,
    postReceiveInterval: PROGRESS_EVERY_MS,
    namingFunction: () => randomUUID(),
    async onIncomingRequest(req, id) {
      if (req.method === 'POST') return;
      const caller = callerOfTus(req);
      if (!UUID.test(id)) throw refusal(404, ErrorCode.notFound, 'Upload not found.');
      const [row] = await db.select().from(files).where(eq(files.id, id));
      // Someone else's upload, or one already finished: not there for tus.
      if (!row || row.uploaderId !== caller.userId || row.status !== 'pending')
        throw refusal(404, ErrorCode.notFound, 'Upload not found.');
      // Abandoned by its uploader (tus termination): the row goes first, then tus removes the bytes.
      if (req.method === 'DELETE') {
        lastProgress.delete(id);
        await db.delete(files).where(and(eq(files.id, id), eq(files.status, 'pending')));
        return;
      }
    },
    async onUploadCreate(req, upload) {
      try {
        const caller = callerOfTus(req);
        const wanted = readMetadata(upload);
        await db.transaction(async (tx) => {
          // One upload of a user at a time passes the count and quota checks.
          await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`files:${caller.userId}`}))`);
          const placed = await checkUpload(tx, caller, wanted, limits, clock.now());
          await tx.insert(files).values({
            id: upload.id,
            uploaderId: caller.userId,
            purpose: wanted.purpose,
            // A post's file names its course (the post does not exist yet): no assignment.
            targetId: wanted.purpose === 'post' ? null : wanted.targetId,
            studentId: placed.studentId,
            courseId: placed.courseId,
            name: wanted.name,
            declaredSize: wanted.size,
            storageKey: upload.id,
            createdAt: clock.now(),
          });
          // The sweep exists once anything was uploaded; it then moves itself a day on each run.
          await tx
            .insert(jobs)
            .values({
              kind: FILES_SWEEP_KIND,
              key: FILES_SWEEP_KIND,
              runAt: new Date(clock.now().getTime() + 24 * 3600 * 1000),
            })
            .onConflictDoNothing();
        });
        return { metadata: { ...upload.metadata, name: wanted.name } };
      } catch (error) {
        throw asRefusal(error);
      }
    },
    async onUploadFinish(_req, upload) {
      try {
        await finish(upload.id);
      } catch (error) {
        throw asRefusal(error);
      }
      return {};
    },
  });
  /** At most one `upload:progress` an upload every PROGRESS_EVERY_MS: during a long PATCH, and after each. */
  const moved = (id: string, offset: number) => {
    const now = Date.now();
    if (now - (lastProgress.get(id) ?? 0) < PROGRESS_EVERY_MS) return;
    lastProgress.set(id, now);
    progress(id, offset).catch((err) => log.warn({ err }, 'upload progress not sent'));
  };
  tus.on(EVENTS.POST_RECEIVE, (_req: unknown, upload: Upload) => moved(upload.id, upload.offset));
  /** PATCHes that carried an upload's last byte: its file:ready says the rest, no progress after it. */
  const completing = new WeakSet<object>();
  tus.on(EVENTS.POST_FINISH, (req: object) => completing.add(req));

  return {
    /** Hands one request to tus, as the caller the authenticate hook found. */
    async handle(request: Request, caller: Caller): Promise<Response> {
      callers.set(request, caller);
      const id = new URL(request.url).pathname.split('/').pop() ?? '';
      if (request.method === 'HEAD' && UUID.test(id)) {
        const done = await finished(id, caller);
        if (done) return done;
      }
      const response = await tus.handleWeb(request);
      const offset = Number(response.headers.get('upload-offset'));
      // A chunk stored and more to come (the last one's file:ready says the rest).
      if (request.method === 'PATCH' && response.status === 204 && UUID.test(id) && !completing.has(request))
        moved(id, offset);
      return response;
    },
    finish,
    /** Removes an upload's staged bytes (abandoned, or deleted while pending). */
    async discard(id: string): Promise<void> {
      await datastore.remove(id).catch(() => {});
    },
  };
}
export type Uploads = ReturnType<typeof createUploads>;
