import type { Dashboard } from '@classwave/shared';
import { api } from '../../api/api';

/** The dashboard's stats and upcoming events, per role (spec §2). Refetched after course and assignment changes. */
export const dashboardApi = api.enhanceEndpoints({ addTagTypes: ['Dashboard'] }).injectEndpoints({
  endpoints: (build) => ({
    getDashboard: build.query<Dashboard, void>({
      query: () => '/dashboard',
      providesTags: ['Dashboard'],
    }),
  }),
});

export const { useGetDashboardQuery } = dashboardApi;
