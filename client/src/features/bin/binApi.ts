import type { BinContents, BinKind, BinList } from '@classwave/shared';
import { api } from '../../api/api';

/**
 * The bin (DESIGN §17): what a teacher deleted, restorable for 30 days. Restoring changes the
 * lists through the live events every tab hears (`course:created`, `assignment:created`); the
 * bin itself is tagged 'Bin' and loads again after a delete or a restore.
 */
export const binApi = api.enhanceEndpoints({ addTagTypes: ['Bin'] }).injectEndpoints({
  endpoints: (build) => ({
    /** The teacher's whole bin: where a binned course is found. */
    getBin: build.query<BinList, void>({
      query: () => '/bin',
      providesTags: [{ type: 'Bin', id: 'ALL' }],
    }),
    /** One course's bin: its binned assignments (and the course, when it is binned itself). */
    getCourseBin: build.query<BinList, string>({
      query: (courseId) => `/courses/${encodeURIComponent(courseId)}/bin`,
      providesTags: (_result, _error, courseId) => [{ type: 'Bin', id: courseId }],
    }),
    /** What deleting it would move to the bin, read fresh each time a confirmation opens. */
    getBinContents: build.query<BinContents, { kind: BinKind; id: string }>({
      query: ({ kind, id }) => `/bin/${kind}/${encodeURIComponent(id)}/contents`,
      keepUnusedDataFor: 0,
    }),
    restoreFromBin: build.mutation<void, { kind: BinKind; id: string }>({
      query: ({ kind, id }) => ({ url: `/bin/${kind}/${encodeURIComponent(id)}/restore`, method: 'POST' }),
      invalidatesTags: (_result, error) => (error ? [] : ['Bin']),
    }),
  }),
});

export const { useGetBinQuery, useGetCourseBinQuery, useLazyGetBinContentsQuery, useRestoreFromBinMutation } =
  binApi;
