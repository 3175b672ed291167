import { sql } from 'drizzle-orm';
import { ErrorCode, type FileSummary, type MemberStatus, type Rubric } from '@classwave/shared';
import type { Caller } from '../auth/caller.js';
import { isoText, txQuery, type Tx } from '../db/client.js';
import type { assignments } from '../db/schema.js';
import { AppError, forbidden, notFound } from '../http/errors.js';
import { assignedOn, effectiveDueOn } from '../assignments/visibility.js';
import { courseArchived } from '../archive/rules.js';
import { teaches } from '../courses/teaching.js';
import { submissionFromJson, type SubmissionJson } from './rules.js';
import { releasedFeedbackColumn } from '../files/service.js';
import { lastGradeNoteColumn, lastGradeNoteFrom } from '../notifications/grade-notes.js';
import { settingsColumn, settingsFromJson } from '../notifications/store.js';

/** What a grade write reads of the assignment: `dueDate` is the graded student's own (DESIGN §20). */
export type GradedAssignment = Pick<
  typeof assignments.$inferSelect,
  'maxPoints' | 'rubric' | 'gradeRelease' | 'dueDate'
>;

interface StandingRow {
  sub: string;
  max_points: number;
  rubric: Rubric | string | null;
  grade_release: 'auto' | 'manual';
  /** The student's own due date (DESIGN §20): their extension's, else the class's; lateness is against it. */
  due_date: string;
  course_id: string;
  teacher_id: string;
  course_deleted: boolean;
  archived: boolean;
  teaches: boolean;
  caller_membership: MemberStatus | null;
  /** The caller (a student) is assigned it (DESIGN §20): one it is not for gets 404, not 403. */
  caller_assigned: boolean;
  student_membership: MemberStatus | null;
  student_name: string | null;
  caller_name: string | null;
  grader_name: string | null;
  assignment_title: string;
  course_title: string;
  student_settings: string | null;
  last_note: string | null;
  feedback: string | null;
}

const NOT_FOUND = 'Submission not found.';

/**
 * A grade's standing by the submission's id, in its transaction's first statement (issue 30, DESIGN
 * §22: a grade in three round trips): the submission (locked for the version check and the write),
 * its assignment (share-locked: max points cannot drop meanwhile) and course, whether the caller
 * teaches it (courses/teaching.ts) or is a member student of it, whether it is archived, the
 * student's membership (share-locked: a removal waits for this grade, or the grade sees it; it
 * decides whether a returned grade reaches them, as member-rooms.ts would) and the names the event
 * and a 409 carry; and what a grade reaching the student writes and tells with it (notifications'
 * "grade returned" entry: their settings and latest entry; their feedback files, files/). Answers as requireTeacherOf and the archive guard did: 409 course_archived to
 * those who see the course first, then 404 (403 for a member student) to anyone who does not teach it.
 */
export async function gradeStanding(tx: Tx, caller: Caller, submissionId: string, now: Date) {
  const [row] = await txQuery<StandingRow>(
    tx,
    'grade_standing',
    sql`select row_to_json(s)::text as sub, a.max_points, a.rubric, a.grade_release,
        ${effectiveDueOn('a', sql`s.student_id`, isoText)} as due_date, courses.id as course_id, courses.teacher_id,
        courses.deleted_at is not null as course_deleted, courses.archived_at is not null as archived,
        ${teaches(caller.userId)} as teaches,
        (select m.status from course_members m where m.course_id = courses.id
          and m.student_id = ${caller.userId}::uuid) as caller_membership,
        ${assignedOn('a', caller.userId)} as caller_assigned,
        (select m.status from course_members m where m.course_id = courses.id
          and m.student_id = s.student_id for share) as student_membership,
        (select p.full_name from profiles p where p.id = s.student_id) as student_name,
        (select p.full_name from profiles p where p.id = ${caller.userId}::uuid) as caller_name,
        (select p.full_name from profiles p where p.id = s.graded_by) as grader_name,
        a.title as assignment_title, courses.title as course_title,
        ${settingsColumn(sql`s.student_id`)} as student_settings,
        ${lastGradeNoteColumn(sql`s.student_id`, sql`a.id`)} as last_note,
        ${releasedFeedbackColumn(sql`a.id`, sql`s.student_id`, now)} as feedback
      from submissions s
      join assignments a on a.id = s.assignment_id and a.deleted_at is null
      join courses on courses.id = a.course_id
      where s.id = ${submissionId}::uuid
      for update of s for share of a`,
  );
  const standing = toStanding(caller, row, NOT_FOUND, 'grade its submissions');
  return { ...standing, row: submissionFromJson(JSON.parse(row!.sub) as SubmissionJson) };
}

/** The answers both standings give, and what they read, as writeGrade takes it. */
function toStanding(
  caller: Caller,
  row: Omit<StandingRow, 'sub'> | undefined,
  notFoundText: string,
  action: string,
) {
  if (!row) throw notFound(notFoundText);
  const teachesIt = caller.role === 'teacher' && Boolean(row.teaches);
  const memberStudent =
    caller.role === 'student' && row.caller_membership === 'active' && Boolean(row.caller_assigned);
  if (row.archived && (teachesIt || memberStudent)) throw courseArchived();
  // A binned course is changed only by restoring it (DESIGN §17): until then it is not there.
  if (row.course_deleted || !teachesIt) {
    if (!row.course_deleted && memberStudent) throw forbidden(`Only the course's teachers can ${action}.`);
    throw notFound(notFoundText);
  }
  const rubric = typeof row.rubric === 'string' ? (JSON.parse(row.rubric) as Rubric) : row.rubric;
  return {
    assignment: {
      maxPoints: Number(row.max_points),
      rubric,
      gradeRelease: row.grade_release,
      dueDate: new Date(row.due_date),
    } satisfies GradedAssignment,
    course: { id: row.course_id, teacherId: row.teacher_id },
    studentActive: row.student_membership === 'active',
    names: { student: row.student_name ?? '', caller: row.caller_name ?? '', grader: row.grader_name },
    reach: {
      assignmentTitle: row.assignment_title,
      courseTitle: row.course_title,
      settings: settingsFromJson(row.student_settings),
      last: lastGradeNoteFrom(row.last_note),
      feedback: JSON.parse(row.feedback ?? '[]') as Array<{ file: FileSummary; courseId: string }>,
    },
  };
}

/**
 * A grade's standing by assignment and student (the gradebook's cell, DESIGN §17), in one statement
 * as gradeStanding: the assignment (share-locked) and course, the caller's standing, the archived
 * course, the student's membership (share-locked), their row if there is one (locked), whether they
 * are excused, and what a grade reaching them writes and tells. Answers as gradedAssignment did: 409
 * course_archived to those who see the course, 404 Assignment (403 for a member student) to anyone
 * who does not teach it, then 404 for a student who is not an active member.
 */
export async function studentGradeStanding(
  tx: Tx,
  caller: Caller,
  assignmentId: string,
  studentId: string,
  now: Date,
) {
  const [row] = await txQuery<
    Omit<StandingRow, 'sub'> & { sub: string | null; excused: boolean; student_assigned: boolean }
  >(
    tx,
    'cell_standing',
    sql`select (select row_to_json(s)::text from submissions s
          where s.assignment_id = a.id and s.student_id = ${studentId}::uuid for update) as sub,
        a.max_points, a.rubric, a.grade_release,
        ${effectiveDueOn('a', studentId, isoText)} as due_date, courses.id as course_id, courses.teacher_id,
        courses.deleted_at is not null as course_deleted, courses.archived_at is not null as archived,
        ${teaches(caller.userId)} as teaches,
        (select m.status from course_members m where m.course_id = courses.id
          and m.student_id = ${caller.userId}::uuid) as caller_membership,
        ${assignedOn('a', caller.userId)} as caller_assigned,
        (select m.status from course_members m where m.course_id = courses.id
          and m.student_id = ${studentId}::uuid for share) as student_membership,
        ${assignedOn('a', studentId)} as student_assigned,
        exists (select 1 from excusals e where e.assignment_id = a.id and e.student_id = ${studentId}::uuid) as excused,
        (select p.full_name from profiles p where p.id = ${studentId}::uuid) as student_name,
        (select p.full_name from profiles p where p.id = ${caller.userId}::uuid) as caller_name,
        (select p.full_name from submissions s join profiles p on p.id = s.graded_by
          where s.assignment_id = a.id and s.student_id = ${studentId}::uuid) as grader_name,
        a.title as assignment_title, courses.title as course_title,
        ${settingsColumn(sql`${studentId}::uuid`)} as student_settings,
        ${lastGradeNoteColumn(sql`${studentId}::uuid`, sql`a.id`)} as last_note,
        ${releasedFeedbackColumn(sql`a.id`, sql`${studentId}::uuid`, now)} as feedback
      from assignments a
      join courses on courses.id = a.course_id
      where a.id = ${assignmentId}::uuid and a.deleted_at is null
      for share of a`,
  );
  const standing = toStanding(caller, row, 'Assignment not found.', 'grade its students');
  if (row!.student_membership !== 'active')
    throw notFound('That student is not an active member of this course.');
  // A grade would tell the student of an assignment that is not theirs (DESIGN §20).
  if (!row!.student_assigned)
    throw new AppError(
      422,
      ErrorCode.notAssigned,
      'This assignment is not for that student (or not published yet): assign it to them first.',
    );
  return {
    ...standing,
    row: row!.sub === null ? undefined : submissionFromJson(JSON.parse(row!.sub) as SubmissionJson),
    excused: Boolean(row!.excused),
  };
}

/** What the standing read for a grade that reaches its student (see writeGrade). */
export type GradeReach = ReturnType<typeof toStanding>['reach'];
