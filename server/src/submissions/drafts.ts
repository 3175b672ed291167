import { and, eq, isNull, sql } from 'drizzle-orm';
import { ErrorCode } from '@classwave/shared';
import type { Draft, DraftSaved, SaveDraftBody } from '@classwave/shared';
import type { Caller } from '../auth/caller.js';
import type { Clock } from '../clock.js';
import { txQuery, type Db, type Tx } from '../db/client.js';
import type { Outbox } from '../realtime/outbox.js';
import { audience } from '../realtime/rooms.js';
import { assignments, courseMembers, courses, submissionDrafts, submissions } from '../db/schema.js';
import { AppError, conflict } from '../http/errors.js';
import { found, requireActiveMember, requireStudent } from '../policies.js';
import { assignedTo, effectiveDue } from '../assignments/visibility.js';
import { recordSubmissionEvent } from './history.js';
import { draftStanding } from './rules.js';

export const ALREADY_SUBMITTED = 'You have already submitted this assignment.';
/**
 * Unsubmit refused while a grade is held (release 'manual', not returned): the student must not
 * learn from this answer that they were graded before the teacher returns it, so it names no reason.
 */
export const CANNOT_TAKE_BACK =
  'This submission can no longer be taken back. Ask your teacher if you need to change it.';

/** The assignment a student writes to, with what the checks and live events need. */
export interface StudentTarget {
  courseId: string;
  teacherId: string;
  dueDate: Date;
}

/**
 * The rules of submitting (DESIGN §11) for everything a student writes to an assignment: a student
 * who never joined (or an assignment that is not there) gets 404, a former member 403 not_a_member.
 */
export async function requireWriter(
  db: Db | Tx,
  caller: Caller,
  assignmentId: string,
  action: string,
): Promise<StudentTarget> {
  requireStudent(caller, action);
  const [target] = await db
    .select({
      courseId: courses.id,
      teacherId: courses.teacherId,
      dueDate: effectiveDue(caller.userId).mapWith(assignments.dueDate),
      membership: courseMembers.status,
      assigned: sql<boolean>`${assignedTo(caller.userId)}`,
    })
    .from(assignments)
    .innerJoin(courses, eq(courses.id, assignments.courseId))
    .leftJoin(
      courseMembers,
      and(eq(courseMembers.courseId, courses.id), eq(courseMembers.studentId, caller.userId)),
    )
    .where(and(eq(assignments.id, assignmentId), isNull(assignments.deletedAt)));
  requireActiveMember(target, 'write to it');
  return { courseId: target.courseId, teacherId: target.teacherId, dueDate: target.dueDate };
}

const ofDraft = (assignmentId: string, studentId: string) =>
  and(eq(submissionDrafts.assignmentId, assignmentId), eq(submissionDrafts.studentId, studentId));

/**
 * Serialises everything that writes one student's work on one assignment (a draft save, the
 * submit that deletes the draft) until the transaction ends. Without it, under READ COMMITTED a
 * save that checked "not submitted" before a racing submit committed would insert its draft after
 * the submit's delete: an orphan draft beside the submission. A transaction-scoped advisory lock
 * works the same on PGlite and PostgreSQL and locks no row anyone else reads.
 */
export async function lockStudentWork(tx: Tx, assignmentId: string, studentId: string): Promise<void> {
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`work:${assignmentId}:${studentId}`}, 0))`,
  );
}

/** Drops the student's draft: called in the transaction that stores their submission. */
export async function deleteDraft(tx: Tx, assignmentId: string, studentId: string): Promise<void> {
  await tx.delete(submissionDrafts).where(ofDraft(assignmentId, studentId));
}

/** Puts text back as the student's draft (unsubmit), one version past any draft there. */
export async function restoreDraft(
  tx: Tx,
  assignmentId: string,
  studentId: string,
  content: string,
  at: Date,
): Promise<DraftSaved> {
  const [row] = await tx
    .insert(submissionDrafts)
    .values({ assignmentId, studentId, content, version: 1, updatedAt: at })
    .onConflictDoUpdate({
      target: [submissionDrafts.assignmentId, submissionDrafts.studentId],
      set: { content, version: sql`${submissionDrafts.version} + 1`, updatedAt: at },
    })
    .returning({ version: submissionDrafts.version, updatedAt: submissionDrafts.updatedAt });
  return { version: row!.version, updatedAt: row!.updatedAt.toISOString() };
}

/** A save's answer: stored, or refused because another tab saved a newer version first. */
export type SaveResult = { saved: true; draft: DraftSaved } | { saved: false; current: Draft };

export function createDraftService({ db, clock, outbox }: { db: Db; clock: Clock; outbox: Outbox }) {
  return {
    /** The student's draft; 404 when there is none (never saved, or already submitted). */
    async get(caller: Caller, assignmentId: string): Promise<Draft> {
      await requireWriter(db, caller, assignmentId, 'keep drafts');
      const [row] = await db
        .select({
          content: submissionDrafts.content,
          version: submissionDrafts.version,
          updatedAt: submissionDrafts.updatedAt,
        })
        .from(submissionDrafts)
        .where(
          and(
            ofDraft(assignmentId, caller.userId),
            sql`not exists (select 1 from ${submissions} where ${submissions.assignmentId} = ${assignmentId}
              and ${submissions.studentId} = ${caller.userId} and ${submissions.submittedAt} is not null)`,
          ),
        );
      const draft = found(row, 'Draft');
      return { content: draft.content, version: draft.version, updatedAt: draft.updatedAt.toISOString() };
    },

    /**
     * Saves the text if the draft is still at `baseVersion` (0: no draft yet). Another tab's newer
     * save wins: the caller gets its text and version back to show instead. Once submitted, a
     * save is a 409 (the student must unsubmit first).
     */
    async save(caller: Caller, assignmentId: string, body: SaveDraftBody): Promise<SaveResult> {
      const studentId = caller.userId;
      // Three statements (issue 30): the standing with the work lock, the write, the event.
      return outbox.transaction(async (tx, record): Promise<SaveResult> => {
        await draftStanding(tx, caller, assignmentId, 'keep drafts');
        const now = clock.now();
        // Named (issue 30): parsed and planned once per connection.
        const [row] = await txQuery<{ submitted: boolean; current: string | null; saved: string | null }>(
          tx,
          'draft_write',
          sql`with sub as (select exists (select 1 from submissions s
                where s.assignment_id = ${assignmentId}::uuid and s.student_id = ${studentId}::uuid
                  and s.submitted_at is not null) as submitted),
              cur as (select d.content, d.version, d.updated_at from submission_drafts d
                where d.assignment_id = ${assignmentId}::uuid and d.student_id = ${studentId}::uuid),
              -- Over the version the tab started from; a newer save wins.
              u as (update submission_drafts set content = ${body.content}, version = ${body.baseVersion + 1},
                  updated_at = ${now.toISOString()}::timestamptz
                where assignment_id = ${assignmentId}::uuid and student_id = ${studentId}::uuid
                  and version = ${body.baseVersion} and ${body.baseVersion} > 0
                  and not (select submitted from sub)
                returning version, updated_at),
              -- No draft at all (a first save, or one dropped since): this text is the newest there is.
              i as (insert into submission_drafts (assignment_id, student_id, content, version, updated_at)
                select ${assignmentId}::uuid, ${studentId}::uuid, ${body.content}, ${body.baseVersion + 1},
                  ${now.toISOString()}::timestamptz
                where not exists (select 1 from cur) and not (select submitted from sub)
                on conflict do nothing
                returning version, updated_at)
            select (select submitted from sub) as submitted,
              (select json_build_object('content', cur.content, 'version', cur.version,
                'updatedAt', cur.updated_at)::text from cur) as current,
              coalesce((select json_build_object('version', u.version, 'updatedAt', u.updated_at)::text from u),
                (select json_build_object('version', i.version, 'updatedAt', i.updated_at)::text from i)) as saved`,
        );
        if (row?.submitted) throw conflict(ALREADY_SUBMITTED);
        const parsed = <T extends { updatedAt: string }>(text: string) => {
          const json = JSON.parse(text) as T;
          return { ...json, updatedAt: new Date(json.updatedAt).toISOString() };
        };
        if (!row?.saved) {
          if (row?.current) return { saved: false, current: parsed<Draft>(row.current) };
          throw conflict('The draft changed while saving. Please try again.');
        }
        const draft = parsed<DraftSaved>(row.saved);
        record('draft:saved', { assignmentId, ...draft }, audience.student(studentId));
        return { saved: true, draft };
      });
    },

    /**
     * Unsubmit (DESIGN §12): until the due time and while ungraded, the student takes their
     * submission back and its text becomes their draft again. The teacher's views hear
     * `submission:withdrawn`.
     */
    async unsubmit(caller: Caller, assignmentId: string): Promise<Draft> {
      const { courseId, teacherId, dueDate } = await requireWriter(db, caller, assignmentId, 'unsubmit');
      const studentId = caller.userId;
      return outbox.transaction(async (tx, record) => {
        const [row] = await tx
          .select()
          .from(submissions)
          .where(and(eq(submissions.assignmentId, assignmentId), eq(submissions.studentId, studentId)))
          .for('update');
        // A grade for missing work alone is nothing handed in, so nothing to take back (DESIGN §17).
        const submission = found(
          row?.submittedAt ? { ...row, content: row.content ?? '' } : undefined,
          'Submission',
        );
        const graded = submission.grade !== null || submission.gradedAt !== null;
        // A returned grade is the student's to know; a held one is not (DESIGN §13).
        if (graded && submission.returnedAt !== null)
          throw new AppError(
            409,
            ErrorCode.alreadyGraded,
            'This submission is graded, so it cannot be taken back.',
          );
        const now = clock.now();
        if (now.getTime() >= dueDate.getTime())
          throw new AppError(
            409,
            ErrorCode.pastDue,
            'The due time has passed, so this submission cannot be taken back.',
          );
        if (graded) throw conflict(CANNOT_TAKE_BACK);
        await tx.delete(submissions).where(eq(submissions.id, submission.id));
        await recordSubmissionEvent(tx, submission, 'unsubmitted', now);
        const draft = await restoreDraft(tx, assignmentId, studentId, submission.content, now);
        record(
          'submission:withdrawn',
          { id: submission.id, assignmentId, courseId, studentId },
          audience.studentAndTeachers(studentId, courseId, teacherId),
        );
        return { content: submission.content, ...draft };
      });
    },
  };
}

export type DraftService = ReturnType<typeof createDraftService>;
