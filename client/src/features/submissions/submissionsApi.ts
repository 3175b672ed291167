import type { SubmissionView } from '@classwave/shared';
import { api } from '../../api/api';

/** The tag of a student's own submission view, by assignment id. */
export const OWN_SUBMISSION_TAG = 'OwnSubmission' as const;

/**
 * A student's own submission, read back (DESIGN §17). Loaded while its dialog is open; the live
 * events that change it (live.ts) invalidate its tag, so an open dialog follows a grade being
 * returned or the work being taken back in another tab.
 */
export const submissionsApi = api.enhanceEndpoints({ addTagTypes: [OWN_SUBMISSION_TAG] }).injectEndpoints({
  endpoints: (build) => ({
    getOwnSubmission: build.query<SubmissionView, string>({
      query: (assignmentId) => `/assignments/${encodeURIComponent(assignmentId)}/submission`,
      providesTags: (_result, _error, assignmentId) => [{ type: OWN_SUBMISSION_TAG, id: assignmentId }],
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useGetOwnSubmissionQuery } = submissionsApi;
