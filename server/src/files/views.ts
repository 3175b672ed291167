import { eq } from 'drizzle-orm';
import type { FileSummary } from '@classwave/shared';
import type { Tx } from '../db/client.js';
import { assignments, courses } from '../db/schema.js';
import { audience, memberStudentRoom } from '../realtime/rooms.js';
import { feedbackReleased, fileWithParents, type FileRow } from './access.js';

/** A ready file as its readers see it: id, name, stored size and sniffed type. */
export const toSummary = (row: FileRow): FileSummary => ({
  id: row.id,
  name: row.name,
  size: row.storedSize ?? row.declaredSize,
  type: row.mime ?? 'application/octet-stream',
});

/**
 * Who hears `file:ready` (DESIGN §18): an assignment's materials, its course; a student's file,
 * their own tabs and the course's teachers (whose panel shows the upload; the bytes wait for the
 * hand-in); feedback, the teacher, and the student only once the grade is returned (while an
 * active member: the outbox resolves that room in the transaction).
 */
export async function readyAudience(tx: Tx, file: FileRow): Promise<string[]> {
  if (!file.courseId || !file.targetId) return [];
  const [course] = await tx
    .select({
      teacherId: courses.teacherId,
      // The assignment's students only (DESIGN §20): nobody while it is scheduled.
      assignment: {
        id: assignments.id,
        courseId: assignments.courseId,
        assignees: assignments.assignees,
        publishedAt: assignments.publishedAt,
      },
    })
    .from(courses)
    .leftJoin(assignments, eq(assignments.id, file.targetId))
    .where(eq(courses.id, file.courseId));
  if (!course) return [];
  const teachers = audience.teachers(file.courseId, course.teacherId);
  if (file.purpose === 'assignment')
    return course.assignment ? audience.assignment(course.assignment, course.teacherId) : teachers;
  if (!file.studentId) return teachers;
  if (file.purpose === 'submission')
    return audience.studentAndTeachers(file.studentId, file.courseId, course.teacherId);
  const parents = await fileWithParents(tx, file.id, file.studentId);
  return parents && feedbackReleased(parents, file.readyAt)
    ? [memberStudentRoom(file.studentId, file.targetId), ...teachers]
    : teachers;
}
