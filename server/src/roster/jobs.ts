import { eq } from 'drizzle-orm';
import { formatJoinCode } from '@classwave/shared';
import { composeMail } from '../auth/mailer.js';
import { courses, profiles } from '../db/schema.js';
import type { JobHandler } from '../jobs/schedule.js';
import { ROSTER_INVITE_JOB } from './service.js';

/**
 * Mails one roster invitation: the course's join link (the page a student opens to join, after
 * signing in or creating an account with this address). A course gone since is nothing to mail.
 */
const mailInvite: JobHandler = async (job, { tx, mailer, appOrigin }) => {
  const { courseId, email, invitedBy } = job.payload as {
    courseId: string;
    email: string;
    invitedBy: string;
  };
  const [course] = await tx.select().from(courses).where(eq(courses.id, courseId));
  if (!course || course.deletedAt || !course.joinEnabled) return { done: true };
  const [teacher] = await tx
    .select({ fullName: profiles.fullName })
    .from(profiles)
    .where(eq(profiles.id, invitedBy));
  const who = teacher?.fullName ?? 'Your teacher';
  const url = new URL(`/join/${formatJoinCode(course.joinCode)}`, appOrigin).toString();
  await mailer.send(
    composeMail(
      email,
      `${who} invited you to ${course.title} on Classwave`,
      [
        `${who} added you to ${course.title} on Classwave.`,
        `Open the link to join the class: sign in (or create your account with this e-mail address) first. The class code is ${formatJoinCode(course.joinCode)}.`,
      ],
      { label: 'Join the class', url },
    ),
  );
  return { done: true };
};

export const rosterJobs = { [ROSTER_INVITE_JOB]: mailInvite };
