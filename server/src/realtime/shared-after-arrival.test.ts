import { describe, expect, it } from 'vitest';
import { sharedAfterArrival } from './replay.js';

describe('sharedAfterArrival', () => {
  it('runs once for the callers of one turn, and again for a caller that arrives once it started', async () => {
    let runs = 0;
    let state = 'before';
    const read = sharedAfterArrival(async () => {
      runs++;
      const seen = state;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return seen;
    });
    const first = [read(), read(), read()];
    state = 'changed in the same turn'; // before the shared run starts: every caller must see it
    expect(await Promise.all(first)).toEqual(Array(3).fill('changed in the same turn'));
    expect(runs).toBe(1);

    const during = read();
    await new Promise((resolve) => setImmediate(resolve)); // the shared run has started
    state = 'changed after it started';
    const late = read(); // may not reuse the run that started before this change
    expect(await during).toBe('changed in the same turn');
    expect(await late).toBe('changed after it started');
    expect(runs).toBe(3);
  });
});
