import { describe, expect, it } from 'vitest';
import { atZonedTime, formatDetailDate, formatEventTime, formatListDate, isTimeZone } from './dates.js';

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

describe('atZonedTime', () => {
  it("gives 23:59 of the day it is in the zone, whatever the server's zone", () => {
    // 22:30 UTC on 10 March is already 11 March in Tokyo and still 10 March in Los Angeles.
    const instant = new Date('2026-03-10T22:30:00Z');
    expect(atZonedTime(instant, 'Asia/Tokyo', 23, 59).toISOString()).toBe('2026-03-11T14:59:00.000Z');
    expect(atZonedTime(instant, 'America/Los_Angeles', 23, 59).toISOString()).toBe(
      '2026-03-11T06:59:00.000Z',
    );
    expect(atZonedTime(instant, 'UTC', 23, 59).toISOString()).toBe('2026-03-10T23:59:00.000Z');
  });

  it('uses the offset in force at the answer across a daylight-saving change', () => {
    // Europe/Paris moves to summer time on 29 March 2026 at 02:00: 23:59 that day is UTC+2.
    const morning = new Date('2026-03-29T00:30:00Z');
    expect(atZonedTime(morning, 'Europe/Paris', 23, 59).toISOString()).toBe('2026-03-29T21:59:00.000Z');
    // And back on 25 October: 23:59 is UTC+1 again.
    expect(atZonedTime(new Date('2026-10-25T00:30:00Z'), 'Europe/Paris', 23, 59).toISOString()).toBe(
      '2026-10-25T22:59:00.000Z',
    );
  });

  it('knows real zones from made-up ones', () => {
    expect(isTimeZone('Europe/Paris')).toBe(true);
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
  });
});
