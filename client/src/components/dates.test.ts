import { describe, expect, it } from 'vitest';
import { formatEventTime, formatListDate } from './dates';

const now = new Date(2026, 10, 23, 10, 0);

describe('formatListDate', () => {
  it('leaves out the year for a date in the current year', () => {
    expect(formatListDate(new Date(2026, 11, 5, 14, 30), now)).toBe('Dec 5, 2:30 PM');
  });

  it('names the year for a date in another year, past or future', () => {
    expect(formatListDate(new Date(2025, 11, 5, 14, 30), now)).toBe('Dec 5, 2025, 2:30 PM');
    expect(formatListDate(new Date(2027, 0, 8, 9, 0), now)).toBe('Jan 8, 2027, 9:00 AM');
  });
});

describe('formatEventTime', () => {
  it('keeps Today and Tomorrow', () => {
    expect(formatEventTime(new Date(2026, 10, 24, 9, 0), now)).toBe('Tomorrow, 9:00 AM');
  });

  it('names the year across the new year, even for tomorrow', () => {
    const newYearsEve = new Date(2026, 11, 31, 20, 0);
    expect(formatEventTime(new Date(2027, 0, 1, 9, 0), newYearsEve)).toBe('Tomorrow, 9:00 AM');
    expect(formatEventTime(new Date(2027, 0, 5, 9, 0), now)).toBe('Jan 5, 2027, 9:00 AM');
  });
});
