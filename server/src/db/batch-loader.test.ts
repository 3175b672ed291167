import { describe, expect, it } from 'vitest';
import { batchLoader } from './batch-loader.js';

describe('batchLoader', () => {
  it('answers the lookups of one turn with one load of their distinct keys, in chunks', async () => {
    const loads: number[][] = [];
    const lookup = batchLoader(async (keys: number[]) => {
      loads.push(keys);
      return new Map(keys.filter((k) => k % 3 !== 0).map((k) => [k, `v${k}`]));
    }, 4);
    const answers = await Promise.all([1, 2, 2, 3, 4, 5, 6, 7].map((k) => lookup(k)));
    expect(answers).toEqual(['v1', 'v2', 'v2', undefined, 'v4', 'v5', undefined, 'v7']);
    expect(loads).toEqual([
      [1, 2, 3, 4],
      [5, 6, 7],
    ]);
    // A later turn is a batch of its own.
    expect(await lookup(8)).toBe('v8');
    expect(loads).toHaveLength(3);
  });

  it('fails every lookup of a batch whose load failed, and recovers for the next', async () => {
    let fail = true;
    const lookup = batchLoader(async (keys: string[]) => {
      if (fail) throw new Error('database down');
      return new Map(keys.map((k) => [k, k.toUpperCase()]));
    });
    const first = await Promise.allSettled([lookup('a'), lookup('b')]);
    expect(first.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await lookup('c')).toBe('C');
  });
});
