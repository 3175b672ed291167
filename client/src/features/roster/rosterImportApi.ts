import type { RosterImportBody, RosterImportResult } from '@classwave/shared';
import { coursesApi } from '../courses/coursesApi';

export interface RosterImportArgs {
  courseId: string;
  body: RosterImportBody;
  /** Only say what would change. */
  dryRun: boolean;
}

/** Roster import (DESIGN §20): a dry run, then the same files to commit. */
export const rosterImportApi = coursesApi.injectEndpoints({
  endpoints: (build) => ({
    importRoster: build.mutation<RosterImportResult, RosterImportArgs>({
      query: ({ courseId, body, dryRun }) => ({
        url: `/courses/${encodeURIComponent(courseId)}/roster-import${dryRun ? '?dryRun=1' : ''}`,
        method: 'POST',
        body,
      }),
    }),
  }),
});

export const { useImportRosterMutation } = rosterImportApi;
