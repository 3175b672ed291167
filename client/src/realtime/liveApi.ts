import type { LiveEvent } from '@classwave/shared';
import { api } from '../api/api';

export interface ReplayResult {
  resync: boolean;
  lastId: number;
  events: LiveEvent[];
}

/** GET /api/events: the live events this user missed after an id (or, without one, where the stream is now). */
export const liveApi = api.injectEndpoints({
  endpoints: (build) => ({
    getMissedEvents: build.query<ReplayResult, number | null>({
      query: (after) => ({ url: '/events', params: after === null ? {} : { after } }),
      keepUnusedDataFor: 0,
    }),
  }),
});
