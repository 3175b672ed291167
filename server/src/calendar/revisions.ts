import { sql } from 'drizzle-orm';
import type { Tx } from '../db/client.js';
import { assignmentRevisions, assignments } from '../db/schema.js';

/**
 * The ICS SEQUENCE of assignments (RFC 5545 §3.8.7.4): it grows whenever what the feed shows of
 * one changes, so a subscribed calendar replaces its copy instead of keeping the old one.
 */

/** One assignment changed (its title, due date, points…). */
export async function bumpSequence(tx: Tx, assignmentId: string): Promise<void> {
  await tx
    .insert(assignmentRevisions)
    .values({ assignmentId, sequence: 1 })
    .onConflictDoUpdate({
      target: assignmentRevisions.assignmentId,
      set: { sequence: sql`${assignmentRevisions.sequence} + 1` },
    });
}

/**
 * The course changed as its members see it: every assignment's SUMMARY names the course, so all of
 * them move on. The event does not say which field changed; bumping for a description edit as well
 * costs a calendar one re-read, while missing a rename would leave the old name in it for good.
 */
export async function bumpCourseSequences(tx: Tx, courseId: string): Promise<void> {
  await tx.execute(sql`
    insert into ${assignmentRevisions} (assignment_id, sequence)
    select ${assignments.id}, 1 from ${assignments} where ${assignments.courseId} = ${courseId}
    on conflict (assignment_id) do update set sequence = ${assignmentRevisions.sequence} + 1`);
}
