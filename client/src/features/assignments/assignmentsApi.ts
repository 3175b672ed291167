import type { Assignment, CreateAssignmentBody, OwnSubmission, Submission } from '@classwave/shared';
import { coursesApi, dashboardTagUnlessFailed } from '../courses/coursesApi';
import { removeAssignment, replaceSubmission, setOwnSubmission, upsertAssignments } from './assignmentCache';

export interface SubmitAssignmentArgs {
  assignmentId: string;
  content: string;
}

export interface GradeSubmissionArgs {
  submissionId: string;
  /** The submission's assignment, whose cached submission list is updated. */
  assignmentId: string;
  grade: number;
  feedback: string | null;
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
function patchCourseDetails(
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
    /** Three samples on the teacher's courses; 409 'Please create a course first.' without one. */
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
    /** A student's one submission; 409 if they already submitted. */
    submitAssignment: build.mutation<OwnSubmission, SubmitAssignmentArgs>({
      query: ({ assignmentId, content }) => ({
        url: `/assignments/${encodeURIComponent(assignmentId)}/submissions`,
        method: 'POST',
        body: { content },
      }),
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
      query: ({ submissionId, grade, feedback }) => ({
        url: `/submissions/${encodeURIComponent(submissionId)}`,
        method: 'PATCH',
        body: { grade, feedback },
      }),
      async onQueryStarted({ assignmentId }, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (!data) return;
        dispatch(
          assignmentsQueries.util.updateQueryData('getSubmissions', assignmentId, (list) =>
            replaceSubmission(list, data),
          ),
        );
      },
    }),
  }),
});

export const {
  useGetAssignmentsQuery,
  useGetSubmissionsQuery,
  useCreateAssignmentMutation,
  useCreateSampleAssignmentsMutation,
  useDeleteAssignmentMutation,
  useSubmitAssignmentMutation,
  useGradeSubmissionMutation,
} = assignmentsApi;
