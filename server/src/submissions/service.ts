import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { minutesLate } from '@classwave/shared';
import type { CreateSubmissionBody, OwnSubmission, RubricScores, Submission } from '@classwave/shared';
import type { Caller } from '../auth/caller.js';
import type { Clock } from '../clock.js';
import { isoText, txQuery, type Database, type Statement, type Tx } from '../db/client.js';
import type { Outbox } from '../realtime/outbox.js';
import { audience } from '../realtime/rooms.js';
import { PG, pgCode } from '../db/errors.js';
import { submissions } from '../db/schema.js';
import { batchUpdateJob } from '../notifications/submission-batches.js';
import { badRequest, conflict, notFound } from '../http/errors.js';
import { requireTeacherOfAssignment } from '../classes/visibility.js';
import { toOwnSubmission } from '../assignments/queries.js';
import { effectiveDueText } from '../assignments/visibility.js';
import { createGradeClearing } from './clear-grade.js';
import { createGradeWrites } from './grades.js';
import { requireOpen, submissionFromJson, submitStanding, type SubmissionJson } from './rules.js';
import { teachesText } from '../courses/teaching.js';
import { attachFiles, filesOfSubmissions } from '../files/service.js';
import { asReturned, toSubmission } from './views.js';

const ALREADY_SUBMITTED = 'You have already submitted this assignment.';

/** The submission with the files handed in with it (DESIGN §18). */
async function withFiles(tx: Tx, submission: OwnSubmission): Promise<OwnSubmission> {
  return { ...submission, files: (await filesOfSubmissions(tx, [submission.id])).get(submission.id) ?? [] };
}

type SubmissionRow = typeof submissions.$inferSelect;

/** A submission in the teacher's list, as `teacherListStatement` builds it in JSON. */
interface TeacherListItem {
  id: string;
  studentId: string;
  content: string | null;
  submittedAt: string | null;
  grade: number | null;
  feedback: string | null;
  gradedAt: string | null;
  version: number;
  returnedAt: string | null;
  held: boolean;
  gradedBy: string | null;
  studentName: string;
  graderName: string | null;
  rubricScores: RubricScores | null;
  /** The student's own due date (DESIGN §20), which their lateness is measured against. */
  dueDate: string;
}

/** `$1` the assignment, `$2` the caller: the course's owner, and the submissions only for its teachers. */
const teacherListStatement: Statement = {
  name: 'submissions_of_assignment_v7',
  text: `select c.id as course_id, c.teacher_id,
      case when ${teachesText('c', '$2')} then (
        select json_agg(json_build_object('id', s.id, 'studentId', s.student_id, 'content', s.content,
            'submittedAt', ${isoText('s.submitted_at')}, 'grade', s.grade, 'feedback', s.feedback,
            'gradedAt', ${isoText('s.graded_at')}, 'version', s.version,
            'returnedAt', ${isoText('s.returned_at')}, 'gradedBy', s.graded_by,
            'held', s.grade is not null and (s.returned_at is null or s.grade is distinct from s.returned_grade
              or s.feedback is distinct from s.returned_feedback
              or s.rubric_scores is distinct from s.returned_rubric_scores),
            'rubricScores', s.rubric_scores,
            'studentName', p.full_name, 'graderName', g.full_name,
            'dueDate', ${isoText(effectiveDueText('a', 's.student_id'))})
          order by s.submitted_at desc nulls last, s.id desc)
        from submissions s
        join profiles p on p.id = s.student_id
        left join profiles g on g.id = s.graded_by
        where s.assignment_id = a.id)::text end as subs
    from assignments a join courses c on c.id = a.course_id
    where a.id = $1 and a.deleted_at is null`,
};

/** The student's submission to the assignment made with this Idempotency-Key, if there is one. */
async function submissionWithKey(tx: Tx, assignmentId: string, studentId: string, key: string) {
  const [row] = await tx
    .select()
    .from(submissions)
    .where(
      and(
        eq(submissions.assignmentId, assignmentId),
        eq(submissions.studentId, studentId),
        eq(submissions.idempotencyKey, key),
      ),
    );
  return row;
}

/**
 * The submit's one write statement: the submission (a new row, or the student's row graded for
 * missing work filled in), the student's draft deleted (DESIGN §12), the history's `submitted`
 * (DESIGN §17) and the job that brings the teacher's batch up to date (notifications), each only
 * when the submission was written. Undefined when it was not: a racing submit got there first.
 */
async function writeSubmission(
  tx: Tx,
  w: {
    fill: boolean;
    id: string;
    assignmentId: string;
    studentId: string;
    content: string;
    idempotencyKey: string | null;
    now: Date;
  },
): Promise<SubmissionRow | undefined> {
  const at = w.now.toISOString();
  const job = batchUpdateJob(w.id, w.now);
  const written = w.fill
    ? // A new version: a grader's form opened on the missing work is out of date (409).
      sql`update submissions set content = ${w.content}, submitted_at = ${at}::timestamptz,
          idempotency_key = ${w.idempotencyKey}::uuid, version = version + 1
        where id = ${w.id}::uuid and submitted_at is null returning *`
    : // Either unique index (one per assignment, one per key) means "already there".
      sql`insert into submissions (id, assignment_id, student_id, content, submitted_at, idempotency_key)
        values (${w.id}::uuid, ${w.assignmentId}::uuid, ${w.studentId}::uuid, ${w.content}, ${at}::timestamptz,
          ${w.idempotencyKey}::uuid)
        on conflict do nothing returning *`;
  // Named (issue 30): parsed and planned once per connection; a fill and a new row are two texts.
  const [row] = await txQuery<{ row: string }>(
    tx,
    'submit_write',
    sql`with s as (${written}),
      d as (delete from submission_drafts where assignment_id = ${w.assignmentId}::uuid
        and student_id = ${w.studentId}::uuid and exists (select 1 from s)),
      h as (insert into submission_events (assignment_id, student_id, submission_id, kind, at)
        select s.assignment_id, s.student_id, s.id, 'submitted', ${at}::timestamptz from s),
      j as (insert into jobs (kind, key, run_at, payload)
        select ${job.kind}, ${job.key}, ${job.runAt.toISOString()}::timestamptz, ${JSON.stringify(job.payload)}::jsonb from s
        on conflict (key) do update set run_at = excluded.run_at, done_at = null, attempts = 0, last_error = null)
      select row_to_json(s)::text as row from s`,
  );
  return row ? submissionFromJson(JSON.parse(row.row) as SubmissionJson) : undefined;
}

/**
 * Submitting and grading a student's work. What follows a submission (the live panel, the teacher's
 * batch) hears its `submission:created` on the bus once it has committed: the answer does not wait.
 */
export function createSubmissionService({
  database,
  clock,
  outbox,
}: {
  database: Pick<Database, 'db' | 'rows'>;
  clock: Clock;
  outbox: Outbox;
}) {
  const { db } = database;
  return {
    ...createGradeWrites({ clock, outbox }),
    ...createGradeClearing({ clock, outbox }),

    /**
     * A student's one submission per assignment; a second (even a racing one) is a 409 (and so is a late
     * one when the assignment closes at its due time: assignment_closed), except a repeat
     * carrying the first one's Idempotency-Key, which answers that submission (`created`
     * false). The student's draft goes in the same transaction (DESIGN §12).
     */
    async submit(
      caller: Caller,
      assignmentId: string,
      body: CreateSubmissionBody,
      idempotencyKey?: string,
    ): Promise<{ submission: OwnSubmission; created: boolean }> {
      // Three statements (issue 30, DESIGN §22): the standing, the write, the outbox's events (with
      // files, their check and attachment between). Answers as before, in the same order: an
      // archived course first (for those who see it), then who may submit, then the body.
      return outbox.transaction(async (tx, record) => {
        const target = await submitStanding(tx, caller, assignmentId);
        const { teacherId, courseId, studentName, dueDate, existing } = target;
        // Text, files, or both (DESIGN §18): a photo of handwritten work needs no words beside it.
        if (body.content.trim() === '' && !body.fileIds?.length)
          throw badRequest('body.content is blank: write an answer or attach a file to submit.');
        // A keyed repeat answers the submission it made, even after the due time.
        if (idempotencyKey && existing?.idempotencyKey === idempotencyKey && existing.submittedAt)
          return { submission: await withFiles(tx, toOwnSubmission(existing, dueDate)), created: false };
        const now = clock.now();
        requireOpen(target, now);
        if (existing?.submittedAt) throw conflict(ALREADY_SUBMITTED);
        let row: SubmissionRow | undefined;
        try {
          row = await writeSubmission(tx, {
            // A grade for missing work is there (DESIGN §17): the submit fills that row in and keeps
            // its grade, which the teacher may change now that there is work to read.
            fill: existing !== null,
            id: existing?.id ?? randomUUID(),
            assignmentId,
            studentId: caller.userId,
            content: body.content,
            idempotencyKey: idempotencyKey ?? null,
            now,
          });
        } catch (error) {
          // The assignment was deleted between the standing and the write.
          if (pgCode(error) === PG.foreignKeyViolation) throw notFound('Assignment not found.');
          throw error;
        }
        if (!row) {
          // Lost a race: a concurrent POST (with the same key, or another tab's) inserted first and
          // has committed now. Its key: that submission's answer; anything else: already submitted.
          const raced = idempotencyKey
            ? await submissionWithKey(tx, assignmentId, caller.userId, idempotencyKey)
            : undefined;
          if (raced)
            return { submission: await withFiles(tx, toOwnSubmission(raced, dueDate)), created: false };
          throw conflict(ALREADY_SUBMITTED);
        }
        // Every file stored and the student's, or nothing is submitted (DESIGN §18).
        await attachFiles(tx, {
          studentId: caller.userId,
          assignmentId,
          submissionId: row.id,
          fileIds: body.fileIds ?? [],
        });
        // Its files go with it to the teacher's list (no query when none were handed in).
        const handedIn = body.fileIds?.length
          ? await withFiles(tx, toOwnSubmission(row, dueDate))
          : { ...toOwnSubmission(row, dueDate), files: [] };
        // The student's tabs hear only the grade they were given (a held one is not theirs yet);
        // the teacher's hear the grade as it stands just after, when the row was already graded.
        // Its version too: a grade never returned is not even there for the student to count.
        record(
          'submission:created',
          {
            ...toSubmission(
              { ...asReturned(row), version: row.returnedAt === null ? 0 : row.version },
              studentName,
              dueDate,
              null,
            ),
            files: handedIn.files,
          },
          audience.studentAndTeachers(caller.userId, courseId, teacherId),
        );
        if (row.grade !== null)
          record(
            'submission:graded',
            toSubmission(row, studentName, dueDate, target.graderName),
            audience.teachers(courseId, teacherId),
          );
        return { submission: handedIn, created: true };
      });
    },

    /**
     * The course's teacher sees every submission, newest first, with the student's name (grades for
     * missing work, with no `submittedAt`, last): one
     * prepared statement (issue 15: it was three queries through Drizzle), whose rows come only
     * when the caller teaches the course; anyone else gets the rule's 404 or 403.
     */
    async list(caller: Caller, assignmentId: string): Promise<Submission[]> {
      const [row] = await database.rows<{
        course_id: string;
        teacher_id: string;
        subs: string | null;
      }>(teacherListStatement, [assignmentId, caller.userId]);
      if (row?.teacher_id !== caller.userId)
        await requireTeacherOfAssignment(
          db,
          caller,
          row && { id: row.course_id, teacherId: row.teacher_id },
          assignmentId,
          'see its submissions',
        );
      const list = JSON.parse(row!.subs ?? '[]') as TeacherListItem[];
      const handedIn = await filesOfSubmissions(
        db,
        list.map((s) => s.id),
      );
      return list.map((s) => ({
        files: handedIn.get(s.id) ?? [],
        id: s.id,
        assignmentId,
        studentId: s.studentId,
        content: s.content,
        submittedAt: s.submittedAt,
        grade: s.grade,
        feedback: s.feedback,
        gradedAt: s.gradedAt,
        student: { id: s.studentId, fullName: s.studentName },
        version: s.version,
        late: minutesLate(s.submittedAt, s.dueDate),
        returnedAt: s.returnedAt,
        held: s.held,
        gradedBy: s.gradedBy ? { id: s.gradedBy, fullName: s.graderName ?? '' } : null,
        rubricScores: s.rubricScores,
      }));
    },
  };
}

export type SubmissionService = ReturnType<typeof createSubmissionService>;
