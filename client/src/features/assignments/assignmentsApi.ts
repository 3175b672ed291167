import type {
  Assignment,
  CreateAssignmentBody,
  GradebookCell,
  OwnSubmission,
  RubricScores,
  Submission,
} from '@classwave/shared';
import { retryAfterMs } from '../../api/errors';
import { coursesApi, dashboardTagUnlessFailed } from '../courses/coursesApi';
import {
  mergeAssignment,
  removeAssignment,
  replaceSubmission,
  setOwnSubmission,
  upsertAssignments,
} from './assignmentCache';

export interface SubmitAssignmentArgs {
  assignmentId: string;
  content: string;
  /** Made when Submit was pressed (DESIGN §12): a retry with it answers the same submission. */
  idempotencyKey?: string;
  /** Files handed in with it (DESIGN §18), each already stored on the server. */
  fileIds?: string[];
}

/** A student's grade on an assignment, submitted or not (a grade for missing work, DESIGN §17). */
export interface GradeStudentArgs {
  assignmentId: string;
  studentId: string;
  grade: number;
  /** Omitted: the feedback stays as it is. */
  feedback?: string | null;
  /** The version the grader started from: 0 when nothing is there yet. */
  baseVersion: number;
  /** The level per criterion when graded by the rubric (DESIGN §17); null clears; omitted, kept if they still add up. */
  rubric?: RubricScores | null;
}

export interface GradeSubmissionArgs {
  submissionId: string;
  /** The submission's assignment, whose cached submission list is updated. */
  assignmentId: string;
  grade: number;
  /** Omitted: the feedback stays as it is (the gradebook writes points only). */
  feedback?: string | null;
  /** The submission's version the grader started from (409 grade_conflict when stale). */
  baseVersion: number;
  /** As for GradeStudentArgs. */
  rubric?: RubricScores | null;
}

const assignmentsQueries = coursesApi.injectEndpoints({
  endpoints: (build) => ({
    /** Teachers: their own courses' assignments, with submission counts. Students: all, with their own submission. */
    getAssignments: build.query<Assignment[], void>({
      query: () => '/assignments',
      providesTags: [{ type: 'Assignment', id: 'LIST' }],
    }),
    /** An assignment's submissions, newest first (the course's teacher only). */
    getSubmissions: build.query<Submission[], string>({
      query: (assignmentId) => `/assignments/${encodeURIComponent(assignmentId)}/submissions`,
      providesTags: (_result, _error, assignmentId) => [{ type: 'Submission', id: assignmentId }],
    }),
  }),
});

type State = Parameters<typeof coursesApi.util.selectCachedArgsForQuery>[0];

/** Applies `patch` to the assignment list of every cached course detail (one per visited course). */
export function patchCourseDetails(
  dispatch: (action: ReturnType<typeof coursesApi.util.updateQueryData<'getCourse'>>) => unknown,
  state: State,
  patch: (assignments: Assignment[]) => void,
) {
  for (const courseId of coursesApi.util.selectCachedArgsForQuery(state, 'getCourse')) {
    dispatch(coursesApi.util.updateQueryData('getCourse', courseId, (detail) => patch(detail.assignments)));
  }
}

/**
 * Assignments and submissions (spec §2). Mutations write the server's answer into every cached list
 * it belongs to (the assignment list, a course's assignments, an assignment's submissions), so the
 * screens change without a refetch; the live-event bridge patches the same caches by the same names.
 */
export const assignmentsApi = assignmentsQueries.injectEndpoints({
  endpoints: (build) => ({
    createAssignment: build.mutation<Assignment, CreateAssignmentBody>({
      query: (body) => ({ url: '/assignments', method: 'POST', body }),
      invalidatesTags: dashboardTagUnlessFailed,
      async onQueryStarted(_body, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (!data) return;
        dispatch(
          assignmentsQueries.util.updateQueryData('getAssignments', undefined, (list) =>
            upsertAssignments(list, [data]),
          ),
        );
        dispatch(
          coursesApi.util.updateQueryData('getCourse', data.courseId, (detail) =>
            upsertAssignments(detail.assignments, [data]),
          ),
        );
      },
    }),
    /** Three samples in a new sandbox course of the teacher's, no student in it (DESIGN §17). */
    createSampleAssignments: build.mutation<Assignment[], void>({
      // Samples are due at 23:59 in the teacher's own time zone, not the server's.
      query: () => ({
        url: '/assignments/samples',
        method: 'POST',
        params: { timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone },
      }),
      invalidatesTags: dashboardTagUnlessFailed,
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (!data) return;
        dispatch(
          assignmentsQueries.util.updateQueryData('getAssignments', undefined, (list) =>
            upsertAssignments(list, data),
          ),
        );
        for (const assignment of data) {
          dispatch(
            coursesApi.util.updateQueryData('getCourse', assignment.courseId, (detail) =>
              upsertAssignments(detail.assignments, [assignment]),
            ),
          );
        }
      },
    }),
    /** Deletes the assignment and its submissions. */
    deleteAssignment: build.mutation<void, string>({
      query: (assignmentId) => ({
        url: `/assignments/${encodeURIComponent(assignmentId)}`,
        method: 'DELETE',
      }),
      invalidatesTags: dashboardTagUnlessFailed,
      async onQueryStarted(assignmentId, { dispatch, getState, queryFulfilled }) {
        const ok = await queryFulfilled.then(
          () => true,
          () => false,
        );
        if (!ok) return;
        dispatch(
          assignmentsQueries.util.updateQueryData('getAssignments', undefined, (list) =>
            removeAssignment(list, assignmentId),
          ),
        );
        patchCourseDetails(dispatch, getState(), (list) => removeAssignment(list, assignmentId));
      },
    }),
    /** A student's one submission; 409 if they already submitted (unless it is a repeat of the same key). */
    submitAssignment: build.mutation<OwnSubmission, SubmitAssignmentArgs>({
      query: ({ assignmentId, content, idempotencyKey, fileIds }) => ({
        url: `/assignments/${encodeURIComponent(assignmentId)}/submissions`,
        method: 'POST',
        body: fileIds?.length ? { content, fileIds } : { content },
        ...(idempotencyKey ? { headers: { 'Idempotency-Key': idempotencyKey } } : {}),
      }),
      // A queued submit that met a busy server waits as long as the server asked (Retry-After).
      transformErrorResponse: (error, meta) => {
        const retryAfter = meta?.response?.headers.get('retry-after');
        return retryAfter ? { ...error, retryAfterMs: retryAfterMs(retryAfter) } : error;
      },
      // The student's dashboard counts only work still open to them.
      invalidatesTags: dashboardTagUnlessFailed,
      async onQueryStarted({ assignmentId }, { dispatch, getState, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (!data) return;
        dispatch(
          assignmentsQueries.util.updateQueryData('getAssignments', undefined, (list) =>
            setOwnSubmission(list, assignmentId, data),
          ),
        );
        patchCourseDetails(dispatch, getState(), (list) => setOwnSubmission(list, assignmentId, data));
      },
    }),
    /** The course's teacher grades (or regrades) a submission. */
    gradeSubmission: build.mutation<Submission, GradeSubmissionArgs>({
      query: ({ submissionId, grade, feedback, baseVersion, rubric }) => ({
        url: `/submissions/${encodeURIComponent(submissionId)}`,
        method: 'PATCH',
        body: { grade, feedback, baseVersion, rubric },
      }),
      async onQueryStarted(_args, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (!data) return;
        dispatch(applyGradedSubmission(data));
      },
    }),
    /** The course's teacher grades a student's work, with or without a submission (DESIGN §17). */
    gradeStudent: build.mutation<Submission, GradeStudentArgs>({
      query: ({ assignmentId, studentId, grade, feedback, baseVersion, rubric }) => ({
        url: `/assignments/${encodeURIComponent(assignmentId)}/grades/${encodeURIComponent(studentId)}`,
        method: 'PUT',
        body: { grade, feedback, baseVersion, rubric },
      }),
      async onQueryStarted(_args, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (!data) return;
        dispatch(applyGradedSubmission(data));
      },
    }),
    /** Takes back a grade given for missing work (issue 25): the student is back to no submission. */
    clearMissingGrade: build.mutation<
      GradebookCell,
      { assignmentId: string; studentId: string; baseVersion: number }
    >({
      query: ({ assignmentId, studentId, baseVersion }) => ({
        url: `/assignments/${encodeURIComponent(assignmentId)}/grades/${encodeURIComponent(studentId)}?baseVersion=${baseVersion}`,
        method: 'DELETE',
      }),
      async onQueryStarted(_args, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (data) dispatch(dropMissingGrade(data));
      },
    }),
  }),
});

/**
 * A graded submission (saved here, or live from another tab) in the teacher's caches: its row in
 * the submissions list, and the assignment's "N to grade" when it was waiting for a grade.
 */
export const applyGradedSubmission =
  (submission: Submission) =>
  (dispatch: (action: unknown) => unknown, getState: () => unknown): void => {
    const state = getState() as State;
    const cached = assignmentsQueries.endpoints.getSubmissions.select(submission.assignmentId)(state).data;
    const before = cached?.find((s) => s.id === submission.id);
    // Without the list open, whether it was waiting is unknown: the count loads again. A grade for
    // missing work (DESIGN §17) was never waiting and is no submission: no count changes.
    if (!before && submission.submittedAt !== null) {
      dispatch(coursesApi.util.invalidateTags([{ type: 'Assignment', id: 'LIST' }]));
      for (const courseId of coursesApi.util.selectCachedArgsForQuery(state, 'getCourse')) {
        dispatch(coursesApi.util.invalidateTags([{ type: 'Course', id: courseId }]));
      }
    }
    const wasWaiting = before !== undefined && before.grade === null && submission.grade !== null;
    dispatch(
      assignmentsQueries.util.updateQueryData('getSubmissions', submission.assignmentId, (list) =>
        replaceSubmission(list, submission),
      ),
    );
    if (!wasWaiting) return;
    const lessToGrade = (list: Assignment[]) => {
      const target = list.find((a) => a.id === submission.assignmentId);
      if (target?.needsGrading) target.needsGrading -= 1;
    };
    dispatch(assignmentsQueries.util.updateQueryData('getAssignments', undefined, lessToGrade));
    patchCourseDetails(dispatch, state, lessToGrade);
  };

/** Writes a changed assignment into every cached list that shows it, keeping the viewer's own work. */
export function storeAssignment(dispatch: (action: unknown) => unknown, assignment: Assignment): void {
  const merge = (list: Assignment[]) => {
    const existing = list.find((a) => a.id === assignment.id);
    if (existing) upsertAssignments(list, [mergeAssignment(existing, assignment)]);
  };
  dispatch(assignmentsApi.util.updateQueryData('getAssignments', undefined, merge));
  dispatch(
    coursesApi.util.updateQueryData('getCourse', assignment.courseId, (detail) => merge(detail.assignments)),
  );
}

export const {
  useGetAssignmentsQuery,
  useGetSubmissionsQuery,
  useCreateAssignmentMutation,
  useCreateSampleAssignmentsMutation,
  useDeleteAssignmentMutation,
  useSubmitAssignmentMutation,
  useGradeSubmissionMutation,
  useGradeStudentMutation,
  useClearMissingGradeMutation,
} = assignmentsApi;

/**
 * A grade for missing work taken back (here, or live in another tab as its `gradebook:cell`): the
 * student's row leaves the teacher's submissions list, as if never graded.
 */
export const dropMissingGrade =
  (cell: Pick<GradebookCell, 'assignmentId' | 'studentId' | 'submissionId'>) =>
  (dispatch: (action: unknown) => unknown): void => {
    if (cell.submissionId !== null) return;
    dispatch(
      assignmentsQueries.util.updateQueryData('getSubmissions', cell.assignmentId, (list) =>
        list.filter((s) => s.studentId !== cell.studentId || s.submittedAt !== null),
      ),
    );
  };
