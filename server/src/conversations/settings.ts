import { and, asc, eq } from 'drizzle-orm';
import type { StreamSettings, UpdateStreamBody } from '@classwave/shared';
import type { Caller } from '../auth/caller.js';
import type { Db, Tx } from '../db/client.js';
import { courseMembers, streamMutes, streamSettings } from '../db/schema.js';
import { notFound } from '../http/errors.js';
import type { Outbox } from '../realtime/outbox.js';
import { audience } from '../realtime/rooms.js';
import { courseStanding, requireReader, requireTeaches, type Standing } from './access.js';

/**
 * A course's stream switches (DESIGN §19), its teacher's: comments off for the whole course, and
 * students muted (they read, they do not comment on posts; their private threads stay open, since
 * muting a class discussion must not cut a student off from their teacher).
 */

/** The settings as the caller sees them: the list of muted students is the teacher's. */
export async function streamSettingsOf(db: Db | Tx, standing: Standing): Promise<StreamSettings> {
  const muted = standing.teaches
    ? await db
        .select({ studentId: streamMutes.studentId })
        .from(streamMutes)
        .where(eq(streamMutes.courseId, standing.courseId))
        .orderBy(asc(streamMutes.createdAt), asc(streamMutes.studentId))
    : [];
  return {
    courseId: standing.courseId,
    commentsOff: standing.commentsOff,
    muted: !standing.teaches && standing.muted,
    mutedStudentIds: muted.map((m) => m.studentId),
  };
}

export function createStreamSettingsService({ db, outbox }: { db: Db; outbox: Outbox }) {
  /** The student must be (or have been) in the course: muting a stranger says nothing about them. */
  async function requireStudentOf(tx: Db | Tx, courseId: string, studentId: string): Promise<void> {
    const [row] = await tx
      .select({ status: courseMembers.status })
      .from(courseMembers)
      .where(and(eq(courseMembers.courseId, courseId), eq(courseMembers.studentId, studentId)));
    if (!row) throw notFound('Student not found in this course.');
  }

  return {
    async get(caller: Caller, courseId: string): Promise<StreamSettings> {
      const standing = await courseStanding(db, caller, courseId);
      requireReader(standing);
      return streamSettingsOf(db, standing);
    },

    /** Comments off or on for the whole course; the class hears `stream:updated`. */
    async update(caller: Caller, courseId: string, body: UpdateStreamBody): Promise<StreamSettings> {
      return outbox.transaction(async (tx, record) => {
        const standing = await courseStanding(tx, caller, courseId);
        requireTeaches(standing, 'turn comments off or on');
        await tx
          .insert(streamSettings)
          .values({ courseId, commentsOff: body.commentsOff })
          .onConflictDoUpdate({ target: streamSettings.courseId, set: { commentsOff: body.commentsOff } });
        record(
          'stream:updated',
          { courseId, commentsOff: body.commentsOff },
          audience.course(courseId, standing.teacherId),
        );
        return streamSettingsOf(tx, { ...standing, commentsOff: body.commentsOff });
      });
    },

    async mute(caller: Caller, courseId: string, studentId: string, muted: boolean): Promise<void> {
      const standing = await courseStanding(db, caller, courseId);
      requireTeaches(standing, muted ? 'mute students' : 'unmute students');
      await requireStudentOf(db, courseId, studentId);
      if (muted) await db.insert(streamMutes).values({ courseId, studentId }).onConflictDoNothing();
      else
        await db
          .delete(streamMutes)
          .where(and(eq(streamMutes.courseId, courseId), eq(streamMutes.studentId, studentId)));
    },
  };
}
export type StreamSettingsService = ReturnType<typeof createStreamSettingsService>;
