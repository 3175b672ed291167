import { describe, expect, it, vi } from 'vitest';
import { createSession } from '../test/factories';
import { createRefresher, type RefreshResult } from './refreshSession';

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
