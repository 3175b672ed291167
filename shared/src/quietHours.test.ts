import { describe, expect, it } from 'vitest';
import { quietHoursEnd, type NotificationSettings } from './notifications.js';

const quiet = (timeZone: string, enabled = true): NotificationSettings => ({
  quietHours: { enabled, start: '21:00', end: '07:00', timeZone },
  email: true,
});

describe('quietHoursEnd', () => {
  it.each([
    // 22:00 in New York (EST) → 07:00 there.
    ['America/New_York', '2026-11-24T03:00:00Z', '2026-11-24T12:00:00.000Z'],
    // 06:59:30 in Paris → the next minute.
    ['Europe/Paris', '2026-11-24T05:59:30Z', '2026-11-24T06:00:00.000Z'],
    // 23:00 EST the night clocks go forward: 07:00 EDT is 11:00 UTC, not 12:00.
    ['America/New_York', '2026-03-08T04:00:00Z', '2026-03-08T11:00:00.000Z'],
    // 23:00 CEST the night clocks go back: 07:00 CET is 06:00 UTC.
    ['Europe/Paris', '2026-10-24T21:00:00Z', '2026-10-25T06:00:00.000Z'],
  ])('in %s at %s ends at %s', (zone, now, end) => {
    expect(quietHoursEnd(new Date(now), quiet(zone)).toISOString()).toBe(end);
  });

  it('is now when quiet hours do not hold or are off', () => {
    const noon = new Date('2026-11-24T12:00:00Z');
    expect(quietHoursEnd(noon, quiet('UTC'))).toEqual(noon);
    const night = new Date('2026-11-24T23:00:00Z');
    expect(quietHoursEnd(night, quiet('UTC', false))).toEqual(night);
  });
});
