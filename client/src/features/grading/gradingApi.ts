import type {
  Assignment,
  AssignmentPanel,
  Course,
  CurrentGrade,
  ExcuseBody,
  Gradebook,
  GradebookCell,
  ReturnResponse,
  ScheduledReturn,
  StudentCourseGrades,
  Submission,
  UpdateAssignmentBody,
  UpdateCourseBody,
} from '@classwave/shared';
import { apiErrorBody } from '../../api/errors';
import { storeAssignment } from '../assignments/assignmentsApi';
import { upsertCourses } from '../courses/courseCache';
import { coursesApi } from '../courses/coursesApi';

export type StudentGrades = StudentCourseGrades[];

export interface UpdateAssignmentArgs {
  assignmentId: string;
  body: UpdateAssignmentBody;
}

export interface ReturnGradesArgs {
  assignmentId: string;
  courseId: string;
  /** Omitted: every graded, unreturned submission. */
  submissionIds?: string[];
  /** The server holds the Return for RETURN_UNDO_SECONDS, so it can be undone (202 ScheduledReturn). */
  undoable?: boolean;
}

/** What POST /return answers: returned now (200), or scheduled for the end of the undo window (202). */
export type ReturnOutcome = ReturnResponse | ScheduledReturn;
export const isScheduled = (outcome: ReturnOutcome): outcome is ScheduledReturn => 'runAt' in outcome;

export interface ExcuseArgs extends ExcuseBody {
  assignmentId: string;
  courseId: string;
}

const GRADING_TAGS = ['Gradebook', 'Grades', 'Panel'] as const;

/**
 * The grade as it now stands when a write was refused with 409 grade_conflict (DESIGN §13): the
 * grader then keeps theirs (resending with `current.version`) or takes it.
 */
export function gradeConflictOf(error: unknown): CurrentGrade | undefined {
  const body = apiErrorBody(error) as
    (ReturnType<typeof apiErrorBody> & { current?: CurrentGrade }) | undefined;
  return body?.code === 'grade_conflict' ? body.current : undefined;
}

/** Replaces (or adds) one cell of a cached gradebook. Mutates `gradebook` (an Immer draft). */
export function upsertCell(gradebook: Gradebook, cell: GradebookCell): void {
  const index = gradebook.cells.findIndex(
    (c) => c.assignmentId === cell.assignmentId && c.studentId === cell.studentId,
  );
  if (index === -1) gradebook.cells.push(cell);
  else gradebook.cells[index] = cell;
}

/**
 * A submission as a gradebook cell (the teacher's view: a held grade reads `graded`). What a
 * submission does not say stays as `current` (the cell it replaces) had it: the student's own due
 * date (an extension) and whether the assignment is theirs at all (DESIGN §20).
 */
function cellFromSubmission(submission: Submission, current: GradebookCell | undefined): GradebookCell {
  return {
    assignmentId: submission.assignmentId,
    studentId: submission.studentId,
    submissionId: submission.id,
    grade: submission.grade,
    version: submission.version,
    status:
      submission.grade !== null
        ? submission.held
          ? 'graded'
          : 'returned'
        : submission.late !== null
          ? 'late'
          : 'submitted',
    late: submission.late,
    returnedAt: submission.returnedAt,
    ...(current?.assigned !== undefined && { assigned: current.assigned }),
    ...(current?.dueDate !== undefined && { dueDate: current.dueDate }),
  };
}

/** Writes a submission into its cell of a cached gradebook. Mutates `gradebook` (an Immer draft). */
export function upsertSubmissionCell(gradebook: Gradebook, submission: Submission): void {
  const current = gradebook.cells.find(
    (c) => c.assignmentId === submission.assignmentId && c.studentId === submission.studentId,
  );
  upsertCell(gradebook, cellFromSubmission(submission, current));
}

const gradingQueries = coursesApi.enhanceEndpoints({ addTagTypes: GRADING_TAGS }).injectEndpoints({
  endpoints: (build) => ({
    /** Students × assignments of one course (its teacher only). */
    getGradebook: build.query<Gradebook, string>({
      query: (courseId) => `/courses/${encodeURIComponent(courseId)}/gradebook`,
      providesTags: (_result, _error, courseId) => [{ type: 'Gradebook', id: courseId }],
    }),
    /** The signed-in student's returned grades, by course. */
    getGrades: build.query<StudentGrades, void>({
      query: () => '/grades',
      providesTags: ['Grades'],
    }),
    /** Who has not opened, is viewing, writing, has submitted… one assignment (its teacher only). */
    getPanel: build.query<AssignmentPanel, string>({
      query: (assignmentId) => `/assignments/${encodeURIComponent(assignmentId)}/panel`,
      providesTags: (_result, _error, assignmentId) => [{ type: 'Panel', id: assignmentId }],
    }),
  }),
});

/**
 * Grading (DESIGN §13): editing courses and assignments, returning held grades, excusing a student,
 * the gradebook, a student's grades and the live panel. Answers are written into the caches that
 * show them; the live-event bridge patches the same caches.
 */
export const gradingApi = gradingQueries.injectEndpoints({
  endpoints: (build) => ({
    updateCourse: build.mutation<Course, { courseId: string; body: UpdateCourseBody }>({
      query: ({ courseId, body }) => ({
        url: `/courses/${encodeURIComponent(courseId)}`,
        method: 'PATCH',
        body,
      }),
      // Whether missing work counts as zero changes the gradebook's totals: it loads again.
      invalidatesTags: (result, error, { courseId, body }) =>
        error || !result || body.missingCountsAsZero === undefined
          ? []
          : [{ type: 'Gradebook', id: courseId }],
      async onQueryStarted(_args, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (!data) return;
        dispatch(
          coursesApi.util.updateQueryData('getCourses', undefined, (list) => upsertCourses(list, [data])),
        );
        dispatch(
          coursesApi.util.updateQueryData('getCourse', data.id, (detail) => {
            detail.course = data;
          }),
        );
      },
    }),
    /** 409 points_below_grade when max points would fall below a grade already given. */
    updateAssignment: build.mutation<Assignment, UpdateAssignmentArgs>({
      query: ({ assignmentId, body }) => ({
        url: `/assignments/${encodeURIComponent(assignmentId)}`,
        method: 'PATCH',
        body,
      }),
      invalidatesTags: (result, error) =>
        error || !result ? [] : ['Dashboard', { type: 'Gradebook', id: result.courseId }],
      async onQueryStarted(_args, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (data) storeAssignment(dispatch, data);
      },
    }),
    /**
     * Releases held grades: all graded ones, or the chosen submissions; with `undoable`, the server
     * schedules exactly those held now and the rows change when it sends them (live events).
     */
    returnGrades: build.mutation<ReturnOutcome, ReturnGradesArgs>({
      query: ({ assignmentId, submissionIds, undoable }) => ({
        url: `/assignments/${encodeURIComponent(assignmentId)}/return`,
        method: 'POST',
        body: { ...(submissionIds ? { submissionIds } : {}), ...(undoable ? { undoable } : {}) },
      }),
      // Returned now: the rows' times are the server's, so the lists that show them load again.
      invalidatesTags: (result, error, { assignmentId, courseId }) =>
        error || !result || isScheduled(result)
          ? []
          : [
              { type: 'Submission', id: assignmentId },
              { type: 'Gradebook', id: courseId },
            ],
    }),
    /** Undo: cancels a scheduled Return; 409 return_already_sent once the server has sent it. */
    undoReturn: build.mutation<void, string>({
      query: (returnId) => ({ url: `/returns/${encodeURIComponent(returnId)}`, method: 'DELETE' }),
    }),
    excuse: build.mutation<unknown, ExcuseArgs>({
      query: ({ assignmentId, studentId, excused }) => ({
        url: `/assignments/${encodeURIComponent(assignmentId)}/excuse`,
        method: 'POST',
        body: { studentId, excused },
      }),
      async onQueryStarted({ assignmentId, studentId, excused, courseId }, { dispatch, queryFulfilled }) {
        // Shown at once; put back if the server refuses.
        const patch = dispatch(
          gradingQueries.util.updateQueryData('getGradebook', courseId, (gradebook) => {
            const cell = gradebook.cells.find(
              (c) => c.assignmentId === assignmentId && c.studentId === studentId,
            );
            if (cell && cell.submissionId === null) cell.status = excused ? 'excused' : 'not_submitted';
          }),
        );
        await queryFulfilled.catch(() => patch.undo());
      },
      invalidatesTags: (_result, error, { courseId }) => (error ? [] : [{ type: 'Gradebook', id: courseId }]),
    }),
  }),
});

export const {
  useGetGradebookQuery,
  useGetGradesQuery,
  useGetPanelQuery,
  useUpdateCourseMutation,
  useUpdateAssignmentMutation,
  useReturnGradesMutation,
  useUndoReturnMutation,
  useExcuseMutation,
} = gradingApi;
