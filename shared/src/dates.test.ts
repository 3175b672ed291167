import { describe, expect, it } from 'vitest';
import { formatDetailDate, formatEventTime, formatListDate } from './dates.js';

// Local times, so the test holds in any time zone.
const now = new Date(2026, 10, 21, 9, 30);

describe('date formats', () => {
  it("formats list dates as 'MMM d, h:mm a'", () => {
    expect(formatListDate(new Date(2026, 0, 5, 14, 7))).toBe('Jan 5, 2:07 PM');
  });
  it("formats detail dates as 'MMM d, yyyy'", () => {
    expect(formatDetailDate(new Date(2026, 11, 31, 23, 0))).toBe('Dec 31, 2026');
  });
  it.each([
    [new Date(2026, 10, 21, 15, 0), 'Today, 3:00 PM'],
    [new Date(2026, 10, 22, 8, 5), 'Tomorrow, 8:05 AM'],
    [new Date(2026, 10, 23, 8, 5), 'Nov 23, 8:05 AM'],
    [new Date(2026, 11, 1, 0, 0), 'Dec 1, 12:00 AM'],
  ])('formats the event time %s as %s', (date, expected) => {
    expect(formatEventTime(date, now)).toBe(expected);
  });
  it('rolls tomorrow over a month end', () => {
    expect(formatEventTime(new Date(2026, 11, 1, 9, 0), new Date(2026, 10, 30, 20, 0))).toBe(
      'Tomorrow, 9:00 AM',
    );
  });
  it('throws on an invalid time value', () => {
    expect(() => formatListDate('not a date')).toThrow(RangeError);
  });
});
