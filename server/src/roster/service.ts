import { and, eq, sql } from 'drizzle-orm';
import { ErrorCode, type RosterImportBody, type RosterImportResult } from '@classwave/shared';
import type { Caller } from '../auth/caller.js';
import { requireTeacherOf } from '../classes/visibility.js';
import type { Clock } from '../clock.js';
import type { Db, Tx } from '../db/client.js';
import { courseMembers, courses, jobs, profiles, rosterInvites, users } from '../db/schema.js';
import { AppError } from '../http/errors.js';
import { parseOneRoster, parsePlainCsv, type ParsedRoster, type RosterEntry } from './parse.js';

/** The job kind that mails one roster invitation (after the import commits; retried if SMTP fails). */
export const ROSTER_INVITE_JOB = 'roster:invite';

type Invite = typeof rosterInvites.$inferSelect;

/** The file, whichever way it came. */
export function parseRoster(body: RosterImportBody | string): ParsedRoster {
  if (typeof body === 'string') return parsePlainCsv(body);
  if ('csv' in body) return parsePlainCsv(body.csv);
  return parseOneRoster(body.users, body.enrollments, body.classSourcedId);
}

/**
 * Roster import (DESIGN §20): the file against the course's active students and its earlier
 * invitations. New addresses are invited (a mailed join link, through the job table so a failed
 * mail is retried and the answer does not wait on SMTP); a changed name or address of someone
 * invited before updates the invitation; students not in the file are listed, never removed (a
 * partial export must not empty a class: removing stays the teacher's click, per student).
 * Running it again changes nothing: invitations are keyed by address, and by sourcedId.
 */
export function createRosterService({ db, clock }: { db: Db; clock: Clock }) {
  async function plan(tx: Db | Tx, courseId: string, parsed: ParsedRoster) {
    const members = await tx
      .select({ email: sql<string>`lower(${users.email})`, fullName: profiles.fullName })
      .from(courseMembers)
      .innerJoin(users, eq(users.id, courseMembers.studentId))
      .innerJoin(profiles, eq(profiles.id, courseMembers.studentId))
      .where(and(eq(courseMembers.courseId, courseId), eq(courseMembers.status, 'active')));
    const invites = await tx.select().from(rosterInvites).where(eq(rosterInvites.courseId, courseId));
    const memberByEmail = new Map(members.map((m) => [m.email, m]));
    const inviteByEmail = new Map(invites.map((i) => [i.email, i]));
    const inviteBySource = new Map(invites.filter((i) => i.sourceId).map((i) => [i.sourceId!, i]));

    const add: RosterEntry[] = [];
    const update: Array<{ entry: RosterEntry; invite: Invite }> = [];
    const seen = new Set<string>();
    let unchanged = 0;
    for (const entry of parsed.entries) {
      seen.add(entry.email);
      if (memberByEmail.has(entry.email)) {
        // A student's name is their account's: the file does not rename them.
        unchanged += 1;
        continue;
      }
      const invite =
        (entry.sourcedId && inviteBySource.get(entry.sourcedId)) || inviteByEmail.get(entry.email);
      if (!invite) add.push(entry);
      else if (invite.fullName !== entry.fullName || invite.email !== entry.email) {
        seen.add(invite.email);
        update.push({ entry, invite });
      } else unchanged += 1;
    }
    const remove = [
      ...members
        .filter((m) => !seen.has(m.email))
        .map((m) => ({ email: m.email, fullName: m.fullName, sourcedId: null, status: 'member' as const })),
      // An invitation whose student has joined since (by the link, or on verifying) is listed once, as the member.
      ...invites
        .filter((i) => !seen.has(i.email) && !memberByEmail.has(i.email))
        .map((i) => ({
          email: i.email,
          fullName: i.fullName,
          sourcedId: i.sourceId,
          status: 'invited' as const,
        })),
    ];
    return { add, update, remove, unchanged };
  }

  const person = (e: RosterEntry) => ({ email: e.email, fullName: e.fullName, sourcedId: e.sourcedId });

  return {
    async import(
      caller: Caller,
      courseId: string,
      body: RosterImportBody | string,
      dryRun: boolean,
    ): Promise<RosterImportResult> {
      // Who may ask comes first: a stranger learns nothing from the file's problems.
      const [course] = await db.select().from(courses).where(eq(courses.id, courseId));
      await requireTeacherOf(db, caller, course, 'import a roster');
      const parsed = parseRoster(body);
      const report = (p: Awaited<ReturnType<typeof plan>>): RosterImportResult => ({
        dryRun,
        add: p.add.map(person),
        update: p.update.map(({ entry, invite }) => ({ ...person(entry), previousName: invite.fullName })),
        remove: p.remove,
        unchanged: p.unchanged,
        duplicates: parsed.duplicates,
        skipped: parsed.skipped,
      });
      if (dryRun) return report(await plan(db, courseId, parsed));
      if (!course!.joinEnabled)
        throw new AppError(
          409,
          ErrorCode.joinDisabled,
          "Joining is turned off for this course, and the invitation is the course's join link: turn joining on first.",
        );
      return db.transaction(async (tx) => {
        // One import of a course at a time: a second one waits and then finds this one's invitations.
        await tx.select({ id: courses.id }).from(courses).where(eq(courses.id, courseId)).for('update');
        const p = await plan(tx, courseId, parsed);
        const now = clock.now();
        const mail = (e: RosterEntry) => ({
          kind: ROSTER_INVITE_JOB,
          key: `roster:${courseId}:${e.email}:${now.getTime()}`,
          runAt: now,
          payload: { courseId, email: e.email, fullName: e.fullName, invitedBy: caller.userId },
        });
        for (let i = 0; i < p.add.length; i += 1000) {
          const chunk = p.add.slice(i, i + 1000);
          await tx.insert(rosterInvites).values(
            chunk.map((e) => ({
              courseId,
              email: e.email,
              fullName: e.fullName,
              sourceId: e.sourcedId,
              invitedBy: caller.userId,
              createdAt: now,
              updatedAt: now,
            })),
          );
          await tx.insert(jobs).values(chunk.map(mail));
        }
        for (const { entry, invite } of p.update) {
          await tx
            .update(rosterInvites)
            .set({ email: entry.email, fullName: entry.fullName, sourceId: entry.sourcedId, updatedAt: now })
            .where(and(eq(rosterInvites.courseId, courseId), eq(rosterInvites.email, invite.email)));
          // A new address has not had the link yet.
          if (entry.email !== invite.email) await tx.insert(jobs).values(mail(entry));
        }
        return report(p);
      });
    },
  };
}

export type RosterService = ReturnType<typeof createRosterService>;
