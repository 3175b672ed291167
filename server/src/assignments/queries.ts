import {
  minutesLate,
  workStatus,
  type Assignment,
  type OwnSubmission,
  type Role,
  type WorkStatus,
} from '@classwave/shared';
import { teachesText } from '../courses/teaching.js';
import type { Clock } from '../clock.js';
import type { Caller } from '../auth/caller.js';
import { isoText, type Database, type Statement } from '../db/client.js';
import type { assignments } from '../db/schema.js';
import type { AssignmentReadModel, SharedRow } from './read-model.js';
import { assignedText, effectiveDueText } from './visibility.js';

/** A row of the hot lists (`listStatement`): timestamps as ISO text made by PostgreSQL. */
interface ListRow extends SharedRow {
  /** Student lists: their own submission (all null without one) and excusal. */
  sub_id?: string | null;
  sub_submitted_at?: string | null;
  sub_grade?: number | null;
  sub_feedback?: string | null;
  sub_graded_at?: string | null;
  sub_returned_at?: string | null;
  excused?: boolean;
  /** Student lists: the class's due date when `due_date` is their extension's. */
  extended_from?: string | null;
  /** Teacher lists: the assignment's counts, who it is for (null: all) and its pending publication. */
  submission_count?: number;
  needs_grading?: number;
  assignees?: string[] | null;
  publish_at?: string | null;
}

type Scope = 'all' | 'course' | 'one';

/**
 * The SQL of one list shape, ordered by due date. A student (`$1`) sees only the assignments of
 * courses they are an active member of (DESIGN §11), each with their own submission (one LEFT JOIN
 * on the unique (assignment, student) index) and excusal; a teacher gets the number of submissions,
 * of their own courses (`all`: `$1` is the teacher) or of the course or assignment the caller
 * checked. `$2` (students) or `$1` (teachers) is the course or assignment id for `course`/`one`.
 */
function listStatement(role: Role, scope: Scope): Statement {
  const student = role === 'student';
  const scopeParam = student ? '$2' : '$1';
  const where = [
    student
      ? `exists (select 1 from course_members m where m.course_id = a.course_id and m.student_id = $1 and m.status = 'active')
        and ${assignedText('a', '$1')}`
      : scope === 'all'
        ? teachesText('c', '$1')
        : null,
    scope === 'course' ? `a.course_id = ${scopeParam}` : scope === 'one' ? `a.id = ${scopeParam}` : null,
    // Binned work is in the bin only (DESIGN §17); a binned course holds only binned assignments.
    'a.deleted_at is null',
    // The list of all assignments leaves archived courses out, as the course list does (DESIGN §20).
    scope === 'all' ? 'c.archived_at is null' : null,
  ].filter(Boolean);
  const perViewer = student
    ? `s.id as sub_id, ${isoText('s.submitted_at')} as sub_submitted_at, s.returned_grade as sub_grade,
       s.returned_feedback as sub_feedback, ${isoText('s.returned_graded_at')} as sub_graded_at,
       ${isoText('s.returned_at')} as sub_returned_at,
       exists (select 1 from excusals e where e.assignment_id = a.id and e.student_id = $1) as excused,
       (select ${isoText('a.due_date')} from assignment_extensions x where x.assignment_id = a.id and x.student_id = $1) as extended_from`
    : `(select count(*)::int from submissions s where s.assignment_id = a.id and s.submitted_at is not null) as submission_count,
       (select count(*)::int from submissions s where s.assignment_id = a.id and s.grade is null) as needs_grading,
       to_json(a.assignees) as assignees,
       case when a.published_at is null then ${isoText('a.publish_at')} end as publish_at`;
  // A student's due date is their own: an extension's, else the class's (DESIGN §20).
  const due = student ? effectiveDueText('a', '$1') : 'a.due_date';
  return {
    name: `assignments_${role}_${scope}_v8`,
    text: `select a.id, a.title, a.description, ${isoText(due)} as due_date, a.max_points,
      a.course_id, c.title as course_title, ${isoText('a.created_at')} as created_at,
      a.grade_release, a.closes_at_due, a.category_id, ${perViewer}
    from assignments a
    join courses c on c.id = a.course_id
    ${student ? 'left join submissions s on s.assignment_id = a.id and s.student_id = $1' : ''}
    where ${where.join(' and ')}
    order by ${due}, a.id`,
  };
}

/**
 * A list row as the API's `Assignment`, built field by field: what leaves here is this allow-list
 * (and the route's response schema serializes only the schema's fields on top of it), so a column
 * added to the SQL never reaches a response by itself. A held grade never reaches the student
 * (DESIGN §13): grade, feedback and grading time only once returned, as `toOwnSubmission` does.
 */
function rowToAssignment(row: ListRow, role: Role, now: Date): Assignment {
  const student = role === 'student';
  let submission: OwnSubmission | null = null;
  let status: WorkStatus | null = null;
  if (student) {
    const returned = row.sub_returned_at != null && row.sub_grade != null;
    // A grade for missing work (no `submittedAt`) is shown once returned, never while held (DESIGN §17).
    if (row.sub_id && (row.sub_submitted_at || returned)) {
      submission = {
        id: row.sub_id,
        submittedAt: row.sub_submitted_at ?? null,
        grade: returned ? row.sub_grade! : null,
        feedback: returned ? (row.sub_feedback ?? null) : null,
        gradedAt: returned ? (row.sub_graded_at ?? null) : null,
        returnedAt: returned ? row.sub_returned_at! : null,
        late: minutesLate(row.sub_submitted_at ?? null, row.due_date),
      };
    }
    status = workStatus(
      {
        dueDate: row.due_date,
        excused: row.excused === true,
        submission: submission && {
          submittedAt: submission.submittedAt,
          grade: submission.grade,
          returnedAt: submission.returnedAt,
        },
      },
      now,
      'student',
    );
  }
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    dueDate: row.due_date,
    maxPoints: row.max_points,
    courseId: row.course_id,
    courseTitle: row.course_title,
    createdAt: row.created_at,
    submission,
    submissionCount: student ? null : (row.submission_count ?? 0),
    needsGrading: student ? null : (row.needs_grading ?? 0),
    status,
    gradeRelease: row.grade_release,
    closesAtDue: row.closes_at_due,
    categoryId: row.category_id,
    ...(student
      ? { extendedFrom: row.extended_from ?? null }
      : { assignees: row.assignees ?? 'all', publishAt: row.publish_at ?? null }),
  };
}

/**
 * Assignments as one caller sees them: the app's most frequent reads, so they skip Drizzle's query
 * building and row mapping (bench S1: most of the app's CPU per list). Each shape is one statement
 * the database prepares once (named statements on PostgreSQL) and rows are mapped by hand. A
 * student's lists come from the read model (read-model.ts): the course's rows from memory, their
 * own work from one small query.
 */
export function prepareAssignmentLists(
  database: Pick<Database, 'rows'>,
  clock: Clock,
  readModel: AssignmentReadModel,
) {
  const statements = {
    studentOne: listStatement('student', 'one'),
    teacherAll: listStatement('teacher', 'all'),
    teacherCourse: listStatement('teacher', 'course'),
    teacherOne: listStatement('teacher', 'one'),
  };
  const run = async (statement: Statement, params: string[], role: Role) => {
    const rows = await database.rows<ListRow>(statement, params);
    const now = clock.now();
    return rows.map((row) => rowToAssignment(row, role, now));
  };

  return {
    /** Students: their active courses' assignments. Teachers: their own courses' assignments. */
    async visibleTo(caller: Caller): Promise<Assignment[]> {
      return caller.role === 'student'
        ? readModel.forStudent(caller.userId)
        : run(statements.teacherAll, [caller.userId], 'teacher');
    },
    /** One course's assignments, as this caller sees them. */
    async ofCourse(caller: Caller, courseId: string): Promise<Assignment[]> {
      return caller.role === 'student'
        ? readModel.forStudent(caller.userId, courseId)
        : run(statements.teacherCourse, [courseId], 'teacher');
    },
    /**
     * One assignment as `userId` (of `role`) sees it, whatever the course; the caller checks who
     * may see it. For a teacher the counts are the assignment's, for a student their own work.
     */
    async one(userId: string, role: Role, assignmentId: string): Promise<Assignment | undefined> {
      const list =
        role === 'student'
          ? await run(statements.studentOne, [userId, assignmentId], 'student')
          : await run(statements.teacherOne, [assignmentId], 'teacher');
      return list[0];
    },
  };
}

export type AssignmentLists = ReturnType<typeof prepareAssignmentLists>;

type AssignmentRow = typeof assignments.$inferSelect;
type OwnRow = {
  id: string | null;
  submittedAt: Date | null;
  returnedGrade: number | null;
  returnedFeedback: string | null;
  returnedGradedAt: Date | null;
  returnedAt: Date | null;
} | null;

/**
 * Who an assignment is shown to: its teacher (with counts), one student (with their own work), or
 * every member of the course at once (a live event to the course's room: nobody's own work, and a
 * status only where it is the same for all of them, else null).
 */
export type AssignmentView =
  | { viewer: 'teacher'; submissionCount: number; needsGrading: number }
  | {
      viewer: 'student';
      own: OwnRow;
      excused: boolean;
      /** Their extension's due date (DESIGN §20), or null: their status and lateness are against it. */
      extension: Date | null;
    }
  | { viewer: 'members'; status: WorkStatus | null };

/**
 * A student's own submission: the grade, feedback and grading time as they were last returned (a
 * held grade never reaches the student, DESIGN §13, nor does a change to a returned one before it
 * is returned again, §17).
 */
export function toOwnSubmission(
  own: {
    id: string;
    submittedAt: Date | null;
    returnedGrade: number | null;
    returnedFeedback: string | null;
    returnedGradedAt: Date | null;
    returnedAt: Date | null;
  },
  dueDate: Date,
): OwnSubmission {
  const returned = own.returnedAt !== null && own.returnedGrade !== null;
  return {
    id: own.id,
    submittedAt: own.submittedAt?.toISOString() ?? null,
    grade: returned ? own.returnedGrade : null,
    feedback: returned ? own.returnedFeedback : null,
    gradedAt: returned ? (own.returnedGradedAt?.toISOString() ?? null) : null,
    returnedAt: returned ? own.returnedAt!.toISOString() : null,
    late: minutesLate(own.submittedAt, dueDate),
  };
}

export function toAssignment(
  row: AssignmentRow,
  courseTitle: string,
  view: AssignmentView,
  now: Date,
): Assignment {
  // The one student's own due date; every other view is the class's.
  const extension = view.viewer === 'student' ? view.extension : null;
  const dueDate = extension ?? row.dueDate;
  const mine =
    view.viewer === 'student' && view.own?.id
      ? toOwnSubmission({ ...view.own, id: view.own.id }, dueDate)
      : null;
  // A grade for missing work is shown once returned, never while held (DESIGN §17).
  const own = mine && (mine.submittedAt !== null || mine.returnedAt !== null) ? mine : null;
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    dueDate: dueDate.toISOString(),
    maxPoints: row.maxPoints,
    courseId: row.courseId,
    courseTitle,
    createdAt: row.createdAt.toISOString(),
    submission: own,
    submissionCount: view.viewer === 'teacher' ? view.submissionCount : null,
    needsGrading: view.viewer === 'teacher' ? view.needsGrading : null,
    status:
      view.viewer === 'student'
        ? workStatus(
            {
              dueDate,
              excused: view.excused,
              submission: own && {
                submittedAt: own.submittedAt,
                grade: own.grade,
                returnedAt: own.returnedAt,
              },
            },
            now,
            'student',
          )
        : view.viewer === 'members'
          ? view.status
          : null,
    gradeRelease: row.gradeRelease,
    closesAtDue: row.closesAtDue,
    categoryId: row.categoryId,
    // Members' views leave `extendedFrom` out: each student's client keeps its own extension.
    ...(view.viewer === 'teacher'
      ? {
          assignees: row.assignees ?? 'all',
          publishAt: row.publishedAt ? null : (row.publishAt?.toISOString() ?? null),
        }
      : view.viewer === 'student'
        ? { extendedFrom: extension ? row.dueDate.toISOString() : null }
        : {}),
  };
}
