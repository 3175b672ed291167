import {
  fetchBaseQuery,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryError,
  type FetchBaseQueryMeta,
} from '@reduxjs/toolkit/query';
import { ErrorCode } from '@classwave/shared';
import { sessionExpired, signedOut, tokenRefreshed, type AuthState } from '../features/auth/authSlice';
import { apiErrorCode } from './errors';
import { refreshSession, type RefreshResult } from './refreshSession';
import { noteServerDate } from './serverClock';

export type AppBaseQuery = BaseQueryFn<
  string | FetchArgs,
  unknown,
  FetchBaseQueryError,
  object,
  FetchBaseQueryMeta
>;

// The api is built before the store, so this reads the one slice it needs without importing the store.
interface StateWithAuth {
  auth: AuthState;
}

function accessTokenOf(state: unknown): string | null {
  return (state as StateWithAuth).auth.session?.accessToken ?? null;
}

/** fetchBaseQuery on `/api` that sends the in-memory access token as a Bearer header. */
const fetchWithBearer: AppBaseQuery = fetchBaseQuery({
  baseUrl: '/api',
  prepareHeaders: (headers, { getState }) => {
    const token = accessTokenOf(getState());
    if (token && !headers.has('authorization')) headers.set('authorization', `Bearer ${token}`);
    return headers;
  },
});

/** The same, noting each answer's Date header: the tab's estimate of the server's clock follows it. */
export const bearerBaseQuery: AppBaseQuery = async (args, api, extraOptions) => {
  const sentAt = Date.now();
  const result = await fetchWithBearer(args, api, extraOptions);
  noteServerDate(result.meta?.response?.headers.get('date'), sentAt, Date.now());
  return result;
};

/**
 * Wraps a base query with re-authentication: a 401 `token_expired` refreshes the session once
 * (shared with every other caller in the tab) and retries. A refused refresh means the session
 * expired: the page stays under a sign-in dialog. A refresh that got no answer keeps the session
 * (the next call tries again). A 401 `session_ended` (signed out on the server) signs the user out,
 * and the route guards then send them to /login.
 */
export function withReauth(baseQuery: AppBaseQuery, refresh: () => Promise<RefreshResult>): AppBaseQuery {
  return async (args, api, extraOptions) => {
    const sentToken = accessTokenOf(api.getState());
    let result = await baseQuery(args, api, extraOptions);
    const code = result.error?.status === 401 ? apiErrorCode(result.error) : undefined;

    if (code === ErrorCode.sessionEnded) {
      api.dispatch(signedOut());
      return result;
    }
    if (code !== ErrorCode.tokenExpired) return result;

    // Another call may already have refreshed while this one was in flight: just retry with the new token.
    if (accessTokenOf(api.getState()) === sentToken) {
      const refreshed = await refresh();
      if (!refreshed.ok) {
        if (refreshed.reason === 'unauthenticated') api.dispatch(sessionExpired());
        return result;
      }
      api.dispatch(tokenRefreshed(refreshed.session));
    }
    if (accessTokenOf(api.getState()) === null) return result;
    result = await baseQuery(args, api, extraOptions);
    return result;
  };
}

export const baseQueryWithReauth = withReauth(bearerBaseQuery, refreshSession);
