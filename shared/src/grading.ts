import { Type, type Static } from 'typebox';
import { LIMITS } from './limits.js';
import { courseTotals, GradeCategory, type Totals } from './categories.js';
import { RubricScores } from './rubrics.js';
import { Assignees, PublishAt } from './assigning.js';

/**
 * Grading teachers can trust (DESIGN §13): editable courses and assignments, statuses computed
 * with the server's clock, versioned grades, held grades released by Return, a gradebook and its
 * CSV, a student's own grades, and a live panel of who is working on an assignment.
 */

const Uuid = Type.String({ format: 'uuid' });
const Timestamp = Type.String({ format: 'date-time' });
const Text = (maxLength: number) => Type.String({ minLength: 1, maxLength, pattern: '\\S' });

export const GradeRelease = Type.Union([Type.Literal('auto'), Type.Literal('manual')], {
  description: "auto: a grade reaches the student when given (the spec's behaviour); manual: when returned.",
});
export type GradeRelease = Static<typeof GradeRelease>;

/**
 * Where one student's work on one assignment stands. Teachers see all seven; a student never sees
 * `graded` (a held grade): theirs reads `submitted`/`late` until the grade is returned.
 */
export const WORK_STATUSES = [
  'not_submitted',
  'submitted',
  'late',
  'missing',
  'excused',
  'graded',
  'returned',
] as const;
export const WorkStatus = Type.Union([
  Type.Literal('not_submitted'),
  Type.Literal('submitted'),
  Type.Literal('late'),
  Type.Literal('missing'),
  Type.Literal('excused'),
  Type.Literal('graded'),
  Type.Literal('returned'),
]);
export type WorkStatus = Static<typeof WorkStatus>;

export const WORK_STATUS_LABELS: Record<WorkStatus, string> = {
  not_submitted: 'Not submitted',
  submitted: 'Submitted',
  late: 'Late',
  missing: 'Missing',
  excused: 'Excused',
  graded: 'Graded',
  returned: 'Returned',
};

/** Whole minutes after the due time, or null when on time (a submission at the due second is on time). */
export function minutesLate(submittedAt: string | Date | null, dueDate: string | Date): number | null {
  if (submittedAt === null) return null;
  const ms = new Date(submittedAt).getTime() - new Date(dueDate).getTime();
  return ms > 0 ? Math.max(1, Math.floor(ms / 60_000)) : null;
}

/** "2 h 14 min late", "3 d 2 h late", "1 min late". */
export function formatLateness(minutes: number): string {
  const d = Math.floor(minutes / 1440);
  const h = Math.floor((minutes % 1440) / 60);
  const m = minutes % 60;
  if (d > 0) return h > 0 ? `${d} d ${h} h late` : `${d} d late`;
  if (h > 0) return m > 0 ? `${h} h ${m} min late` : `${h} h late`;
  return `${m} min late`;
}

/**
 * Whether a grade waits for the teacher's Return (DESIGN §13, §17): given and never returned, or
 * changed since it was last returned (on 'manual' a changed grade is held again, and the student
 * keeps seeing the one returned before). The teacher's views carry `held` as the server worked it
 * out; a student's own views only ever carry returned grades.
 */
export function isHeld(submission: {
  grade: number | null;
  returnedAt: string | Date | null;
  held?: boolean;
}): boolean {
  return submission.held ?? (submission.grade !== null && submission.returnedAt === null);
}

/**
 * One student's status on one assignment at `now` (the server's clock on the server; the client
 * recomputes it as time passes). `viewer` decides whether a held grade shows as `graded`.
 */
export function workStatus(
  work: {
    dueDate: string | Date;
    excused: boolean;
    /** A row with `submittedAt` null is a grade for missing work: graded, but not submitted. */
    submission: {
      submittedAt: string | Date | null;
      grade: number | null;
      returnedAt: string | Date | null;
      held?: boolean;
    } | null;
  },
  now: Date,
  viewer: 'teacher' | 'student',
): WorkStatus {
  const { submission } = work;
  if (submission) {
    if (submission.grade !== null && !isHeld(submission)) return 'returned';
    if (submission.grade !== null && viewer === 'teacher') return 'graded';
    // A held grade for missing work: the student reads it as the missing work it is.
    if (submission.submittedAt !== null)
      return minutesLate(submission.submittedAt, work.dueDate) !== null ? 'late' : 'submitted';
  }
  if (work.excused) return 'excused';
  return new Date(work.dueDate).getTime() < now.getTime() ? 'missing' : 'not_submitted';
}

// Editing (PATCH: at least one field)

export const UpdateCourseBody = Type.Object(
  {
    title: Type.Optional(Text(LIMITS.courseTitle)),
    code: Type.Optional(Text(LIMITS.courseCode)),
    description: Type.Optional(Text(LIMITS.courseDescription)),
    missingCountsAsZero: Type.Optional(
      Type.Boolean({ description: 'Missing work past due counts 0 in the totals (DESIGN §17).' }),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateCourseBody = Static<typeof UpdateCourseBody>;

export const UpdateAssignmentBody = Type.Object(
  {
    title: Type.Optional(Text(LIMITS.assignmentTitle)),
    description: Type.Optional(Type.String({ maxLength: LIMITS.assignmentDescription })),
    dueDate: Type.Optional(Type.String({ format: 'date-time' })),
    maxPoints: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: LIMITS.maxPoints,
        description: 'Never below a grade already given (409).',
      }),
    ),
    gradeRelease: Type.Optional(GradeRelease),
    closesAtDue: Type.Optional(
      Type.Boolean({ description: 'Refuse submissions after the due time (409 assignment_closed).' }),
    ),
    categoryId: Type.Optional(
      Type.Union([Uuid, Type.Null()], { description: "One of the course's grade categories; null: none." }),
    ),
    /** Who it is for (DESIGN §20): newly named students get it live, students left out lose it. */
    assignees: Type.Optional(Assignees),
    /** Moves a scheduled assignment's publication (null: now); 409 already_published once out. */
    publishAt: Type.Optional(PublishAt),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateAssignmentBody = Static<typeof UpdateAssignmentBody>;

// Grading with a version check (GradeBody in teaching.ts carries baseVersion)

/** The grade as it stands now: carried by 409 grade_conflict so the grader can keep theirs or take it. */
export const CurrentGrade = Type.Object(
  {
    grade: Type.Union([Type.Integer(), Type.Null()]),
    feedback: Type.Union([Type.String(), Type.Null()]),
    version: Type.Integer(),
    gradedBy: Type.Union([
      Type.Object({ id: Uuid, fullName: Type.String() }, { additionalProperties: false }),
      Type.Null(),
    ]),
    gradedAt: Type.Union([Timestamp, Type.Null()]),
    /** The rubric levels that make up the grade (null without a rubric), so "Use theirs" takes them too. */
    rubricScores: Type.Union([RubricScores, Type.Null()]),
  },
  { additionalProperties: false },
);
export type CurrentGrade = Static<typeof CurrentGrade>;

/** 409 grade_conflict: the usual error body plus `current`. */
export const GradeConflictBody = Type.Object(
  {
    statusCode: Type.Integer(),
    code: Type.Literal('grade_conflict'),
    error: Type.String(),
    message: Type.String(),
    current: CurrentGrade,
  },
  { additionalProperties: false },
);
export type GradeConflictBody = Static<typeof GradeConflictBody>;

/** Excuse a student from an assignment (or take the excuse back). */
export const ExcuseBody = Type.Object(
  { studentId: Uuid, excused: Type.Boolean() },
  { additionalProperties: false },
);
export type ExcuseBody = Static<typeof ExcuseBody>;

// Return (release held grades)

export const ReturnBody = Type.Object(
  {
    submissionIds: Type.Optional(
      Type.Array(Uuid, {
        minItems: 1,
        maxItems: 1000,
        uniqueItems: true,
        description: 'Omitted: every graded, unreturned submission.',
      }),
    ),
    undoable: Type.Optional(
      Type.Boolean({
        description:
          'true: nothing is sent for RETURN_UNDO_SECONDS (202 with the scheduled return, which DELETE ' +
          '/api/returns/:id cancels until it has run); the submissions held now are the ones returned. ' +
          'Omitted or false: returned at once (200), for API callers that want no window.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ReturnBody = Static<typeof ReturnBody>;

export const ReturnResponse = Type.Object({ returned: Type.Integer() }, { additionalProperties: false });
export type ReturnResponse = Static<typeof ReturnResponse>;

/** Seconds the teacher has to undo a Return before anything is sent (DESIGN §13). */
export const RETURN_UNDO_SECONDS = 10;

/** A Return waiting out its undo window on the server (202 from POST /api/assignments/:id/return). */
export const ScheduledReturn = Type.Object(
  {
    /** For DELETE /api/returns/:id (Undo). */
    id: Uuid,
    assignmentId: Uuid,
    /** Exactly these go out at `runAt` (those still held then): grades given meanwhile wait for another Return. */
    submissionIds: Type.Array(Uuid),
    /** When the grades go out, by the server's clock. */
    runAt: Timestamp,
  },
  { additionalProperties: false },
);
export type ScheduledReturn = Static<typeof ScheduledReturn>;

// Gradebook

export const GradebookStudent = Type.Object(
  { id: Uuid, fullName: Type.String(), email: Type.String() },
  { additionalProperties: false },
);
export type GradebookStudent = Static<typeof GradebookStudent>;

export const GradebookAssignment = Type.Object(
  {
    id: Uuid,
    title: Type.String(),
    dueDate: Timestamp,
    maxPoints: Type.Integer(),
    gradeRelease: GradeRelease,
    /** Its grade category (DESIGN §17), or null. */
    categoryId: Type.Union([Uuid, Type.Null()]),
  },
  { additionalProperties: false },
);
export type GradebookAssignment = Static<typeof GradebookAssignment>;

/** One student × assignment: every pair has a cell, with or without a submission. */
export const GradebookCell = Type.Object(
  {
    assignmentId: Uuid,
    studentId: Uuid,
    submissionId: Type.Union([Uuid, Type.Null()]),
    grade: Type.Union([Type.Integer(), Type.Null()]),
    /** The submission's version (for PATCH baseVersion); null without a submission. */
    version: Type.Union([Type.Integer(), Type.Null()]),
    status: WorkStatus,
    /** Minutes late, or null. */
    late: Type.Union([Type.Integer(), Type.Null()]),
    returnedAt: Type.Union([Timestamp, Type.Null()]),
    /**
     * False when the assignment is not (yet) for this student (DESIGN §20: scheduled, or assigned
     * to others): shown as "Not assigned", never missing, and left out of their totals (its status
     * is then `excused`, which the totals already skip). Left out: assigned.
     */
    assigned: Type.Optional(Type.Boolean()),
    /** Their own due date when they have an extension (DESIGN §20); left out otherwise. */
    dueDate: Type.Optional(Timestamp),
  },
  { additionalProperties: false },
);
export type GradebookCell = Static<typeof GradebookCell>;

export const Gradebook = Type.Object(
  {
    course: Type.Object(
      {
        id: Uuid,
        title: Type.String(),
        code: Type.String(),
        /** Missing work past due counts 0 in the totals (DESIGN §17). */
        missingCountsAsZero: Type.Boolean(),
      },
      { additionalProperties: false },
    ),
    /** Active members, by name. */
    students: Type.Array(GradebookStudent),
    /** By due date. */
    assignments: Type.Array(GradebookAssignment),
    cells: Type.Array(GradebookCell),
    /** The course's weighted categories, in order; empty: unweighted (DESIGN §17). */
    categories: Type.Array(GradeCategory),
  },
  { additionalProperties: false },
);
export type Gradebook = Static<typeof Gradebook>;

/**
 * A student's totals, as the CSV and the screen show them (DESIGN §17): see courseTotals, over the
 * gradebook's cells of that student (the grades the teacher sees).
 */
export function studentTotals(
  gradebook: Pick<Gradebook, 'assignments' | 'cells' | 'categories'> & {
    course: Pick<Gradebook['course'], 'missingCountsAsZero'>;
  },
  studentId: string,
): Totals {
  const byId = new Map(gradebook.assignments.map((a) => [a.id, a]));
  const work = gradebook.cells.flatMap((cell) => {
    const assignment = byId.get(cell.assignmentId);
    if (cell.studentId !== studentId || !assignment) return [];
    return [{ ...cell, maxPoints: assignment.maxPoints, categoryId: assignment.categoryId }];
  });
  return courseTotals(work, gradebook.categories, gradebook.course.missingCountsAsZero);
}

/** The mean grade of an assignment's graded cells, or null when none is graded. */
export function assignmentAverage(gradebook: Pick<Gradebook, 'cells'>, assignmentId: string): number | null {
  const grades = gradebook.cells
    .filter((c) => c.assignmentId === assignmentId && c.grade !== null)
    .map((c) => c.grade!);
  return grades.length ? Math.round((grades.reduce((a, b) => a + b, 0) / grades.length) * 10) / 10 : null;
}

// A student's own grades

export const StudentGrade = Type.Object(
  {
    assignmentId: Uuid,
    title: Type.String(),
    dueDate: Timestamp,
    maxPoints: Type.Integer(),
    status: WorkStatus,
    /** Only once returned. */
    grade: Type.Union([Type.Integer(), Type.Null()]),
    feedback: Type.Union([Type.String(), Type.Null()]),
    returnedAt: Type.Union([Timestamp, Type.Null()]),
    categoryId: Type.Union([Uuid, Type.Null()]),
  },
  { additionalProperties: false },
);
export type StudentGrade = Static<typeof StudentGrade>;

export const StudentCourseGrades = Type.Object(
  {
    course: Type.Object(
      { id: Uuid, title: Type.String(), code: Type.String() },
      { additionalProperties: false },
    ),
    items: Type.Array(StudentGrade),
    /** Over returned grades only. */
    points: Type.Integer(),
    possible: Type.Integer(),
    /** Weighted by the categories when the course has them. */
    percent: Type.Union([Type.Number(), Type.Null()]),
    /** The course's categories with this student's standing in each; empty: unweighted. */
    categories: Type.Array(
      Type.Object(
        {
          ...GradeCategory.properties,
          points: Type.Integer(),
          possible: Type.Integer(),
          percent: Type.Union([Type.Number(), Type.Null()]),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type StudentCourseGrades = Static<typeof StudentCourseGrades>;
export const GradesResponse = Type.Array(StudentCourseGrades);

// Live assignment panel (teacher)

/** What a student's open tab reports: the assignment it shows, and whether they are typing an answer. */
export const PresenceState = Type.Union([Type.Literal('viewing'), Type.Literal('writing')]);
export type PresenceState = Static<typeof PresenceState>;

export const PANEL_STATES = ['not_opened', 'viewing', 'writing', 'submitted', 'late', 'missing'] as const;
export const PanelState = Type.Union([
  Type.Literal('not_opened'),
  Type.Literal('viewing'),
  Type.Literal('writing'),
  Type.Literal('submitted'),
  Type.Literal('late'),
  Type.Literal('missing'),
]);
export type PanelState = Static<typeof PanelState>;

export const AssignmentPanel = Type.Object(
  {
    assignmentId: Uuid,
    counts: Type.Object(
      {
        not_opened: Type.Integer(),
        viewing: Type.Integer(),
        writing: Type.Integer(),
        submitted: Type.Integer(),
        late: Type.Integer(),
        missing: Type.Integer(),
      },
      { additionalProperties: false },
    ),
    students: Type.Array(
      Type.Object({ id: Uuid, fullName: Type.String(), state: PanelState }, { additionalProperties: false }),
    ),
  },
  { additionalProperties: false },
);
export type AssignmentPanel = Static<typeof AssignmentPanel>;
