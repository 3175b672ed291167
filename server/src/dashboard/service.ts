import { and, asc, count, eq, gte, inArray, isNull, notExists, or } from 'drizzle-orm';
import {
  TEAM_MEMBER_COUNT,
  UNKNOWN_COURSE_TITLE,
  UPCOMING_CLASSES_LIMIT,
  UPCOMING_EVENTS_LIMIT,
  type Dashboard,
  type UpcomingEvent,
} from '@classwave/shared';
import type { Caller } from '../auth/service.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/client.js';
import { assignments, courseMembers, courses, liveClasses, submissions } from '../db/schema.js';
import { visibleCourse } from '../classes/visibility.js';

/** The dashboard per role (spec §2, §7), counted in SQL rather than by loading rows. */
export function createDashboardService({ db, clock }: { db: Db; clock: Clock }) {
  return {
    async get(caller: Caller): Promise<Dashboard> {
      const now = clock.now();
      const isTeacher = caller.role === 'teacher';
      // The courses the caller sees (DESIGN §11): a teacher's own, a student's active memberships.
      const visibleCourseIds = isTeacher
        ? db.select({ id: courses.id }).from(courses).where(eq(courses.teacherId, caller.userId))
        : db
            .select({ id: courseMembers.courseId })
            .from(courseMembers)
            .where(and(eq(courseMembers.studentId, caller.userId), eq(courseMembers.status, 'active')));
      // A student's active work is what is still open to them: work already submitted (or graded)
      // is neither counted nor listed (this refines spec §2, where the figure disagreed with the
      // Assignments page's badges).
      const stillOpen = notExists(
        db
          .select({ one: submissions.id })
          .from(submissions)
          .where(and(eq(submissions.assignmentId, assignments.id), eq(submissions.studentId, caller.userId))),
      );
      const futureAssignments = and(
        gte(assignments.dueDate, now),
        inArray(assignments.courseId, visibleCourseIds),
        isTeacher ? undefined : stillOpen,
      );
      // Live classes cannot be scheduled yet (a placeholder): a teacher's are their courses' classes; a
      // student's, their courses' and the school-wide ones (no course), as before classes.
      const futureClasses = and(
        gte(liveClasses.scheduledAt, now),
        isTeacher
          ? inArray(liveClasses.courseId, visibleCourseIds)
          : or(isNull(liveClasses.courseId), inArray(liveClasses.courseId, visibleCourseIds)),
      );

      const [[courseCount], [assignmentCount], [classCount], nextAssignments, nextClasses] =
        await Promise.all([
          db.select({ n: count() }).from(courses).where(visibleCourse(caller)),
          db.select({ n: count() }).from(assignments).where(futureAssignments),
          db.select({ n: count() }).from(liveClasses).where(futureClasses),
          db
            .select({
              id: assignments.id,
              title: assignments.title,
              time: assignments.dueDate,
              courseTitle: courses.title,
            })
            .from(assignments)
            .leftJoin(courses, eq(courses.id, assignments.courseId))
            .where(futureAssignments)
            .orderBy(asc(assignments.dueDate), asc(assignments.id))
            .limit(UPCOMING_EVENTS_LIMIT),
          db
            .select({
              id: liveClasses.id,
              title: liveClasses.title,
              time: liveClasses.scheduledAt,
              courseTitle: courses.title,
            })
            .from(liveClasses)
            .leftJoin(courses, eq(courses.id, liveClasses.courseId))
            .where(futureClasses)
            .orderBy(asc(liveClasses.scheduledAt), asc(liveClasses.id))
            .limit(UPCOMING_CLASSES_LIMIT),
        ]);

      const events: UpcomingEvent[] = [
        ...nextAssignments.map((a) => ({ ...a, type: 'assignment' as const })),
        ...nextClasses.map((c) => ({ ...c, type: 'class' as const })),
      ]
        .sort((a, b) => a.time.getTime() - b.time.getTime())
        .slice(0, UPCOMING_EVENTS_LIMIT)
        .map((e) => ({
          id: e.id,
          title: e.title,
          type: e.type,
          time: e.time.toISOString(),
          courseTitle: e.courseTitle ?? UNKNOWN_COURSE_TITLE,
        }));

      return {
        stats: {
          totalCourses: courseCount?.n ?? 0,
          activeAssignments: assignmentCount?.n ?? 0,
          upcomingClasses: classCount?.n ?? 0,
          teamMembers: TEAM_MEMBER_COUNT,
        },
        upcomingEvents: events,
      };
    },
  };
}
