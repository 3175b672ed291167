import { eq } from 'drizzle-orm';
import { ErrorCode } from '@classwave/shared';
import type { Db, Tx } from '../db/client.js';
import { courses } from '../db/schema.js';
import { AppError } from '../http/errors.js';

/**
 * The read-only rule of an archived course (DESIGN §20), in a leaf file so any module may ask it
 * (the uploads, whose target is in their metadata, not their path) without importing the archive's routes.
 */

/** 409 course_archived: what a write to an archived course answers, naming the way out. */
export const courseArchived = () =>
  new AppError(
    409,
    ErrorCode.courseArchived,
    'This course is archived, so it is read-only. Its owner can unarchive it to make changes.',
  );

/** Throws 409 course_archived when the course is archived; a course that is not there is the caller's to answer. */
export async function requireCurrentCourse(tx: Db | Tx, courseId: string): Promise<void> {
  const [row] = await tx
    .select({ archivedAt: courses.archivedAt })
    .from(courses)
    .where(eq(courses.id, courseId));
  if (row?.archivedAt) throw courseArchived();
}
