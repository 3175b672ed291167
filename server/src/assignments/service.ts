import { randomUUID } from 'node:crypto';
import { and, eq, isNull, max, sql } from 'drizzle-orm';
import {
  atZonedTime,
  ErrorCode,
  isTimeZone,
  SAMPLE_ASSIGNMENT_POINTS,
  type Assignment,
  type Course,
  type CreateAssignmentBody,
  type UpdateAssignmentBody,
} from '@classwave/shared';
import type { Caller } from '../auth/caller.js';
import type { Clock } from '../clock.js';
import type { Db, Tx } from '../db/client.js';
import type { Outbox } from '../realtime/outbox.js';
import { audience, userRoom } from '../realtime/rooms.js';
import { assignments, courses, profiles, submissions } from '../db/schema.js';
import { AppError, badRequest } from '../http/errors.js';
import { found, requireTeacher } from '../policies.js';
import { requireCategoryOf } from '../categories/service.js';
import { requireTeacherOfAssignment } from '../classes/visibility.js';
import { freshSampleCourses, pickDistinct, SAMPLE_ASSIGNMENTS } from '../courses/samples.js';
import { toCourse } from '../courses/service.js';
import { randomJoinCode, retryOnCodeCollision } from '../classes/codes.js';
import type { RecordEvent } from '../events.js';
import { releaseHeld } from '../grading/release.js';
import { moveToBin } from '../bin/store.js';
import { toAssignment, type AssignmentLists } from './queries.js';
import { assignedStudents, publishTime, requireAssignees, schedulePublish } from './assigning.js';
import { createStanding, inboxInTheWrite, writeNewAssignment, type CreateStanding } from './create.js';
import { storeNewAssignmentFor } from './notify.js';

const DAY_MS = 24 * 3600 * 1000;
/** Opens a sandbox course's description, so its teacher knows what it is. */
export const SANDBOX_NOTE = 'Sample course: no students until you share its code.';
const SAMPLE_SUFFIX = / \(sample\)$/;
const SERVER_TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

type AssignmentRow = typeof assignments.$inferSelect;

/**
 * assignment:created / assignment:updated, each audience in its own view (DESIGN §11, §13): the
 * teacher's tabs with the counts; the course's room (its active members) without them, and with a
 * status only when it is the same for every member (a new assignment: nobody has work on it yet).
 * An edit leaves `submission` and `status` null for members: their client keeps its own and
 * recomputes the status (shared workStatus) from the new due date. A restored assignment comes
 * back as `assignment:created` with a null status too: each member's client reads its own work.
 */
export function recordAssignment(
  record: RecordEvent,
  type: 'assignment:created' | 'assignment:updated',
  row: AssignmentRow,
  courseTitle: string,
  teacherId: string,
  counts: { submissionCount: number; needsGrading: number },
  now: Date,
  /** Restored from the bin (DESIGN §17): members may have work on it, so no status for all. */
  restored = false,
): Assignment {
  const teacherView = toAssignment(row, courseTitle, { viewer: 'teacher', ...counts }, now);
  const membersView = toAssignment(
    row,
    courseTitle,
    {
      viewer: 'members',
      status:
        type === 'assignment:created' && !restored
          ? row.dueDate.getTime() < now.getTime()
            ? 'missing'
            : 'not_submitted'
          : null,
    },
    now,
  );
  record(type, teacherView, audience.teachers(row.courseId, teacherId));
  // The students it is for, once published (DESIGN §20): nobody before then.
  const students = audience.assignees(row);
  if (students.length > 0) record(type, membersView, students);
  return teacherView;
}

/** The members' view of a new assignment: nobody has work on it yet, so one status fits all. */
function newForMembers(row: AssignmentRow, courseTitle: string, now: Date): Assignment {
  return toAssignment(
    row,
    courseTitle,
    { viewer: 'members', status: row.dueDate.getTime() < now.getTime() ? 'missing' : 'not_submitted' },
    now,
  );
}

/**
 * A new assignment's events: the teachers' view, and once published the members' one. When its
 * write stored the students' inbox entries and reminders (a class, create.ts), the members' view
 * is recorded `derived` (the rule of `assignment:created` has nothing left to do, nor the
 * member-inbox job after the commit) and to the students it names, as the outbox would resolve
 * the assignees' room; for a larger audience, as recordAssignment records it.
 */
function recordNew(record: RecordEvent, row: AssignmentRow, standing: CreateStanding, now: Date): Assignment {
  const { course } = standing;
  const zero = { submissionCount: 0, needsGrading: 0 };
  const teacherView = toAssignment(row, course.title, { viewer: 'teacher', ...zero }, now);
  record('assignment:created', teacherView, audience.teachers(course.id, course.teacherId));
  if (!row.publishedAt) return teacherView;
  const members = newForMembers(row, course.title, now);
  if (!inboxInTheWrite(standing)) record('assignment:created', members, audience.assignees(row));
  else {
    const rooms = row.assignees ? row.assignees.map(userRoom) : audience.members(course.id);
    if (rooms.length > 0) record('assignment:created', members, rooms, { derived: true });
  }
  return teacherView;
}

/** An assignment's counts for its teacher's view: submissions (a grade for missing work is none) and those ungraded. */
export async function assignmentCounts(
  tx: Tx,
  id: string,
): Promise<{ submissionCount: number; needsGrading: number }> {
  const [counts] = await tx
    .select({
      submissionCount: sql<number>`(count(*) filter (where ${submissions.submittedAt} is not null))::int`,
      needsGrading: sql<number>`(count(*) filter (where ${submissions.grade} is null))::int`,
    })
    .from(submissions)
    .where(eq(submissions.assignmentId, id));
  return counts ?? { submissionCount: 0, needsGrading: 0 };
}

/** The caller's assignment with its course, locked for the change (the owner rule of requireTeacherOf). */
async function lockOwnAssignment(tx: Tx, caller: Caller, id: string, action: string) {
  const [row] = await tx
    .select({ assignment: assignments, course: courses })
    .from(assignments)
    .innerJoin(courses, eq(courses.id, assignments.courseId))
    .where(and(eq(assignments.id, id), isNull(assignments.deletedAt)))
    .for('update', { of: assignments });
  const course = await requireTeacherOfAssignment(tx, caller, row?.course, id, action);
  return { assignment: row!.assignment, course };
}

/**
 * Sets `published_at` where it is null (the row stays locked to the end of the transaction, so a
 * second publisher waits and finds it set) and tells: the teachers an edit ("Scheduled" goes), the
 * students it is for that it is new, which starts their inbox entries and reminders (the rules of
 * `assignment:created`). Undefined when it was published already, or is gone.
 */
async function publishRow(
  tx: Tx,
  record: RecordEvent,
  id: string,
  now: Date,
): Promise<Assignment | undefined> {
  const [row] = await tx
    .update(assignments)
    .set({ publishedAt: now })
    .where(and(eq(assignments.id, id), isNull(assignments.publishedAt), isNull(assignments.deletedAt)))
    .returning();
  if (!row) return undefined;
  const [course] = await tx
    .select({ title: courses.title, teacherId: courses.teacherId })
    .from(courses)
    .where(eq(courses.id, row.courseId));
  const counts = await assignmentCounts(tx, id);
  const teacherView = toAssignment(row, course!.title, { viewer: 'teacher', ...counts }, now);
  record('assignment:updated', teacherView, audience.teachers(row.courseId, course!.teacherId));
  const students = audience.assignees(row);
  if (students.length > 0) record('assignment:created', newForMembers(row, course!.title, now), students);
  return teacherView;
}

/**
 * After `assignees` changed on a published assignment: the students now given it hear it is new
 * (live, and in their inbox); those left out lose it live. A student who had handed work in keeps
 * it (visibility.ts), so is in neither list.
 */
async function tellAssigneeChange(
  tx: Tx,
  record: RecordEvent,
  row: AssignmentRow,
  courseTitle: string,
  saw: Set<string>,
  now: Date,
): Promise<void> {
  const sees = await assignedStudents(tx, row.id);
  const added = [...sees].filter((id) => !saw.has(id));
  const removed = [...saw].filter((id) => !sees.has(id));
  if (added.length > 0) {
    record('assignment:created', newForMembers(row, courseTitle, now), added.map(userRoom));
    await storeNewAssignmentFor(tx, record, now, added, row, courseTitle);
  }
  if (removed.length > 0)
    record('assignment:deleted', { id: row.id, courseId: row.courseId }, removed.map(userRoom));
}

export function createAssignmentService({
  db,
  clock,
  outbox,
  lists,
}: {
  db: Db;
  clock: Clock;
  outbox: Outbox;
  lists: AssignmentLists;
}) {
  return {
    /** Teachers: their own courses' assignments. Students: their active courses', each with their own submission. */
    async list(caller: Caller): Promise<Assignment[]> {
      return lists.visibleTo(caller);
    },

    /**
     * Publishes a scheduled assignment (the publish job, DESIGN §20) in the job's transaction:
     * published_at is set only where it is still null, so of two runners only one tells anybody.
     */
    publish: publishRow,

    /**
     * A new assignment on a course the caller teaches, in three statements (issue 30, DESIGN §22):
     * its standing (create.ts: who may, the category, the students it is for), its write (the row,
     * its jobs, its class's inbox entries) and the outbox's events. The standing answers an
     * archived course's 409 itself, before who may (the route tells the archive guard so).
     */
    async create(caller: Caller, body: CreateAssignmentBody): Promise<Assignment> {
      const dueDate = new Date(body.dueDate);
      if (Number.isNaN(dueDate.getTime())) throw badRequest('body.dueDate must be a valid date-time');
      const now = clock.now();
      const publishAt = publishTime(body.publishAt, now) ?? null;
      return outbox.transaction(async (tx, record) => {
        const standing = await createStanding(tx, caller, body, publishAt === null);
        const row: AssignmentRow = {
          id: randomUUID(),
          title: body.title.trim(),
          description: body.description?.trim() ?? '',
          dueDate,
          maxPoints: body.maxPoints ?? 100,
          courseId: standing.course.id,
          createdAt: now,
          gradeRelease: body.gradeRelease ?? 'auto',
          closesAtDue: body.closesAtDue ?? false,
          deletedAt: null,
          deletedBy: null,
          categoryId: body.categoryId || null,
          rubric: null,
          assignees: standing.assignees,
          // Scheduled (DESIGN §20): its students see it when the publish job sets published_at.
          publishAt,
          publishedAt: publishAt ? null : now,
        };
        await writeNewAssignment(tx, row, standing, now);
        return recordNew(record, row, standing, now);
      });
    },

    /**
     * Sample data (DESIGN §17): never published to students. A new sandbox course of the
     * teacher's, with no students (nobody joins until they share its code), holding three sample
     * assignments of 50, 100 and 150 points due in the coming weeks at 23:59 where the teacher is.
     */
    async createSandbox(
      caller: Caller,
      timeZone: string = SERVER_TIME_ZONE,
    ): Promise<{ course: Course; assignments: Assignment[] }> {
      requireTeacher(caller, 'create sample courses');
      if (!isTimeZone(timeZone))
        throw badRequest('querystring.timeZone must be an IANA time zone such as Europe/Paris');
      const own = await db
        .select({ title: courses.title, code: courses.code })
        .from(courses)
        .where(and(eq(courses.teacherId, caller.userId), isNull(courses.deletedAt)));
      // Titles as freshSampleCourses knows them, so a second sandbox gets "(Section 2)".
      const [sample] = freshSampleCourses(
        own.map((c) => ({ ...c, title: c.title.replace(SAMPLE_SUFFIX, '') })),
        1,
      );
      const now = clock.now();
      const picks = pickDistinct(SAMPLE_ASSIGNMENTS, SAMPLE_ASSIGNMENT_POINTS.length);
      return retryOnCodeCollision(() =>
        outbox.transaction(async (tx, record) => {
          const [teacher] = await tx
            .select({ fullName: profiles.fullName })
            .from(profiles)
            .where(eq(profiles.id, caller.userId))
            .for('update');
          const [row] = await tx
            .insert(courses)
            .values({
              title: `${sample!.title} (sample)`,
              code: sample!.code,
              description: `${SANDBOX_NOTE} ${sample!.description}`,
              teacherId: caller.userId,
              joinCode: randomJoinCode(),
            })
            .returning();
          const course = toCourse(row!, found(teacher, 'Profile').fullName, true);
          record('course:created', course, audience.teachers(row!.id, caller.userId));
          const rows = await tx
            .insert(assignments)
            .values(
              picks.map((pick, i) => ({
                title: pick.title,
                description: pick.description,
                // 23:59 of that day where the teacher is, not where the server is.
                dueDate: atZonedTime(new Date(now.getTime() + (i + 1) * 7 * DAY_MS), timeZone, 23, 59),
                maxPoints: SAMPLE_ASSIGNMENT_POINTS[i]!,
                courseId: row!.id,
                createdAt: now,
              })),
            )
            .returning();
          const zero = { submissionCount: 0, needsGrading: 0 };
          const created = rows.map((a) =>
            recordAssignment(record, 'assignment:created', a, row!.title, caller.userId, zero, now),
          );
          return { course, assignments: created };
        }),
      );
    },

    /**
     * The course's teacher edits an assignment: the fields given, validated as on create; max points
     * never below a grade already given (409 points_below_grade naming it). Grade writes lock the
     * assignment row (for share), so none can slip in between the check and the change. Switching
     * to automatic release returns the held grades with the edit.
     */
    async update(caller: Caller, id: string, body: UpdateAssignmentBody): Promise<Assignment> {
      const dueDate = body.dueDate === undefined ? undefined : new Date(body.dueDate);
      if (dueDate && Number.isNaN(dueDate.getTime()))
        throw badRequest('body.dueDate must be a valid date-time');
      const title = body.title?.trim();
      const publishAt = publishTime(body.publishAt, clock.now());
      return outbox.transaction(async (tx, record) => {
        const { assignment: before, course } = await lockOwnAssignment(
          tx,
          caller,
          id,
          'edit its assignments',
        );
        const categoryId = await requireCategoryOf(tx, before.courseId, body.categoryId);
        const assignees = await requireAssignees(tx, before.courseId, body.assignees);
        if (publishAt && before.publishedAt)
          throw new AppError(409, ErrorCode.alreadyPublished, 'Its students already see this assignment.');
        // Who saw it before the edit, so those added hear it is new and those left out that it went.
        const saw = assignees !== undefined && before.publishedAt ? await assignedStudents(tx, id) : null;
        // A rubric's total is the assignment's max points (DESIGN §17): they change together, through the rubric.
        if (body.maxPoints !== undefined && before.rubric && body.maxPoints !== before.maxPoints)
          throw new AppError(
            409,
            ErrorCode.rubricInUse,
            `Max points can't change while the rubric totals ${before.maxPoints}: remove or rewrite the rubric first.`,
          );
        if (body.maxPoints !== undefined && body.maxPoints < before.maxPoints) {
          const [{ highest } = { highest: null }] = await tx
            .select({ highest: max(submissions.grade) })
            .from(submissions)
            .where(eq(submissions.assignmentId, id));
          if (highest !== null && highest > body.maxPoints) {
            throw new AppError(
              409,
              ErrorCode.pointsBelowGrade,
              `Max points can't be below ${highest}: a student already has that grade.`,
            );
          }
        }
        const changes = {
          ...(title !== undefined ? { title } : {}),
          ...(body.description !== undefined ? { description: body.description.trim() } : {}),
          ...(dueDate ? { dueDate } : {}),
          ...(body.maxPoints !== undefined ? { maxPoints: body.maxPoints } : {}),
          ...(body.gradeRelease !== undefined ? { gradeRelease: body.gradeRelease } : {}),
          ...(body.closesAtDue !== undefined ? { closesAtDue: body.closesAtDue } : {}),
          ...(categoryId !== undefined ? { categoryId } : {}),
          ...(assignees !== undefined ? { assignees } : {}),
          ...(publishAt ? { publishAt } : {}),
        };
        // "Publish now" alone changes no column here (publishRow below does).
        const [updated] =
          Object.keys(changes).length === 0
            ? [before]
            : await tx.update(assignments).set(changes).where(eq(assignments.id, id)).returning();
        if (publishAt) await schedulePublish(tx, id, publishAt);
        // From "when I return them" to "automatically": the grades still held would otherwise wait
        // for a Return the teacher no longer sees (no Return bar, no Held badge). They go out now,
        // in this transaction, as a Return sends them.
        if (before.gradeRelease === 'manual' && updated!.gradeRelease === 'auto') {
          await releaseHeld(tx, record, { assignment: updated!, teacherId: course.teacherId }, clock.now());
        }
        const [counts] = await tx
          .select({
            // A grade for missing work is no submission (DESIGN §17), and it is graded.
            submissionCount: sql<number>`(count(*) filter (where ${submissions.submittedAt} is not null))::int`,
            needsGrading: sql<number>`(count(*) filter (where ${submissions.grade} is null))::int`,
          })
          .from(submissions)
          .where(eq(submissions.assignmentId, id));
        const teacherCounts = counts ?? { submissionCount: 0, needsGrading: 0 };
        // "Publish now" on a scheduled one: its students hear it is new, as the job would tell them.
        if (publishAt === null && !before.publishedAt) {
          const published = await publishRow(tx, record, id, clock.now());
          if (published) return published;
        }
        const shown = recordAssignment(
          record,
          'assignment:updated',
          updated!,
          course.title,
          course.teacherId,
          teacherCounts,
          clock.now(),
        );
        if (saw) await tellAssigneeChange(tx, record, updated!, course.title, saw, clock.now());
        return shown;
      });
    },

    /**
     * Moves an assignment of the caller's course to the bin with its students' work (DESIGN §17):
     * gone from every view at once (`assignment:deleted`), restorable for 30 days, then purged.
     */
    async remove(caller: Caller, id: string): Promise<void> {
      await outbox.transaction(async (tx, record) => {
        const { assignment, course } = await lockOwnAssignment(tx, caller, id, 'delete its assignments');
        await moveToBin(tx, 'assignment', id, caller.userId, clock.now());
        // Its students and teachers only: a student it was never for hears nothing (DESIGN §20).
        record(
          'assignment:deleted',
          { id, courseId: course.id },
          audience.assignment(assignment, course.teacherId),
        );
      });
    },
  };
}

export type AssignmentService = ReturnType<typeof createAssignmentService>;
