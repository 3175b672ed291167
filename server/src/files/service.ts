import type { Readable } from 'node:stream';
import { ZipArchive } from 'archiver';
import { and, asc, eq, inArray, isNotNull, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import { assignedTo } from '../assignments/visibility.js';
import { teaches } from '../courses/teaching.js';
import { ErrorCode, type AssignmentFiles, type FilePurpose, type FileSummary } from '@classwave/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Caller } from '../auth/caller.js';
import { requireTeacherOfAssignment } from '../classes/visibility.js';
import type { Db, Tx } from '../db/client.js';
import { assignments, courseMembers, courses, files, profiles, submissions } from '../db/schema.js';
import { AppError, badRequest, notFound } from '../http/errors.js';
import { fileWithParents, mayRemove, maySee } from './access.js';
import { cleanFileName } from './names.js';
import { fileHeaders, rangeOf } from './download.js';
import type { Outbox } from '../realtime/outbox.js';
import type { FileStorage } from './storage.js';
import type { Uploads } from './uploads.js';
import { readyAudience, toSummary } from './views.js';

const NOT_FOUND = 'File not found.';

/** What a download answers: the bytes with their headers, or a redirect to the object store. */
export type Download =
  | { kind: 'bytes'; status: 200 | 206; headers: Record<string, string>; body: Readable }
  | { kind: 'redirect'; headers: Record<string, string>; location: string };

/**
 * A submit's files (DESIGN §18), checked in its transaction and attached to the submission: every
 * one the student's own ready file for this assignment, none handed in already. A pending one is
 * 409 files_not_ready, so no receipt is issued before every file is stored.
 */
export async function attachFiles(
  tx: Tx,
  input: { studentId: string; assignmentId: string; submissionId: string; fileIds: readonly string[] },
): Promise<void> {
  const ids = [...new Set(input.fileIds)];
  if (ids.length === 0) return;
  const rows = await tx.select().from(files).where(inArray(files.id, ids)).for('update');
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const id of ids) {
    const row = byId.get(id);
    if (
      !row ||
      row.uploaderId !== input.studentId ||
      row.purpose !== 'submission' ||
      row.targetId !== input.assignmentId ||
      (row.submissionId !== null && row.submissionId !== input.submissionId)
    )
      throw badRequest(`body.fileIds: ${id} is not one of your files for this assignment`);
    if (row.status !== 'ready')
      throw new AppError(
        409,
        ErrorCode.filesNotReady,
        `The file "${row.name}" is still uploading; submit once it is stored.`,
      );
  }
  await tx.update(files).set({ submissionId: input.submissionId }).where(inArray(files.id, ids));
}

/**
 * A new post's files (DESIGN §19), in its transaction: every one the author's own ready upload for
 * this course, not on a post yet. One statement; a refusal rolls the post back with it.
 */
export async function attachPostFiles(
  tx: Tx,
  input: { authorId: string; courseId: string; postId: string; fileIds: readonly string[] },
): Promise<FileSummary[]> {
  const ids = [...new Set(input.fileIds)];
  if (ids.length === 0) return [];
  const attached = await tx
    .update(files)
    .set({ postId: input.postId })
    .where(
      and(
        inArray(files.id, ids),
        eq(files.uploaderId, input.authorId),
        eq(files.purpose, 'post'),
        eq(files.courseId, input.courseId),
        isNull(files.postId),
        eq(files.status, 'ready'),
      ),
    )
    .returning();
  if (attached.length < ids.length) {
    // Only on a refusal: say which file and why.
    const found = new Set(attached.map((r) => r.id));
    const missing = ids.find((id) => !found.has(id))!;
    const [row] = await tx.select().from(files).where(eq(files.id, missing));
    if (row && row.status === 'pending' && row.uploaderId === input.authorId && row.purpose === 'post')
      throw new AppError(
        409,
        ErrorCode.filesNotReady,
        `The file "${row.name}" is still uploading; post once it is stored.`,
      );
    throw badRequest(`body.fileIds: ${missing} is not one of your files for a post in this course`);
  }
  return attached
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id))
    .map(toSummary);
}

/** Deletes a post's files' rows in its deletion's transaction; the bytes go after commit (`discard`). */
export async function takePostFiles(tx: Tx, postId: string) {
  return tx.delete(files).where(eq(files.postId, postId)).returning();
}

/** The files handed in with each of these submissions, in upload order. */
export async function filesOfSubmissions(
  db: Db | Tx,
  submissionIds: string[],
): Promise<Map<string, FileSummary[]>> {
  const bySubmission = new Map<string, FileSummary[]>();
  if (submissionIds.length === 0) return bySubmission;
  const rows = await db
    .select()
    .from(files)
    .where(and(inArray(files.submissionId, submissionIds), eq(files.status, 'ready')))
    .orderBy(asc(files.createdAt), asc(files.id));
  for (const row of rows) {
    const list = bySubmission.get(row.submissionId!) ?? [];
    list.push(toSummary(row));
    bySubmission.set(row.submissionId!, list);
  }
  return bySubmission;
}

/** The ready files a user uploaded, oldest first. */
const filesRowsOf = (db: Db | Tx, userId: string) =>
  db
    .select()
    .from(files)
    .where(and(eq(files.uploaderId, userId), eq(files.status, 'ready')))
    .orderBy(asc(files.createdAt), asc(files.id));

/** My files' folders in the zip of Download my data. */
const MY_FOLDERS: Record<FilePurpose, string> = {
  submission: 'My work',
  assignment: 'Materials',
  feedback: 'Feedback I gave',
  post: 'Posts',
  comment: 'Comments',
};

/** Every file a user uploaded, for "Download my data" (DESIGN §15, §18). */
export async function filesOfUser(db: Db | Tx, userId: string) {
  const rows = await filesRowsOf(db, userId);
  return rows.map((r) => ({
    ...toSummary(r),
    purpose: r.purpose,
    assignmentId: r.targetId,
    uploadedAt: r.createdAt.toISOString(),
  }));
}

/** Downloads, removals and the teacher's zip (DESIGN §18). */
export function createFileService({
  db,
  outbox,
  storage,
  uploads,
  log,
}: {
  db: Db;
  outbox: Outbox;
  storage: FileStorage;
  uploads: Uploads;
  log: FastifyBaseLogger;
}) {
  return {
    /**
     * An assignment's materials and one student's feedback files, as far as the caller may see them
     * (the same rule as a download, `maySee`): its teacher, any student's feedback by `studentId`; an
     * active member, the materials and their own feedback once returned. Anyone else: 404.
     */
    async assignmentFiles(
      caller: Caller,
      assignmentId: string,
      studentId: string | undefined,
    ): Promise<AssignmentFiles> {
      const [target] = await db
        .select({
          teaches: sql<boolean>`${teaches(caller.userId)}`,
          membership: courseMembers.status,
          assigned: sql<boolean>`${assignedTo(caller.userId)}`,
        })
        .from(assignments)
        .innerJoin(courses, eq(courses.id, assignments.courseId))
        .leftJoin(
          courseMembers,
          and(eq(courseMembers.courseId, courses.id), eq(courseMembers.studentId, caller.userId)),
        )
        .where(
          and(eq(assignments.id, assignmentId), isNull(assignments.deletedAt), isNull(courses.deletedAt)),
        );
      const teacher = caller.role === 'teacher' && target?.teaches === true;
      // A student: an active member it is published for (DESIGN §20).
      if (!target || (!teacher && (target.membership !== 'active' || !target.assigned)))
        throw notFound('Assignment not found.');
      const whose = teacher ? studentId : caller.userId;
      const rows = await db
        .select({ id: files.id })
        .from(files)
        .where(
          and(
            eq(files.targetId, assignmentId),
            eq(files.status, 'ready'),
            or(
              eq(files.purpose, 'assignment'),
              whose ? and(eq(files.purpose, 'feedback'), eq(files.studentId, whose)) : undefined,
            ),
          ),
        )
        .orderBy(asc(files.createdAt), asc(files.id));
      const seen = (await Promise.all(rows.map(({ id }) => fileWithParents(db, id, caller.userId)))).filter(
        (row) => maySee(caller, row),
      );
      return {
        materials: seen
          .filter((row) => row!.file.purpose === 'assignment')
          .map((row) => toSummary(row!.file)),
        feedback: seen.filter((row) => row!.file.purpose === 'feedback').map((row) => toSummary(row!.file)),
      };
    },

    /** The file if the caller may see it (404 otherwise), as bytes (a Range of them) or a presigned redirect. */
    async download(
      caller: Caller,
      id: string,
      options: { inline: boolean; range?: string },
    ): Promise<Download> {
      const row = await fileWithParents(db, id, caller.userId);
      if (!maySee(caller, row)) throw notFound(NOT_FOUND);
      const { file } = row;
      const size = file.storedSize ?? 0;
      const headers = fileHeaders(
        { name: file.name, mime: file.mime ?? 'application/octet-stream' },
        options.inline,
      );
      if (storage.presign) {
        const location = await storage.presign(file.storageKey, {
          contentType: headers['content-type']!,
          contentDisposition: headers['content-disposition']!,
        });
        return { kind: 'redirect', headers, location };
      }
      const range = rangeOf(options.range, size);
      const body = await storage.open(file.storageKey, range).catch((error: unknown) => {
        // Its bytes are gone (removed by hand, a lost volume): not there, rather than a 500.
        log.error({ err: error, id }, 'a ready file has no bytes');
        throw notFound(NOT_FOUND);
      });
      if (!range)
        return { kind: 'bytes', status: 200, headers: { ...headers, 'content-length': String(size) }, body };
      return {
        kind: 'bytes',
        status: 206,
        headers: {
          ...headers,
          'content-length': String(range.end - range.start + 1),
          'content-range': `bytes ${range.start}-${range.end}/${size}`,
        },
        body,
      };
    },

    /** Its uploader removes it while its parent may change (access.ts); anyone else, 404. */
    async remove(caller: Caller, id: string): Promise<void> {
      const row = await fileWithParents(db, id, caller.userId);
      if (!mayRemove(caller, row)) throw notFound(NOT_FOUND);
      const gone = await outbox.transaction(async (tx, record) => {
        // Who could see it, read before it goes (a feedback file's rule looks at its row).
        const rooms = await readyAudience(tx, row.file);
        const [deleted] = await tx
          .delete(files)
          .where(and(eq(files.id, id), row.file.submissionId ? undefined : isNull(files.submissionId)))
          .returning();
        if (!deleted) return undefined;
        if (rooms.length > 0)
          record(
            'file:deleted',
            {
              fileId: deleted.id,
              purpose: deleted.purpose as FilePurpose,
              assignmentId: deleted.targetId!,
              courseId: deleted.courseId!,
              studentId: deleted.studentId,
            },
            rooms,
          );
        return deleted;
      });
      if (!gone) throw notFound(NOT_FOUND);
      await removeBytes(gone);
    },

    /**
     * Every handed-in file of an assignment as one zip, a folder per student ("Name (id8)/file"),
     * streamed as it is read (DESIGN §18); the course's teacher only.
     */
    async submissionsZip(caller: Caller, assignmentId: string): Promise<{ name: string; body: Readable }> {
      const [assignment] = await db
        .select({
          title: assignments.title,
          id: courses.id,
          teacherId: courses.teacherId,
          deletedAt: assignments.deletedAt,
        })
        .from(assignments)
        .innerJoin(courses, eq(courses.id, assignments.courseId))
        .where(eq(assignments.id, assignmentId));
      await requireTeacherOfAssignment(db, caller, assignment, assignmentId, 'download its submissions');
      const rows = await db
        .select({ file: files, studentName: profiles.fullName })
        .from(files)
        .innerJoin(submissions, eq(submissions.id, files.submissionId))
        .innerJoin(profiles, eq(profiles.id, files.studentId))
        .where(
          and(eq(files.targetId, assignmentId), eq(files.purpose, 'submission'), eq(files.status, 'ready')),
        )
        .orderBy(asc(profiles.fullName), asc(files.createdAt));
      const zip = zipOf(
        rows.map(({ file, studentName }) => ({
          folder: cleanFileName(`${studentName} (${file.studentId!.slice(0, 8)})`) ?? file.studentId!,
          file,
        })),
        (err) => log.warn({ err, assignmentId }, 'submissions zip failed'),
      );
      const name = `${cleanFileName(assignment!.title.replace(/[^\p{L}\p{N} ._-]/gu, '_')) ?? 'submissions'}.zip`;
      return { name, body: zip };
    },

    /**
     * Every file the caller uploaded and the server keeps, as one zip with a folder per kind (Download
     * my data, DESIGN §15 and §18): the data's JSON lists them, this holds their bytes.
     */
    async myFilesZip(caller: Caller): Promise<Readable> {
      const rows = await filesRowsOf(db, caller.userId);
      return zipOf(
        rows.map((file) => ({ folder: MY_FOLDERS[file.purpose as FilePurpose], file })),
        (err) => log.warn({ err, userId: caller.userId }, 'my files zip failed'),
      );
    },

    /** Removes the bytes of rows already deleted (a post's files, deleted with it: `takePostFiles`). */
    async discard(rows: readonly (typeof files.$inferSelect)[]): Promise<void> {
      for (const row of rows) await removeBytes(row);
    },

    /**
     * The daily sweep: uploads left pending for a day, and files whose parent is gone for good (an
     * account deleted, the bin purged: the foreign keys nulled), lose their bytes and their row.
     */
    async sweep(tx: Tx, now: Date): Promise<number> {
      const dayAgo = new Date(now.getTime() - 24 * 3600 * 1000);
      const doomed = await tx
        .select()
        .from(files)
        .where(
          or(
            and(eq(files.status, 'pending'), lte(files.createdAt, dayAgo)),
            isNull(files.uploaderId),
            isNull(files.courseId),
            and(inArray(files.purpose, ['assignment', 'submission', 'feedback']), isNull(files.targetId)),
            // A post's file left in a composer for a day (or its post deleted for good under it).
            and(eq(files.purpose, 'post'), isNull(files.postId), lte(files.createdAt, dayAgo)),
            and(inArray(files.purpose, ['submission', 'feedback']), isNull(files.studentId)),
          ),
        )
        .limit(500);
      for (const row of doomed) {
        await removeBytes(row);
        await tx.delete(files).where(eq(files.id, row.id));
      }
      return doomed.length;
    },
  };

  /**
   * Files as one zip, streamed as each is read: `folder/name`, a second file of the same name
   * numbered ("2 name"). A file that cannot be read ends the zip (the download breaks off, logged).
   */
  function zipOf(
    entries: { folder: string; file: typeof files.$inferSelect }[],
    failed: (err: unknown) => void,
  ): ZipArchive {
    const zip = new ZipArchive({ zlib: { level: 6 } });
    const used = new Set<string>();
    void (async () => {
      for (const { folder, file } of entries) {
        let entry = `${folder}/${file.name}`;
        for (let n = 2; used.has(entry); n++) entry = `${folder}/${n} ${file.name}`;
        used.add(entry);
        zip.append(await storage.open(file.storageKey), {
          name: entry,
          date: file.readyAt ?? file.createdAt,
        });
      }
      await zip.finalize();
    })().catch((err: unknown) => {
      failed(err);
      zip.abort();
    });
    return zip;
  }

  async function removeBytes(row: typeof files.$inferSelect): Promise<void> {
    // Staged bytes too: a crash between storing a finished upload and clearing its staging copy.
    await uploads.discard(row.id);
    if (row.status === 'ready')
      await storage
        .remove(row.storageKey)
        .catch((err: unknown) => log.warn({ err, id: row.id }, 'file bytes not removed'));
  }
}
export type FileService = ReturnType<typeof createFileService>;

/** Feedback files the student may see from now on (a Return's transaction). */
/**
 * releasedFeedback as a SQL column for a grade's standing query (issue 30: a grade in three round
 * trips): json text of `[{ file: FileSummary, courseId }]` (toSummary's shape), or null for none.
 */
export const releasedFeedbackColumn = (assignmentId: SQL, studentId: SQL, now: Date) =>
  sql`(select json_agg(json_build_object('file', json_build_object('id', f.id, 'name', f.name,
        'size', coalesce(f.stored_size, f.declared_size), 'type', coalesce(f.mime, 'application/octet-stream')),
        'courseId', f.course_id) order by f.created_at, f.id)::text
    from files f where f.target_id = ${assignmentId} and f.student_id = ${studentId} and f.purpose = 'feedback'
      and f.status = 'ready' and f.ready_at is not null and f.ready_at <= ${now.toISOString()}::timestamptz)`;

export async function releasedFeedback(tx: Tx, assignmentId: string, studentId: string, now: Date) {
  return tx
    .select()
    .from(files)
    .where(
      and(
        eq(files.targetId, assignmentId),
        eq(files.studentId, studentId),
        eq(files.purpose, 'feedback'),
        eq(files.status, 'ready'),
        isNotNull(files.readyAt),
        lte(files.readyAt, now),
      ),
    );
}
