import { describe, expect, it } from 'vitest';
import { MIN_REFRESH_DELAY_MS, refreshDelayMs } from './silentRefresh';

describe('refreshDelayMs', () => {
  it('refreshes a 15-minute token one minute before it expires', () => {
    expect(refreshDelayMs(15 * 60)).toBe(14 * 60 * 1000);
  });

  it('refreshes a token shorter than two minutes halfway through its life', () => {
    expect(refreshDelayMs(90)).toBe(45_000);
  });

  it('never schedules sooner than the minimum delay', () => {
    expect(refreshDelayMs(0)).toBe(MIN_REFRESH_DELAY_MS);
    expect(refreshDelayMs(4)).toBe(MIN_REFRESH_DELAY_MS);
  });

  it('stays within what setTimeout can wait', () => {
    expect(refreshDelayMs(60 * 60 * 24 * 365)).toBe(2_147_483_647);
  });
});
