import { Type, type Static } from 'typebox';

import { LIMITS } from './limits.js';
import { GradeRelease, WorkStatus } from './grading.js';
import { RubricScores } from './rubrics.js';
import { FileSummary } from './files.js';

export { LIMITS };

const Uuid = Type.String({ format: 'uuid' });
const Timestamp = Type.String({ format: 'date-time' });
/** Required text: at least one non-space character. */
const Text = (maxLength: number, description?: string) =>
  Type.String({ minLength: 1, maxLength, pattern: '\\S', ...(description ? { description } : {}) });

export const IdParams = Type.Object({ id: Uuid }, { additionalProperties: false });
export type IdParams = Static<typeof IdParams>;

export const PersonRef = Type.Object({ id: Uuid, fullName: Type.String() }, { additionalProperties: false });
export type PersonRef = Static<typeof PersonRef>;

// Courses

export const Course = Type.Object(
  {
    id: Uuid,
    title: Type.String(),
    description: Type.String(),
    code: Type.String(),
    teacherId: Uuid,
    createdAt: Timestamp,
    teacher: PersonRef,
    /** The join code, `XXXX-XXXX` (DESIGN §11): the course's teacher only; null for everyone else. */
    joinCode: Type.Union([Type.String(), Type.Null()]),
    /** Whether the join code is accepted now. */
    joinEnabled: Type.Boolean(),
    /**
     * Missing work past due (no submission, not excused) counts 0 points in the gradebook's totals
     * and the CSV's Total Possible; false: only graded work counts (DESIGN §17).
     */
    missingCountsAsZero: Type.Boolean(),
    /**
     * When its owner archived it (DESIGN §20): read-only, out of the course lists, under "Past
     * classes"; null while current.
     */
    archivedAt: Type.Union([Timestamp, Type.Null()]),
  },
  { additionalProperties: false },
);
export type Course = Static<typeof Course>;

export const CreateCourseBody = Type.Object(
  {
    title: Text(LIMITS.courseTitle),
    code: Text(LIMITS.courseCode, 'A short code such as CS101.'),
    description: Text(LIMITS.courseDescription),
  },
  { additionalProperties: false },
);
export type CreateCourseBody = Static<typeof CreateCourseBody>;

export const CourseList = Type.Array(Course);

/** A course code as stored and shown: trimmed and upper-cased ('cs101 ' is CS101), one per teacher. */
export const normalizeCourseCode = (code: string) => code.trim().toUpperCase();

// Assignments

/** The signed-in student's own submission, as shown on their assignment card. */
export const OwnSubmission = Type.Object(
  {
    id: Uuid,
    /**
     * When the student handed it in; null on a returned grade for missing work (a held one is not
     * shown at all): the student has not submitted, and may still while the assignment is open.
     */
    submittedAt: Type.Union([Timestamp, Type.Null()]),
    grade: Type.Union([Type.Integer(), Type.Null()]),
    /** Null until the grade is returned (with gradeRelease 'auto', when given): a held grade never reaches the student. */
    feedback: Type.Union([Type.String(), Type.Null()]),
    gradedAt: Type.Union([Timestamp, Type.Null()]),
    /** When the grade reached the student; null while held or ungraded. */
    returnedAt: Type.Union([Timestamp, Type.Null()]),
    /** Minutes after the due time, or null when on time (DESIGN §13). */
    late: Type.Union([Type.Integer(), Type.Null()]),
    /**
     * The rubric's scores as returned with the grade (DESIGN §17), in the student's own submission
     * view only; null while held, ungraded or graded without the rubric.
     */
    rubricScores: Type.Optional(Type.Union([RubricScores, Type.Null()])),
    /** The files handed in with it (DESIGN §18), in upload order. */
    files: Type.Optional(Type.Array(FileSummary)),
  },
  { additionalProperties: false },
);
export type OwnSubmission = Static<typeof OwnSubmission>;

export const Assignment = Type.Object(
  {
    id: Uuid,
    title: Type.String(),
    description: Type.String(),
    dueDate: Timestamp,
    maxPoints: Type.Integer(),
    courseId: Uuid,
    courseTitle: Type.String(),
    createdAt: Timestamp,
    /** Students: their own submission, or null. Teachers: always null. */
    submission: Type.Union([OwnSubmission, Type.Null()]),
    /** Teachers: how many students have submitted. Students: null. */
    submissionCount: Type.Union([Type.Integer(), Type.Null()]),
    /** Teachers: submissions not yet graded. Students: null. */
    needsGrading: Type.Union([Type.Integer(), Type.Null()]),
    /** Students: where their work stands (server clock; never `graded`). Teachers: null. */
    status: Type.Union([WorkStatus, Type.Null()]),
    gradeRelease: GradeRelease,
    /** Submissions after the due time are refused (409 assignment_closed). */
    closesAtDue: Type.Boolean(),
    /** Its grade category (DESIGN §17), or null. */
    categoryId: Type.Union([Uuid, Type.Null()]),
  },
  { additionalProperties: false },
);
export type Assignment = Static<typeof Assignment>;
export const AssignmentList = Type.Array(Assignment);

/** One of a course's teachers as everyone in it sees them (DESIGN §20): no e-mail address. */
export const CourseTeacherName = Type.Object(
  {
    id: Uuid,
    fullName: Type.String(),
    role: Type.Union([Type.Literal('owner'), Type.Literal('co_teacher')]),
  },
  { additionalProperties: false },
);
export type CourseTeacherName = Static<typeof CourseTeacherName>;

export const CourseDetail = Type.Object(
  {
    course: Course,
    assignments: AssignmentList,
    /**
     * The course's teachers, the owner first, then co-teachers by when they joined (the course
     * page's Instructor card). Always sent by the server; absent only in an older cached answer.
     */
    teachers: Type.Optional(Type.Array(CourseTeacherName)),
  },
  { additionalProperties: false },
);
export type CourseDetail = Static<typeof CourseDetail>;

export const CreateAssignmentBody = Type.Object(
  {
    title: Text(LIMITS.assignmentTitle),
    description: Type.Optional(Type.String({ maxLength: LIMITS.assignmentDescription })),
    dueDate: Type.String({ format: 'date-time', description: 'An ISO 8601 date and time with its offset.' }),
    maxPoints: Type.Optional(Type.Integer({ minimum: 1, maximum: LIMITS.maxPoints, default: 100 })),
    courseId: Uuid,
    gradeRelease: Type.Optional(GradeRelease),
    closesAtDue: Type.Optional(Type.Boolean()),
    /** One of the course's grade categories (DESIGN §17); left out or null: none. */
    categoryId: Type.Optional(Type.Union([Uuid, Type.Null()])),
  },
  { additionalProperties: false },
);
export type CreateAssignmentBody = Static<typeof CreateAssignmentBody>;

// Submissions

export const Submission = Type.Object(
  {
    id: Uuid,
    assignmentId: Uuid,
    studentId: Uuid,
    /** The answer; null with `submittedAt` on a grade for missing work (no submission, DESIGN §17). */
    content: Type.Union([Type.String(), Type.Null()]),
    submittedAt: Type.Union([Timestamp, Type.Null()]),
    grade: Type.Union([Type.Integer(), Type.Null()]),
    feedback: Type.Union([Type.String(), Type.Null()]),
    gradedAt: Type.Union([Timestamp, Type.Null()]),
    student: PersonRef,
    /** Grows with every grade write; PATCH sends it back as baseVersion (DESIGN §13). */
    version: Type.Integer(),
    /** Minutes after the due time, or null when on time. */
    late: Type.Union([Type.Integer(), Type.Null()]),
    /** When a grade last reached the student; null until one has. */
    returnedAt: Type.Union([Timestamp, Type.Null()]),
    /**
     * The grade waits for Return: never returned, or changed since (on 'manual' the student keeps
     * the grade returned before until the new one is returned, DESIGN §17).
     */
    held: Type.Boolean(),
    gradedBy: Type.Union([PersonRef, Type.Null()]),
    /** The level chosen per criterion when graded by the rubric (DESIGN §17); null otherwise. */
    rubricScores: Type.Union([RubricScores, Type.Null()]),
    /** The files handed in with it (DESIGN §18), in upload order; in the teacher's list. */
    files: Type.Optional(Type.Array(FileSummary)),
  },
  { additionalProperties: false },
);
export type Submission = Static<typeof Submission>;
export const SubmissionList = Type.Array(Submission);

export const CreateSubmissionBody = Type.Object(
  {
    /** The answer's text; may be blank when files carry the work (a photo of handwritten maths). */
    content: Type.String({ maxLength: LIMITS.submissionContent }),
    /**
     * Files to hand in with it (DESIGN §18): the student's own ready uploads for this assignment;
     * one still uploading is 409 files_not_ready, and nothing is submitted.
     */
    fileIds: Type.Optional(Type.Array(Uuid, { maxItems: 1000 })),
  },
  { additionalProperties: false },
);
export type CreateSubmissionBody = Static<typeof CreateSubmissionBody>;

export const GradeBody = Type.Object(
  {
    grade: Type.Integer({
      minimum: 0,
      maximum: LIMITS.maxPoints,
      description: "Points, from 0 to the assignment's max points.",
    }),
    feedback: Type.Optional(
      Type.Union([Type.String({ maxLength: LIMITS.feedback }), Type.Null()], {
        description: 'Left out: the feedback stays as it is; null or blank: cleared.',
      }),
    ),
    baseVersion: Type.Integer({
      minimum: 0,
      description: "The submission's version the grader started from; a stale one is 409 grade_conflict.",
    }),
    rubric: Type.Optional(
      Type.Union([Type.Null(), RubricScores], {
        description:
          "{criterionId: levelId}, one level for every criterion of the assignment's rubric; grade must be " +
          'their sum. Null clears the scores; left out, they stay only while they still add up to the grade.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type GradeBody = Static<typeof GradeBody>;

/** `PUT /api/assignments/:id/grades/:studentId`: a student's grade on an assignment, submitted or not. */
export const StudentGradeParams = Type.Object({ id: Uuid, studentId: Uuid }, { additionalProperties: false });
export type StudentGradeParams = Static<typeof StudentGradeParams>;

/** `DELETE /api/assignments/:id/grades/:studentId`: the version of the grade for missing work being taken back. */
export const ClearGradeQuery = Type.Object(
  { baseVersion: Type.Integer({ minimum: 1, description: "The grade's version the teacher saw." }) },
  { additionalProperties: false },
);
export type ClearGradeQuery = Static<typeof ClearGradeQuery>;

// Dashboard

export const UpcomingEvent = Type.Object(
  {
    id: Uuid,
    title: Type.String(),
    type: Type.Union([Type.Literal('assignment'), Type.Literal('class')]),
    time: Timestamp,
    courseTitle: Type.String(),
  },
  { additionalProperties: false },
);
export type UpcomingEvent = Static<typeof UpcomingEvent>;

export const Dashboard = Type.Object(
  {
    stats: Type.Object(
      {
        totalCourses: Type.Integer(),
        activeAssignments: Type.Integer(),
        upcomingClasses: Type.Integer(),
        teamMembers: Type.Integer(),
      },
      { additionalProperties: false },
    ),
    upcomingEvents: Type.Array(UpcomingEvent),
  },
  { additionalProperties: false },
);
export type Dashboard = Static<typeof Dashboard>;
