import { and, eq, isNull, sql } from 'drizzle-orm';
import { courseMembers, courses, profiles, rosterInvites, users } from '../db/schema.js';
import type { DomainEventBus } from '../events.js';
import type { JobHandler } from '../jobs/schedule.js';
import type { JobRunner } from '../jobs/runner.js';
import { ACCOUNT_VERIFIED_JOB, accountVerifiedJobKey } from '../auth/verified.js';
import { toCourse } from '../courses/service.js';
import { toMember } from '../classes/service.js';
import { audience } from '../realtime/rooms.js';

/**
 * A student who verifies the address a roster import invited joins those courses at once
 * (DESIGN §20): the mailed join link is then only a way in, not a step they must take. It is the
 * join by code's rules without the code: a course binned, archived or with joining turned off since
 * is skipped, and any membership already there — left, removed, active — stays as it is, so running
 * it twice (or after the student followed the link) changes nothing.
 */
const enrolInvited: JobHandler = async (job, { tx, record, now }) => {
  const { userId } = job.payload as { userId: string };
  const [person] = await tx
    .select({ email: users.email, confirmedAt: users.emailConfirmedAt, role: profiles.role })
    .from(users)
    .innerJoin(profiles, eq(profiles.id, users.id))
    .where(eq(users.id, userId));
  // A teacher's address on a class list is a mistake in the file, not a seat in the class.
  if (!person?.confirmedAt || person.role !== 'student') return { done: true };
  const invited = await tx
    .select({ course: courses, teacherName: profiles.fullName })
    .from(rosterInvites)
    .innerJoin(courses, eq(courses.id, rosterInvites.courseId))
    .innerJoin(profiles, eq(profiles.id, courses.teacherId))
    .where(
      and(
        eq(rosterInvites.email, sql`lower(trim(${person.email}))`),
        isNull(courses.deletedAt),
        isNull(courses.archivedAt),
        eq(courses.joinEnabled, true),
      ),
    )
    .orderBy(rosterInvites.createdAt);
  for (const { course, teacherName } of invited) {
    const [joined] = await tx
      .insert(courseMembers)
      .values({ courseId: course.id, studentId: userId, status: 'active', joinedAt: now })
      .onConflictDoNothing()
      .returning();
    if (!joined) continue;
    const [who] = await tx
      .select({ fullName: profiles.fullName })
      .from(profiles)
      .where(eq(profiles.id, userId));
    record(
      'member:joined',
      {
        course: toCourse(course, teacherName, false),
        member: toMember(joined, who?.fullName ?? '', person.email, 0),
      },
      audience.studentAndTeachers(userId, course.id, course.teacherId),
    );
  }
  return { done: true };
};

export const claimJobs = { [ACCOUNT_VERIFIED_JOB]: enrolInvited };

/**
 * Runs the enrolment as soon as the verification commits, the verifying answer waiting for it: the
 * student's first page already lists the course. No socket needs moving into the course's room —
 * an account not yet verified has none (the callback and the sign-in come after this). Should this
 * run fail, the job stays for the poller.
 */
export function enrolOnVerification({ bus, jobs }: { bus: DomainEventBus; jobs: JobRunner }) {
  const onVerified = ({ userId }: { userId: string }, committed: { hold(work: Promise<unknown>): void }) =>
    committed.hold(jobs.runNow([accountVerifiedJobKey(userId)]));
  bus.on('account:verified', onVerified);
  return () => void bus.off('account:verified', onVerified);
}
