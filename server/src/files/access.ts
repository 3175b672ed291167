import { and, count, eq, isNotNull, sql, sum } from 'drizzle-orm';
import { assignedTo } from '../assignments/visibility.js';
import { teaches } from '../courses/teaching.js';
import { ErrorCode, type FilePurpose } from '@classwave/shared';
import type { Caller } from '../auth/caller.js';
import { requireTeacherOf, requireTeacherOfAssignment } from '../classes/visibility.js';
import { requireCurrentCourse } from '../archive/rules.js';
import type { Db, Tx } from '../db/client.js';
import { assignments, courseMembers, courses, files, posts, submissions } from '../db/schema.js';
import { AppError, conflict, notFound } from '../http/errors.js';
import { requireTeacher } from '../policies.js';
import { requireOpen, submitTarget } from '../submissions/rules.js';

/**
 * Who may upload, see and remove a file (DESIGN §18): the parent's rules, one function each. A
 * file nobody may see answers 404 whoever asks (never a 403 that tells it is there).
 */

export type FileRow = typeof files.$inferSelect;

export interface UploadLimits {
  maxBytes: number;
  maxFiles: number;
  quotaBytes: number;
}

/** What an upload asks for, from its tus metadata (checked in uploads.ts). */
export interface UploadRequest {
  purpose: FilePurpose;
  /** The assignment the file belongs to. */
  targetId: string;
  /** feedback only: the student the feedback is for. */
  studentId: string | undefined;
  name: string;
  size: number;
}

const MB = 1024 * 1024;
const inMb = (bytes: number) => `${Math.round((bytes / MB) * 10) / 10} MB`;

/** The assignment (not binned) with its course, for a teacher's upload. */
async function assignmentOfTeacher(tx: Tx, caller: Caller, assignmentId: string, action: string) {
  requireTeacher(caller, action);
  const [row] = await tx
    .select({ id: courses.id, teacherId: courses.teacherId, deletedAt: assignments.deletedAt })
    .from(assignments)
    .innerJoin(courses, eq(courses.id, assignments.courseId))
    .where(eq(assignments.id, assignmentId));
  return requireTeacherOfAssignment(tx, caller, row, assignmentId, action);
}

/**
 * Checks a new upload before a byte is stored and returns what its row records: the purpose's
 * permission (a submission's student may still hand work in; materials and feedback are the
 * course's teacher's), the size limit, the count a submission may carry and the uploader's quota.
 * Run under the uploader's lock (uploads.ts), so two racing uploads cannot both pass the quota.
 */
export async function checkUpload(
  tx: Tx,
  caller: Caller,
  upload: UploadRequest,
  limits: UploadLimits,
  now: Date,
): Promise<{ courseId: string; studentId: string | null }> {
  if (upload.purpose === 'comment')
    throw new AppError(
      422,
      ErrorCode.purposeNotAvailable,
      'Files for a comment cannot be uploaded yet: attachments on comments are not there.',
    );
  if (upload.size > limits.maxBytes)
    throw new AppError(
      413,
      ErrorCode.fileTooLarge,
      `A file may be at most ${inMb(limits.maxBytes)} (UPLOAD_MAX_BYTES); this one is ${inMb(upload.size)}.`,
    );
  let placed: { courseId: string; studentId: string | null };
  if (upload.purpose === 'submission') {
    const target = await submitTarget(tx, caller, upload.targetId);
    requireOpen(target, now);
    const [handedIn] = await tx
      .select({ id: submissions.id })
      .from(submissions)
      .where(
        and(
          eq(submissions.assignmentId, upload.targetId),
          eq(submissions.studentId, caller.userId),
          isNotNull(submissions.submittedAt),
        ),
      );
    if (handedIn)
      throw conflict('You have already submitted this assignment; unsubmit it to change its files.');
    const [{ n } = { n: 0 }] = await tx
      .select({ n: count() })
      .from(files)
      .where(
        and(
          eq(files.uploaderId, caller.userId),
          eq(files.purpose, 'submission'),
          eq(files.targetId, upload.targetId),
        ),
      );
    if (n >= limits.maxFiles)
      throw new AppError(
        422,
        ErrorCode.tooManyFiles,
        `A submission may carry at most ${limits.maxFiles} files (UPLOAD_MAX_FILES); remove one first.`,
      );
    placed = { courseId: target.courseId, studentId: caller.userId };
  } else if (upload.purpose === 'post') {
    // A post's file is uploaded in the composer before the post exists: its target is the course.
    requireTeacher(caller, 'attach files to posts');
    const [course] = await tx
      .select({ id: courses.id, teacherId: courses.teacherId, deletedAt: courses.deletedAt })
      .from(courses)
      .where(eq(courses.id, upload.targetId));
    await requireTeacherOf(tx, caller, course, 'attach files to its posts');
    placed = { courseId: upload.targetId, studentId: null };
  } else if (upload.purpose === 'assignment') {
    const course = await assignmentOfTeacher(tx, caller, upload.targetId, 'add files to its assignments');
    placed = { courseId: course.id, studentId: null };
  } else {
    const course = await assignmentOfTeacher(tx, caller, upload.targetId, 'give feedback files');
    if (!upload.studentId)
      throw new AppError(400, ErrorCode.validationFailed, 'metadata.studentId is required for feedback');
    const [member] = await tx
      .select({ status: courseMembers.status })
      .from(courseMembers)
      .where(and(eq(courseMembers.courseId, course.id), eq(courseMembers.studentId, upload.studentId)));
    if (member?.status !== 'active') throw notFound('Student not found in this course.');
    placed = { courseId: course.id, studentId: upload.studentId };
  }
  // An archived course takes no new files (DESIGN §20); its path does not name it, so the guard cannot.
  await requireCurrentCourse(tx, placed.courseId);
  const [{ used } = { used: null }] = await tx
    .select({ used: sum(files.declaredSize) })
    .from(files)
    .where(eq(files.uploaderId, caller.userId));
  const usedBytes = Number(used ?? 0);
  if (usedBytes + upload.size > limits.quotaBytes)
    throw new AppError(
      413,
      ErrorCode.quotaExceeded,
      `Your files may take at most ${inMb(limits.quotaBytes)} (UPLOAD_QUOTA_BYTES); ${inMb(usedBytes)} are in use.`,
    );
  return placed;
}

/** A file with what deciding on it needs: its course's teacher, the student's membership and grade. */
export async function fileWithParents(db: Db | Tx, fileId: string, callerId: string) {
  const [row] = await db
    .select({
      file: files,
      teacherId: courses.teacherId,
      /** `callerId` teaches the course (its owner or a co-teacher, DESIGN §20). */
      callerTeaches: sql<boolean>`${teaches(callerId)}`,
      courseGone: sql<boolean>`${courses.deletedAt} is not null`,
      /** No live assignment: binned, purged, or none (a post's file). */
      assignmentGone: sql<boolean>`${assignments.id} is null or ${assignments.deletedAt} is not null`,
      /** A post's file: its post went out (members see it); false while scheduled, or unattached. */
      postPublished: sql<boolean>`${posts.publishedAt} is not null`,
      gradeRelease: assignments.gradeRelease,
      membership: sql<string | null>`(select ${courseMembers.status} from ${courseMembers}
        where ${courseMembers.courseId} = ${files.courseId} and ${courseMembers.studentId} = ${callerId})`,
      /** The assignment is published and for `callerId` (DESIGN §20), when a student. */
      assigned: sql<boolean>`${assignedTo(callerId)}`,
      returnedAt: submissions.returnedAt,
      held: sql<boolean>`coalesce(${submissions.grade} is not null and (${submissions.returnedAt} is null
        or ${submissions.grade} is distinct from ${submissions.returnedGrade}
        or ${submissions.feedback} is distinct from ${submissions.returnedFeedback}
        or ${submissions.rubricScores} is distinct from ${submissions.returnedRubricScores}), false)`,
    })
    .from(files)
    .innerJoin(courses, eq(courses.id, files.courseId))
    .leftJoin(assignments, eq(assignments.id, files.targetId))
    .leftJoin(posts, eq(posts.id, files.postId))
    .leftJoin(
      submissions,
      and(eq(submissions.assignmentId, files.targetId), eq(submissions.studentId, files.studentId)),
    )
    .where(eq(files.id, fileId));
  return row;
}
export type FileWithParents = NonNullable<Awaited<ReturnType<typeof fileWithParents>>>;

/**
 * A feedback file reaches its student with a returned grade (DESIGN §13, §18): once returned, the
 * files ready by that Return; on auto release, any file while the grade is not held again.
 */
export function feedbackReleased(
  row: Pick<FileWithParents, 'returnedAt' | 'held' | 'gradeRelease'>,
  readyAt: Date | null,
): boolean {
  if (!row.returnedAt || !readyAt) return false;
  return readyAt.getTime() <= row.returnedAt.getTime() || (row.gradeRelease === 'auto' && !row.held);
}

/**
 * May the caller download it? Ready files of a live course and assignment only. The teacher: the
 * materials, the feedback, and a student's files once handed in; an active member: the materials,
 * their own work's files, and their feedback once released. Pending files: nobody (404).
 */
export function maySee(caller: Caller, row: FileWithParents | undefined): row is FileWithParents {
  if (!row || row.file.status !== 'ready' || row.courseGone) return false;
  const { file } = row;
  if (file.purpose === 'post') return maySeePostFile(caller, row);
  if (row.assignmentGone) return false;
  if (caller.role === 'teacher' && row.callerTeaches)
    return file.purpose !== 'submission' || file.submissionId !== null || file.uploaderId === caller.userId;
  if (row.membership !== 'active' || !row.assigned) return false;
  if (file.purpose === 'assignment') return true;
  if (file.studentId !== caller.userId) return false;
  if (file.purpose === 'submission') return true;
  return file.purpose === 'feedback' && feedbackReleased(row, file.readyAt);
}

/**
 * A post's file follows its post (DESIGN §19): its course's teachers once it is on a post (scheduled
 * or not), active members once the post is published. Still in the composer: its uploader alone.
 */
function maySeePostFile(caller: Caller, row: FileWithParents): boolean {
  if (row.file.postId === null) return row.file.uploaderId === caller.userId;
  if (caller.role === 'teacher' && row.callerTeaches) return true;
  return row.membership === 'active' && Boolean(row.postPublished);
}

/**
 * May the caller remove it? A student's file: its uploader, until it is handed in (and while still a
 * member); materials and feedback: any teacher of the live course. An upload still pending may always be abandoned by its uploader.
 */
export function mayRemove(caller: Caller, row: FileWithParents | undefined): row is FileWithParents {
  if (!row) return false;
  const own = row.file.uploaderId === caller.userId;
  if (row.file.status === 'pending') return own;
  // A post's files go with their post (deleted with it); before that, its uploader may take one out of the composer.
  if (row.file.purpose === 'post') return own && row.file.postId === null && !row.courseGone;
  if (row.courseGone || row.assignmentGone) return false;
  if (row.file.purpose === 'submission')
    return own && row.membership === 'active' && row.file.submissionId === null;
  // Materials and feedback belong to the course's teachers together (DESIGN §20): any of them may take one out.
  return caller.role === 'teacher' && Boolean(row.callerTeaches);
}
