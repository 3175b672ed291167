import { and, asc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { teaches } from '../courses/teaching.js';
import {
  minutesLate,
  PANEL_STATES,
  type AssignmentPanel,
  type PanelState,
  type PresenceState,
} from '@classwave/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Caller } from '../auth/caller.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/client.js';
import type { Outbox } from '../realtime/outbox.js';
import { audience } from '../realtime/rooms.js';
import {
  assignments,
  courseMembers,
  courses,
  profiles,
  submissionDrafts,
  submissions,
} from '../db/schema.js';
import { found } from '../policies.js';
import { assignedTo, effectiveDue } from '../assignments/visibility.js';
import { requireTeacherOfAssignment } from '../classes/visibility.js';

/** At most one `assignment:panel` per assignment in this window (per process). */
export const PANEL_THROTTLE_MS = 1000;

/**
 * Where one active member stands on an assignment. Precedence: submitted/late (the database), then
 * their open tab (writing, or viewing, which reads as writing once they have a saved draft), then
 * missing (past due), then a saved draft with no tab open (writing: they have started, "from the
 * sockets and drafts", DESIGN §13), else not opened. An excused student reads as any other (the
 * panel has no excused state).
 */
export function panelState(
  work: { submittedAt: Date | undefined; present: PresenceState | undefined; hasDraft: boolean },
  dueDate: Date,
  now: Date,
): PanelState {
  if (work.submittedAt) return minutesLate(work.submittedAt, dueDate) !== null ? 'late' : 'submitted';
  if (work.present) return work.hasDraft ? 'writing' : work.present;
  if (dueDate.getTime() < now.getTime()) return 'missing';
  return work.hasDraft ? 'writing' : 'not_opened';
}

/** Does the caller teach the assignment's course (may they watch its panel)? */
export async function teachesAssignment(db: Db, caller: Caller, assignmentId: string): Promise<boolean> {
  const [row] = await db
    .select({ teaches: sql<boolean>`${teaches(caller.userId)}` })
    .from(assignments)
    .innerJoin(courses, eq(courses.id, assignments.courseId))
    .where(and(eq(assignments.id, assignmentId), isNull(assignments.deletedAt)));
  return caller.role === 'teacher' && row?.teaches === true;
}

/**
 * The live assignment panel (DESIGN §13): where each active member stands on one assignment, from
 * the database (submissions, drafts) and every process's sockets (presence), so it reads the same
 * whichever process computes it.
 */
export function createPanelService({
  db,
  clock,
  outbox,
  presenceOn,
  isWatched,
  log,
  throttleMs = PANEL_THROTTLE_MS,
}: {
  db: Db;
  clock: Clock;
  outbox: Outbox;
  /** Who is on the assignment now, from the sockets of every process. */
  presenceOn: (courseId: string, assignmentId: string) => Promise<Map<string, PresenceState>>;
  /** Does a teacher's tab show this assignment's panel? Nobody watching, no update is computed. */
  isWatched: (assignmentId: string) => boolean;
  log: FastifyBaseLogger;
  throttleMs?: number;
}) {
  async function assignmentWithCourse(assignmentId: string) {
    const [row] = await db
      .select({ assignment: assignments, course: courses })
      .from(assignments)
      .innerJoin(courses, eq(courses.id, assignments.courseId))
      .where(and(eq(assignments.id, assignmentId), isNull(assignments.deletedAt)));
    return row;
  }

  async function compute(assignment: typeof assignments.$inferSelect): Promise<AssignmentPanel> {
    const [members, subs, drafts, present] = await Promise.all([
      db
        .select({
          id: profiles.id,
          fullName: profiles.fullName,
          // Each one's own due date (DESIGN §20): late or missing against it.
          dueDate: effectiveDue(courseMembers.studentId).mapWith(assignments.dueDate),
        })
        .from(courseMembers)
        .innerJoin(profiles, eq(profiles.id, courseMembers.studentId))
        .innerJoin(assignments, eq(assignments.id, assignment.id))
        .where(
          and(
            eq(courseMembers.courseId, assignment.courseId),
            eq(courseMembers.status, 'active'),
            // The students it is for (DESIGN §20): the others are not "not opened".
            assignedTo(courseMembers.studentId),
          ),
        )
        .orderBy(asc(profiles.fullName), asc(profiles.id)),
      db
        .select({ studentId: submissions.studentId, submittedAt: submissions.submittedAt })
        .from(submissions)
        // A grade for missing work is not a submission (DESIGN §17).
        .where(and(eq(submissions.assignmentId, assignment.id), isNotNull(submissions.submittedAt))),
      db
        .select({ studentId: submissionDrafts.studentId })
        .from(submissionDrafts)
        .where(eq(submissionDrafts.assignmentId, assignment.id)),
      presenceOn(assignment.courseId, assignment.id),
    ]);
    const submitted = new Map(subs.map((s) => [s.studentId, s.submittedAt ?? undefined]));
    const drafting = new Set(drafts.map((d) => d.studentId));
    const now = clock.now();
    const students = members.map((m) => {
      const state = panelState(
        { submittedAt: submitted.get(m.id), present: present.get(m.id), hasDraft: drafting.has(m.id) },
        m.dueDate,
        now,
      );
      return { id: m.id, fullName: m.fullName, state };
    });
    const counts = Object.fromEntries(PANEL_STATES.map((s) => [s, 0])) as AssignmentPanel['counts'];
    for (const s of students) counts[s.state] += 1;
    return { assignmentId: assignment.id, counts, students };
  }

  const timers = new Map<string, { last: number; timer?: NodeJS.Timeout }>();

  async function send(assignmentId: string): Promise<void> {
    const row = await assignmentWithCourse(assignmentId);
    if (!row) return; // deleted meanwhile
    const panel = await compute(row.assignment);
    await outbox.transaction(async (_tx, record) => {
      record('assignment:panel', panel, audience.teachers(row.course.id, row.course.teacherId));
    });
  }

  /**
   * Something on the panel changed: if a teacher's tab shows it, the teacher's tabs get it now, or (within the throttle
   * window of the last one) once the window ends, so a class typing at once is one event a second.
   */
  function changed(assignmentId: string): void {
    if (!isWatched(assignmentId)) return; // opening the panel reads it afresh
    const entry = timers.get(assignmentId) ?? { last: 0 };
    timers.set(assignmentId, entry);
    if (entry.timer) return; // one is already due
    const wait = Math.max(0, entry.last + throttleMs - Date.now());
    entry.timer = setTimeout(() => {
      entry.timer = undefined;
      entry.last = Date.now();
      send(assignmentId)
        .catch((err) => log.warn({ err, assignmentId }, 'assignment panel could not be sent'))
        .finally(() => {
          if (!entry.timer && Date.now() - entry.last >= throttleMs) timers.delete(assignmentId);
        });
    }, wait);
    entry.timer.unref();
  }

  return {
    /** The course's teacher reads the panel. */
    async panel(caller: Caller, assignmentId: string): Promise<AssignmentPanel> {
      const row = await assignmentWithCourse(assignmentId);
      await requireTeacherOfAssignment(db, caller, row?.course, assignmentId, 'see who is working on it');
      return compute(found(row, 'Assignment').assignment);
    },

    /** The course of an assignment the student may report presence on (an active member's), or null. */
    async courseFor(caller: Caller, assignmentId: string): Promise<string | null> {
      const [row] = await db
        .select({ courseId: assignments.courseId })
        .from(assignments)
        .innerJoin(
          courseMembers,
          and(
            eq(courseMembers.courseId, assignments.courseId),
            eq(courseMembers.studentId, caller.userId),
            eq(courseMembers.status, 'active'),
          ),
        )
        // Only on an assignment that is theirs (DESIGN §20).
        .where(
          and(eq(assignments.id, assignmentId), isNull(assignments.deletedAt), assignedTo(caller.userId)),
        );
      return row?.courseId ?? null;
    },

    changed,

    /** Drops pending panel updates (the app is closing). */
    close(): void {
      for (const entry of timers.values()) clearTimeout(entry.timer);
      timers.clear();
    },
  };
}

export type PanelService = ReturnType<typeof createPanelService>;
