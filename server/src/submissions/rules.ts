import { sql, type SQL } from 'drizzle-orm';
import { ErrorCode, type MemberStatus, type RubricScores } from '@classwave/shared';
import type { Caller } from '../auth/caller.js';
import { isoText, txQuery, type Db, type Tx } from '../db/client.js';
import { rowsOf } from '../db/rows.js';
import { AppError } from '../http/errors.js';
import { requireActiveMember, requireStudent } from '../policies.js';
import { courseArchived } from '../archive/rules.js';
import { assignedOn, effectiveDueOn } from '../assignments/visibility.js';
import { teaches } from '../courses/teaching.js';
import type { submissions } from '../db/schema.js';

const CLOSED = 'This assignment closed at its due time, so it no longer takes submissions.';

/**
 * WHO may hand work in to an assignment, and by when: the one place that says it (a submit's
 * standing and a submission file's upload both read it). SQL columns over the assignment `a` and
 * its course `courses` for the student `studentId`: `membership` (their status in the course, null when
 * they never joined: requireActiveMember's 404 or 403), whether it is theirs (`assigned`: published
 * and for them, DESIGN §20) and the due time that closes it — their own, an extension's when they
 * have one (`due_date`, `closes_at_due`), as text (isoText).
 */
export const handInRights = (studentId: string): SQL => sql`(select m.status from course_members m
      where m.course_id = courses.id and m.student_id = ${studentId}::uuid) as membership,
    ${assignedOn('a', studentId)} as assigned,
    ${effectiveDueOn('a', studentId, isoText)} as due_date, a.closes_at_due`;

/** The columns handInRights reads, as the driver answers them. */
interface RightsRow {
  membership: MemberStatus | null;
  /** Published and for them (DESIGN §20): a member it is not for gets the assignment's 404. */
  assigned: boolean;
  due_date: string;
  closes_at_due: boolean;
}

/**
 * Who may hand work in to an assignment (a submission's files, DESIGN §18): an active member
 * student of its course (requireActiveMember's 404 or 403 otherwise). The student's name comes
 * with it: one round trip.
 */
export async function submitTarget(db: Db | Tx, caller: Caller, assignmentId: string) {
  requireStudent(caller, 'submit assignments');
  const [row] = rowsOf<RightsRow & { course_id: string; teacher_id: string; student_name: string | null }>(
    await db.execute(sql`select courses.id as course_id, courses.teacher_id, ${handInRights(caller.userId)},
        (select p.full_name from profiles p where p.id = ${caller.userId}::uuid) as student_name
      from assignments a join courses on courses.id = a.course_id
      where a.id = ${assignmentId}::uuid and a.deleted_at is null`),
  );
  const target = row && {
    courseId: row.course_id,
    teacherId: row.teacher_id,
    dueDate: new Date(row.due_date),
    closesAtDue: Boolean(row.closes_at_due),
    studentName: row.student_name,
    membership: row.membership,
    assigned: Boolean(row.assigned),
  };
  requireActiveMember(target, 'submit to it');
  return target;
}

/** A submissions row as `row_to_json` writes it. */
export interface SubmissionJson {
  id: string;
  assignment_id: string;
  student_id: string;
  content: string | null;
  submitted_at: string | null;
  grade: number | null;
  feedback: string | null;
  graded_at: string | null;
  version: number;
  returned_at: string | null;
  returned_grade: number | null;
  returned_feedback: string | null;
  returned_graded_at: string | null;
  rubric_scores: RubricScores | null;
  returned_rubric_scores: RubricScores | null;
  graded_by: string | null;
  idempotency_key: string | null;
}

const dateOf = (text: string | null) => (text === null ? null : new Date(text));

/** The row as Drizzle would have mapped it. */
export function submissionFromJson(json: SubmissionJson): typeof submissions.$inferSelect {
  return {
    id: json.id,
    assignmentId: json.assignment_id,
    studentId: json.student_id,
    content: json.content,
    submittedAt: dateOf(json.submitted_at),
    grade: json.grade,
    feedback: json.feedback,
    gradedAt: dateOf(json.graded_at),
    version: json.version,
    returnedAt: dateOf(json.returned_at),
    returnedGrade: json.returned_grade,
    returnedFeedback: json.returned_feedback,
    returnedGradedAt: dateOf(json.returned_graded_at),
    rubricScores: json.rubric_scores,
    returnedRubricScores: json.returned_rubric_scores,
    gradedBy: json.graded_by,
    idempotencyKey: json.idempotency_key,
  };
}

/**
 * A submit's standing, in its transaction's first statement (issue 30, DESIGN §22: a write in three
 * round trips): the assignment (share-locked: an edit that closes it or moves its due date waits
 * for this submit, or this submit sees the edit), whether its course is archived and whether the
 * caller sees it (teaches it or is an active member), handInRights, the student's name, and their
 * row on the assignment if there is one (a repeat's, a grade for missing work, or work already in)
 * with its grader's name. It also takes the student's work lock (drafts.ts: lockStudentWork's key),
 * so a draft save racing this submit waits, or has committed and is seen by the write that follows.
 */
export async function submitStanding(tx: Tx, caller: Caller, assignmentId: string) {
  const [row] = await txQuery<
    RightsRow & {
      course_id: string;
      teacher_id: string;
      archived: boolean;
      teaches: boolean;
      student_name: string | null;
      existing: string | null;
      grader_name: string | null;
    }
  >(
    tx,
    'submit_standing',
    sql`select courses.id as course_id, courses.teacher_id,
        courses.archived_at is not null as archived, ${teaches(caller.userId)} as teaches,
        ${handInRights(caller.userId)},
        (select p.full_name from profiles p where p.id = ${caller.userId}::uuid) as student_name,
        (select row_to_json(s)::text from submissions s
          where s.assignment_id = a.id and s.student_id = ${caller.userId}::uuid) as existing,
        (select g.full_name from submissions s join profiles g on g.id = s.graded_by
          where s.assignment_id = a.id and s.student_id = ${caller.userId}::uuid) as grader_name,
        pg_advisory_xact_lock(hashtextextended(${`work:${assignmentId}:${caller.userId}`}, 0)) is null as locked
      from assignments a join courses on courses.id = a.course_id
      where a.id = ${assignmentId}::uuid and a.deleted_at is null
      for share of a`,
  );
  // An archived course is read-only to those who see it (DESIGN §20), before any other answer:
  // what the archive guard answered before this read took its place (archive/guard.ts).
  if (row?.archived && (row.teaches || (row.membership === 'active' && row.assigned))) throw courseArchived();
  requireStudent(caller, 'submit assignments');
  const target = row && {
    courseId: row.course_id,
    teacherId: row.teacher_id,
    dueDate: new Date(row.due_date),
    closesAtDue: Boolean(row.closes_at_due),
    studentName: row.student_name ?? '',
    membership: row.membership,
    assigned: Boolean(row.assigned),
    existing: row.existing === null ? null : submissionFromJson(JSON.parse(row.existing) as SubmissionJson),
    graderName: row.grader_name,
  };
  requireActiveMember(target, 'submit to it');
  return target;
}

/**
 * A draft save's standing, in its transaction's first statement (issue 30): the archived course (409
 * course_archived to those who see it, as the archive guard answered), then the student's rights as
 * everywhere a student writes to an assignment (403 for anyone but a student; 404, or 403
 * not_a_member for a former member), and the student's work lock (drafts.ts: lockStudentWork's
 * key), so the write that follows sees any submit or save that committed before it.
 */
export async function draftStanding(tx: Tx, caller: Caller, assignmentId: string, action: string) {
  const [row] = await txQuery<RightsRow & { archived: boolean; teaches: boolean }>(
    tx,
    'draft_standing',
    sql`select courses.archived_at is not null as archived, ${teaches(caller.userId)} as teaches,
        ${handInRights(caller.userId)},
        pg_advisory_xact_lock(hashtextextended(${`work:${assignmentId}:${caller.userId}`}, 0)) is null as locked
      from assignments a join courses on courses.id = a.course_id
      where a.id = ${assignmentId}::uuid and a.deleted_at is null`,
  );
  if (row?.archived && (row.teaches || (row.membership === 'active' && row.assigned))) throw courseArchived();
  requireStudent(caller, action);
  requireActiveMember(row, 'write to it');
}

/** The assignment still takes work: 409 assignment_closed after its due time when it closes then. */
export function requireOpen(assignment: { closesAtDue: boolean; dueDate: Date }, now: Date): void {
  if (assignment.closesAtDue && now.getTime() > assignment.dueDate.getTime())
    throw new AppError(409, ErrorCode.assignmentClosed, CLOSED);
}
