import { configureStore } from '@reduxjs/toolkit';
import type { BaseQueryApi } from '@reduxjs/toolkit/query';
import { describe, expect, it, vi } from 'vitest';
import { authSlice, type AuthState } from '../features/auth/authSlice';
import { createSession, signedInAuth } from '../test/factories';
import { withReauth, type AppBaseQuery } from './baseQuery';
import type { RefreshResult } from './refreshSession';

const unauthorized = (code: string) => ({
  error: { status: 401, data: { statusCode: 401, code, error: 'Unauthorized', message: code } },
});

/** The store and the BaseQueryApi a base query receives, around a real auth slice. */
function setup(auth: AuthState = signedInAuth()) {
  const store = configureStore({ reducer: { auth: authSlice.reducer }, preloadedState: { auth } });
  const api = {
    getState: store.getState,
    dispatch: store.dispatch,
    signal: new AbortController().signal,
    abort: () => {},
    extra: undefined,
    endpoint: 'getMe',
    type: 'query',
  } as unknown as BaseQueryApi;
  return { store, api };
}

/** A stand-in for fetchBaseQuery that answers in turn and records the token each call carried. */
function scriptedBaseQuery(
  store: ReturnType<typeof setup>['store'],
  answers: Awaited<ReturnType<AppBaseQuery>>[],
) {
  const tokens: (string | null)[] = [];
  const baseQuery: AppBaseQuery = async () => {
    tokens.push(store.getState().auth.session?.accessToken ?? null);
    const answer = answers.shift();
    if (!answer) throw new Error('No more scripted answers');
    return answer;
  };
  return { baseQuery, tokens };
}

describe('withReauth', () => {
  it('refreshes once on token_expired and retries with the new token', async () => {
    const { store, api } = setup();
    const oldToken = store.getState().auth.session!.accessToken;
    const rotated = createSession();
    const refresh = vi.fn(async (): Promise<RefreshResult> => ({ ok: true, session: rotated }));
    const { baseQuery, tokens } = scriptedBaseQuery(store, [
      unauthorized('token_expired'),
      { data: { ok: 1 } },
    ]);

    const result = await withReauth(baseQuery, refresh)('/me', api, {});

    expect(result).toEqual({ data: { ok: 1 } });
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(tokens).toEqual([oldToken, rotated.accessToken]);
    expect(store.getState().auth.session?.accessToken).toBe(rotated.accessToken);
  });

  it('marks the session expired, keeping the profile, and returns the 401 when the refresh is refused', async () => {
    const signedIn = signedInAuth();
    const { store, api } = setup(signedIn);
    const refresh = vi.fn(async (): Promise<RefreshResult> => ({ ok: false, reason: 'unauthenticated' }));
    const { baseQuery, tokens } = scriptedBaseQuery(store, [unauthorized('token_expired')]);

    const result = await withReauth(baseQuery, refresh)('/me', api, {});

    expect(result.error?.status).toBe(401);
    expect(tokens).toHaveLength(1);
    // Expired, not signed out: the page stays under a sign-in dialog (issue 12).
    expect(store.getState().auth).toEqual({ status: 'expired', session: null, profile: signedIn.profile });
  });

  it('keeps the session when the refresh got no answer, so the next call tries again', async () => {
    const signedIn = signedInAuth();
    const { store, api } = setup(signedIn);
    const refresh = vi.fn(async (): Promise<RefreshResult> => ({ ok: false, reason: 'unavailable' }));
    const { baseQuery } = scriptedBaseQuery(store, [unauthorized('token_expired')]);

    const result = await withReauth(baseQuery, refresh)('/me', api, {});

    expect(result.error?.status).toBe(401);
    expect(store.getState().auth).toEqual(signedIn);
  });

  it('does not refresh for other errors', async () => {
    const { store, api } = setup();
    const refresh = vi.fn(async (): Promise<RefreshResult> => ({ ok: true, session: createSession() }));
    const { baseQuery } = scriptedBaseQuery(store, [
      {
        error: {
          status: 403,
          data: { statusCode: 403, code: 'forbidden', error: 'Forbidden', message: 'No' },
        },
      },
    ]);

    const result = await withReauth(baseQuery, refresh)('/courses', api, {});

    expect(result.error?.status).toBe(403);
    expect(refresh).not.toHaveBeenCalled();
    expect(store.getState().auth.status).toBe('signedIn');
  });

  it('signs out without refreshing when the session has ended', async () => {
    const { store, api } = setup();
    const refresh = vi.fn(async (): Promise<RefreshResult> => ({ ok: true, session: createSession() }));
    const { baseQuery } = scriptedBaseQuery(store, [unauthorized('session_ended')]);

    await withReauth(baseQuery, refresh)('/me', api, {});

    expect(refresh).not.toHaveBeenCalled();
    expect(store.getState().auth.status).toBe('signedOut');
  });

  it('retries without refreshing when another call already rotated the token', async () => {
    const { store, api } = setup();
    const rotated = createSession();
    const refresh = vi.fn(async (): Promise<RefreshResult> => ({ ok: true, session: createSession() }));
    const answers: Awaited<ReturnType<AppBaseQuery>>[] = [unauthorized('token_expired'), { data: 'fresh' }];
    const tokens: (string | null)[] = [];
    const baseQuery: AppBaseQuery = async () => {
      tokens.push(store.getState().auth.session?.accessToken ?? null);
      const answer = answers.shift()!;
      // While this request was in flight, a parallel one refreshed the session.
      if (tokens.length === 1) store.dispatch(authSlice.actions.tokenRefreshed(rotated));
      return answer;
    };

    const result = await withReauth(baseQuery, refresh)('/me', api, {});

    expect(result).toEqual({ data: 'fresh' });
    expect(refresh).not.toHaveBeenCalled();
    expect(tokens[1]).toBe(rotated.accessToken);
  });
});
