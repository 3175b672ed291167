import { and, desc, eq, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import type { BinContents, BinItem, BinKind, BinList } from '@classwave/shared';
import type { Caller } from '../auth/caller.js';
import type { Clock } from '../clock.js';
import type { Db, Tx } from '../db/client.js';
import { assignments, courseMembers, courses, profiles, submissions } from '../db/schema.js';
import type { DomainEventBus } from '../events.js';
import { conflict, notFound } from '../http/errors.js';
import { found, requireTeacher } from '../policies.js';
import type { Outbox } from '../realtime/outbox.js';
import { audience, userRoom } from '../realtime/rooms.js';
import { requireOwnerOf, requireTeacherOf, requireTeacherOfAssignment } from '../classes/visibility.js';
import { teaches, teachesCourseRow } from '../courses/teaching.js';
import { recordAssignment } from '../assignments/service.js';
import { toCourse } from '../courses/service.js';
import { contentsOf, purgeAt, takeOutOfBin } from './store.js';

const NOTHING_TO_RESTORE = 'Nothing in your bin by that id.';

/**
 * The bin (DESIGN §17): what a teacher deleted, listed with what it holds, and restored. Only the
 * course's teacher sees or restores it; a binned course or assignment is nowhere else.
 */
export function createBinService({
  db,
  clock,
  outbox,
  bus,
}: {
  db: Db;
  clock: Clock;
  outbox: Outbox;
  bus: DomainEventBus;
}) {
  async function item(
    tx: Db | Tx,
    kind: BinKind,
    row: { id: string; title: string; deletedAt: Date | null },
    course: { id: string; title: string },
  ): Promise<BinItem> {
    const deletedAt = row.deletedAt!;
    return {
      kind,
      id: row.id,
      title: row.title,
      courseId: course.id,
      courseTitle: course.title,
      deletedAt: deletedAt.toISOString(),
      purgeAt: purgeAt(deletedAt).toISOString(),
      contents: await contentsOf(tx, kind, row.id),
    };
  }

  /** Binned courses (`courseId` undefined: all the teacher's) and binned assignments, newest first. */
  async function binnedOf(teacherId: string, courseId?: string): Promise<BinItem[]> {
    const ofCourse = courseId ? eq(courses.id, courseId) : undefined;
    const [binnedCourses, binnedAssignments] = await Promise.all([
      db
        .select()
        .from(courses)
        .where(and(eq(courses.teacherId, teacherId), isNotNull(courses.deletedAt), ofCourse)),
      db
        .select({ assignment: assignments, course: courses })
        .from(assignments)
        .innerJoin(courses, eq(courses.id, assignments.courseId))
        .where(and(teaches(teacherId), isNotNull(assignments.deletedAt), ofCourse))
        .orderBy(desc(assignments.deletedAt)),
    ]);
    const items = [
      ...(await Promise.all(binnedCourses.map((c) => item(db, 'course', c, c)))),
      ...(await Promise.all(binnedAssignments.map((r) => item(db, 'assignment', r.assignment, r.course)))),
    ];
    return items.sort((a, b) => b.deletedAt.localeCompare(a.deletedAt));
  }

  return {
    /** Everything in the teacher's bin: how a binned course is found (its own page is gone). */
    async list(caller: Caller): Promise<BinList> {
      requireTeacher(caller, 'have a bin');
      return { items: await binnedOf(caller.userId) };
    },

    /**
     * One course's bin: its binned assignments, and the course itself when it is binned (this
     * route answers for a binned course's id too). Its teacher only (a member: 403, others 404).
     */
    async ofCourse(caller: Caller, courseId: string): Promise<BinList> {
      const [course] = await db.select().from(courses).where(eq(courses.id, courseId));
      // The owner rule, but a binned course is still its teacher's to look into.
      await requireTeacherOf(db, caller, course && { ...course, deletedAt: null }, 'see its bin');
      return { items: await binnedOf(caller.userId, courseId) };
    },

    /** What deleting a live course or assignment would move to the bin (its confirmation names it). */
    async contents(caller: Caller, kind: BinKind, id: string): Promise<BinContents> {
      if (kind === 'course') {
        const [course] = await db.select().from(courses).where(eq(courses.id, id));
        await requireOwnerOf(db, caller, course, 'delete it');
      } else {
        const [row] = await db
          .select({ course: courses })
          .from(assignments)
          .innerJoin(courses, eq(courses.id, assignments.courseId))
          .where(and(eq(assignments.id, id), isNull(assignments.deletedAt)));
        await requireTeacherOfAssignment(db, caller, row?.course, id, 'delete its assignments');
      }
      return contentsOf(db, kind, id);
    },

    /**
     * Takes a course or an assignment out of the bin (its teacher only; anyone else, or something
     * not in the bin: 404). Everyone who saw it before sees it again at once: the course's
     * `course:created`, the assignment's `assignment:created` (DESIGN §8).
     */
    async restore(caller: Caller, kind: BinKind, id: string): Promise<void> {
      const members = await outbox.transaction(async (tx, record): Promise<string[]> => {
        const now = clock.now();
        if (kind === 'assignment') {
          const [row] = await tx
            .select({ assignment: assignments, course: courses })
            .from(assignments)
            .innerJoin(courses, eq(courses.id, assignments.courseId))
            .where(and(eq(assignments.id, id), isNotNull(assignments.deletedAt)))
            .for('update', { of: assignments });
          if (!row || !(await teachesCourseRow(tx, row.course, caller.userId)))
            throw notFound(NOTHING_TO_RESTORE);
          // A live assignment is always in a live course (a course is binned only once it holds
          // no live assignment).
          if (row.course.deletedAt) throw conflict(`Restore the course ${row.course.title} first.`);
          await takeOutOfBin(tx, 'assignment', id, now);
          const [counts] = await tx
            .select({
              // A grade for missing work is no submission (DESIGN §17), and it is graded.
              submissionCount: sql<number>`(count(*) filter (where ${submissions.submittedAt} is not null))::int`,
              needsGrading: sql<number>`(count(*) filter (where ${submissions.grade} is null))::int`,
            })
            .from(submissions)
            .where(eq(submissions.assignmentId, id));
          recordAssignment(
            record,
            'assignment:created',
            { ...row.assignment, deletedAt: null, deletedBy: null },
            row.course.title,
            row.course.teacherId,
            counts ?? { submissionCount: 0, needsGrading: 0 },
            now,
            true,
          );
          return [];
        }
        const [row] = await tx
          .select({ course: courses, teacherName: profiles.fullName })
          .from(courses)
          .innerJoin(profiles, eq(profiles.id, courses.teacherId))
          .where(and(eq(courses.id, id), isNotNull(courses.deletedAt)))
          .for('update', { of: courses });
        if (row?.course.teacherId !== caller.userId) throw notFound(NOTHING_TO_RESTORE);
        // A course code is one per teacher among live courses; one made meanwhile may hold it.
        const [clash] = await tx
          .select({ id: courses.id })
          .from(courses)
          .where(
            and(
              eq(courses.teacherId, caller.userId),
              eq(sql`upper(${courses.code})`, row.course.code.toUpperCase()),
              ne(courses.id, id),
              isNull(courses.deletedAt),
            ),
          )
          .limit(1);
        if (clash)
          throw conflict(
            `You already have a course with the code ${row.course.code}. Change its code first.`,
          );
        await takeOutOfBin(tx, 'course', id, now);
        const course = { ...row.course, deletedAt: null, deletedBy: null };
        const teacherName = found(row, 'Course').teacherName;
        // Its members see it again (without the join code), its teacher's tabs with it. To each
        // member's own room: a binned course is no room of anyone's (sockets and the replay leave it
        // out), so their sockets join it again only once this has committed.
        const active = await tx
          .select({ studentId: courseMembers.studentId })
          .from(courseMembers)
          .where(and(eq(courseMembers.courseId, id), eq(courseMembers.status, 'active')));
        const studentIds = active.map((m) => m.studentId);
        if (studentIds.length > 0)
          record('course:created', toCourse(course, teacherName, false), studentIds.map(userRoom));
        record(
          'course:created',
          toCourse(course, teacherName, true),
          audience.teachers(course.id, caller.userId),
        );
        return studentIds;
      });
      for (const studentId of members) bus.emit('membership', { studentId, courseId: id, active: true });
    },
  };
}

export type BinService = ReturnType<typeof createBinService>;
