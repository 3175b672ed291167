import { and, eq, isNull } from 'drizzle-orm';
import type { Course } from '@classwave/shared';
import type { Caller } from '../auth/caller.js';
import type { Clock } from '../clock.js';
import type { Tx } from '../db/client.js';
import { assignments, courses, profiles } from '../db/schema.js';
import { requireOwnerOf } from '../classes/visibility.js';
import { toCourse } from '../courses/service.js';
import { cancelReminders, scheduleReminders } from '../notifications/reminders.js';
import { found } from '../policies.js';
import type { Outbox } from '../realtime/outbox.js';
import { audience } from '../realtime/rooms.js';

/**
 * Archiving a course (DESIGN §20): its owner makes it read-only and takes it out of everyone's
 * course lists, calendar and to-do, into "Past classes"; unarchiving brings it back. Nothing is
 * deleted or hidden: its teachers and members still read its grades, work and stream. The
 * read-only rule itself is guard.ts.
 */
export function createArchiveService({ clock, outbox }: { clock: Clock; outbox: Outbox }) {
  /** Sets or clears `archived_at`; its reminders stop or start again with it, in the same transaction. */
  async function setArchived(caller: Caller, id: string, archive: boolean): Promise<Course> {
    return outbox.transaction(async (tx, record) => {
      const [locked] = await tx.select().from(courses).where(eq(courses.id, id)).for('update');
      const course = await requireOwnerOf(tx, caller, locked, archive ? 'archive it' : 'unarchive it');
      const [teacher] = await tx
        .select({ fullName: profiles.fullName })
        .from(profiles)
        .where(eq(profiles.id, course.teacherId));
      const teacherName = found(teacher, 'Profile').fullName;
      // Asked twice (two tabs, a retry): the course as it is, and nothing said again.
      if ((course.archivedAt !== null) === archive) return toCourse(course, teacherName, true);
      const [row] = await tx
        .update(courses)
        .set({ archivedAt: archive ? clock.now() : null })
        .where(eq(courses.id, id))
        .returning();
      await followReminders(tx, id, archive, clock.now());
      // Open tabs move it between the lists: members in their view (no join code), teachers in theirs.
      record('course:updated', toCourse(row!, teacherName, false), audience.members(id));
      const mine = toCourse(row!, teacherName, true);
      record('course:updated', mine, audience.teachers(id, course.teacherId));
      return mine;
    });
  }

  return {
    /** The owner archives the course (co-teachers 403); archiving an archived one changes nothing. */
    archive: (caller: Caller, id: string) => setArchived(caller, id, true),
    /** The owner brings it back; unarchiving a current one changes nothing. */
    unarchive: (caller: Caller, id: string) => setArchived(caller, id, false),
  };
}

/**
 * An archived course reminds nobody (DESIGN §20). Unarchived, its assignments still ahead get their
 * reminders again; those whose date passed while it was archived get none (no late "due soon", no
 * "closed" notice for a date long gone), as a new assignment made past its due date.
 */
async function followReminders(tx: Tx, courseId: string, archived: boolean, now: Date): Promise<void> {
  const live = await tx
    .select({ id: assignments.id, dueDate: assignments.dueDate })
    .from(assignments)
    .where(and(eq(assignments.courseId, courseId), isNull(assignments.deletedAt)));
  for (const { id, dueDate } of live) {
    if (archived) await cancelReminders(tx, id);
    else await scheduleReminders(tx, id, dueDate, now);
  }
}

export type ArchiveService = ReturnType<typeof createArchiveService>;
