import type { AssignmentRubric, PutRubricBody } from '@classwave/shared';
import { api } from '../../api/api';

export const RUBRIC_TAG = 'Rubric' as const;

/**
 * An assignment's rubric (DESIGN §17): read by its teacher (to write, reuse or grade by it) and by
 * its members (before they submit). Loaded where it is shown and dropped when nothing shows it, so
 * an open dialog reads the rubric as it stands.
 */
export const rubricsApi = api.enhanceEndpoints({ addTagTypes: [RUBRIC_TAG] }).injectEndpoints({
  endpoints: (build) => ({
    getRubric: build.query<AssignmentRubric, string>({
      query: (assignmentId) => `/assignments/${encodeURIComponent(assignmentId)}/rubric`,
      providesTags: (_result, _error, assignmentId) => [{ type: RUBRIC_TAG, id: assignmentId }],
      keepUnusedDataFor: 0,
    }),
    putRubric: build.mutation<AssignmentRubric, PutRubricBody & { assignmentId: string }>({
      query: ({ assignmentId, criteria }) => ({
        url: `/assignments/${encodeURIComponent(assignmentId)}/rubric`,
        method: 'PUT',
        body: { criteria },
      }),
      async onQueryStarted({ assignmentId }, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (data) dispatch(rubricsApi.util.upsertQueryData('getRubric', assignmentId, data));
      },
    }),
  }),
});

export const { useGetRubricQuery, useLazyGetRubricQuery, usePutRubricMutation } = rubricsApi;
