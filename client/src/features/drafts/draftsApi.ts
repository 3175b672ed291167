import type { Draft, DraftSaved, SaveDraftBody } from '@classwave/shared';
import { assignmentsApi } from '../assignments/assignmentsApi';
import { clearOwnSubmission } from '../assignments/assignmentCache';
import { coursesApi, dashboardTagUnlessFailed } from '../courses/coursesApi';

export interface SaveDraftArgs extends SaveDraftBody {
  assignmentId: string;
  /** The page is going away (pagehide): the browser finishes the request after the page is gone. */
  keepalive?: boolean;
}

/** Browsers refuse a keepalive request whose body is over 64 KiB; a longer answer goes as usual. */
const KEEPALIVE_MAX_BYTES = 60_000;

export interface UnsubmitArgs {
  assignmentId: string;
  /** The submission being taken back, cleared from the cached lists once the server agrees. */
  submissionId: string;
}

const path = (assignmentId: string) => `/assignments/${encodeURIComponent(assignmentId)}`;

/** Drafts and unsubmit (DESIGN §12). A draft is read when the answer dialog opens, never cached for long. */
export const draftsApi = coursesApi.injectEndpoints({
  endpoints: (build) => ({
    getDraft: build.query<Draft, string>({
      query: (assignmentId) => `${path(assignmentId)}/draft`,
      keepUnusedDataFor: 0,
    }),
    saveDraft: build.mutation<DraftSaved, SaveDraftArgs>({
      query: ({ assignmentId, content, baseVersion, keepalive }) => ({
        url: `${path(assignmentId)}/draft`,
        method: 'PUT',
        body: { content, baseVersion },
        // A fetch with keepalive still carries the Authorization header (unlike sendBeacon).
        ...(keepalive && new TextEncoder().encode(content).length <= KEEPALIVE_MAX_BYTES
          ? { keepalive: true }
          : {}),
      }),
    }),
    /** Takes the submission back; its text comes back as the draft. */
    unsubmit: build.mutation<Draft, UnsubmitArgs>({
      query: ({ assignmentId }) => ({ url: `${path(assignmentId)}/submission`, method: 'DELETE' }),
      invalidatesTags: dashboardTagUnlessFailed,
      async onQueryStarted({ assignmentId, submissionId }, { dispatch, getState, queryFulfilled }) {
        const ok = await queryFulfilled.then(
          () => true,
          () => false,
        );
        if (!ok) return;
        dispatch(
          assignmentsApi.util.updateQueryData('getAssignments', undefined, (list) =>
            clearOwnSubmission(list, assignmentId, submissionId),
          ),
        );
        for (const courseId of coursesApi.util.selectCachedArgsForQuery(getState(), 'getCourse')) {
          dispatch(
            coursesApi.util.updateQueryData('getCourse', courseId, (detail) =>
              clearOwnSubmission(detail.assignments, assignmentId, submissionId),
            ),
          );
        }
      },
    }),
  }),
});

export const { useLazyGetDraftQuery, useSaveDraftMutation, useUnsubmitMutation } = draftsApi;
