import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createProfile, createSession } from '../test/factories';
import { answerApi, apiError } from '../test/api';
import {
  createRefresher,
  REFRESH_LOCK_NAME,
  requestRefresh,
  takeSessionCheck,
  type RefreshResult,
} from './refreshSession';

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((res) => {
    resolve = res;
  });
  return { promise, resolve };
}

const runDirectly = <T>(task: () => Promise<T>) => task();

describe('createRefresher', () => {
  it('runs one refresh for callers that arrive while it is in flight', async () => {
    const answer = deferred<RefreshResult>();
    const request = vi.fn(() => answer.promise);
    const refresh = createRefresher(request, runDirectly);

    const first = refresh();
    const second = refresh();
    const session = createSession();
    answer.resolve({ ok: true, session });

    await expect(first).resolves.toEqual({ ok: true, session });
    await expect(second).resolves.toEqual({ ok: true, session });
    expect(request).toHaveBeenCalledTimes(1);
  });

  it('starts a new refresh once the previous one has settled', async () => {
    const request = vi.fn(async (): Promise<RefreshResult> => ({ ok: false, reason: 'unauthenticated' }));
    const refresh = createRefresher(request, runDirectly);

    await refresh();
    await refresh();
    expect(request).toHaveBeenCalledTimes(2);
  });

  it('holds the cross-tab lock around the request', async () => {
    const events: string[] = [];
    const runLocked = async <T>(task: () => Promise<T>) => {
      events.push('lock acquired');
      const result = await task();
      events.push('lock released');
      return result;
    };
    const refresh = createRefresher(async () => {
      events.push('refresh request');
      return { ok: false, reason: 'unavailable' };
    }, runLocked);

    await refresh();
    expect(events).toEqual(['lock acquired', 'refresh request', 'lock released']);
  });
});

describe('requestRefresh', () => {
  it('takes the 204 a signed-out visitor gets as signed out, not as a failure', async () => {
    answerApi({ 'POST /api/auth/refresh': { status: 204 } });
    await expect(requestRefresh()).resolves.toEqual({ ok: false, reason: 'unauthenticated' });
  });

  it('takes a 401 (a cookie no longer valid) as signed out', async () => {
    answerApi({ 'POST /api/auth/refresh': apiError(401, 'Session ended.', 'refresh_token_invalid') });
    await expect(requestRefresh()).resolves.toEqual({ ok: false, reason: 'unauthenticated' });
  });

  it('returns the session from a 200', async () => {
    const session = createSession();
    answerApi({ 'POST /api/auth/refresh': { body: { session } } });
    await expect(requestRefresh()).resolves.toEqual({ ok: true, session });
  });

  it('returns the profile that comes with the session', async () => {
    const session = createSession();
    const profile = createProfile();
    answerApi({ 'POST /api/auth/refresh': { body: { session, profile } } });
    await expect(requestRefresh()).resolves.toEqual({ ok: true, session, profile });
  });

  it('takes a server error as unavailable (maybe try again)', async () => {
    answerApi({ 'POST /api/auth/refresh': apiError(503, 'Down.', 'service_unavailable') });
    await expect(requestRefresh()).resolves.toEqual({ ok: false, reason: 'unavailable' });
  });
});

describe('takeSessionCheck', () => {
  it("takes the page's early session check once, with what came with it", async () => {
    const session = createSession();
    const profile = createProfile();
    window.__classwaveSessionCheck = Promise.resolve({
      status: 200,
      body: JSON.stringify({ session, profile, liveFrom: 41 }),
    });
    await expect(takeSessionCheck()).resolves.toEqual({ ok: true, session, profile, liveFrom: 41 });
    // Taken: a later restore (another tab signed in) asks the server again.
    expect(takeSessionCheck()).toBeUndefined();
  });

  it.each([
    ['no refresh cookie (204)', { status: 204, body: '' }, { ok: false, reason: 'unauthenticated' }],
    ['a cookie no longer valid (401)', { status: 401, body: '{}' }, { ok: false, reason: 'unauthenticated' }],
    ['no answer at all', { status: 0, body: '' }, { ok: false, reason: 'unavailable' }],
    ['a body that is not JSON', { status: 200, body: '<html>' }, { ok: false, reason: 'unavailable' }],
  ])('reads %s like a refresh of its own', async (_what, answer, expected) => {
    window.__classwaveSessionCheck = Promise.resolve(answer);
    await expect(takeSessionCheck()).resolves.toEqual(expected);
  });
});

describe("index.html's early session check", () => {
  // It runs before any bundle, so it cannot import what it shares with requestRefresh: this keeps
  // the two from drifting apart (the URL, the request, the cross-tab lock).
  const page = readFileSync(path.resolve(import.meta.dirname, '../../index.html'), 'utf8');
  const script = [...page.matchAll(/<script>([\s\S]*?)<\/script>/g)]
    .map(([, body]) => body ?? '')
    .find((body) => body.includes('__classwaveSessionCheck'));

  it('sends the request requestRefresh sends, under the same lock, and is answered like it', async () => {
    expect(script).toBeDefined();
    const fetchCalls: unknown[][] = [];
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (...args: unknown[]) => {
      fetchCalls.push(args);
      return new Response(null, { status: 204 });
    });
    const locks: string[] = [];
    const lockManager = {
      request: (name: string, task: () => Promise<unknown>) => {
        locks.push(name);
        return task();
      },
    };
    Object.defineProperty(navigator, 'locks', { value: lockManager, configurable: true });
    try {
      new Function(script ?? '')();
      await expect(takeSessionCheck()).resolves.toEqual({ ok: false, reason: 'unauthenticated' });
      await requestRefresh();
      expect(fetchCalls).toHaveLength(2);
      expect(fetchCalls[0]).toEqual(fetchCalls[1]);
      expect(locks).toEqual([REFRESH_LOCK_NAME]);
    } finally {
      fetchSpy.mockRestore();
      Reflect.deleteProperty(navigator, 'locks');
    }
  });
});
