import { createApi } from '@reduxjs/toolkit/query/react';
import { baseQueryWithReauth } from './baseQuery';

/**
 * The app's one RTK Query api. Features add their endpoints with `api.injectEndpoints` (and their
 * tag types with `api.enhanceEndpoints({ addTagTypes })`) in their own `*Api.ts` file.
 */
export const api = createApi({
  reducerPath: 'api',
  baseQuery: baseQueryWithReauth,
  tagTypes: [],
  endpoints: () => ({}),
});
