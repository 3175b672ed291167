import { describe, expect, it } from 'vitest';
import { formatInZone, wallTimeNotice, zoneAbbreviation, zonedWallTime } from './zones.js';

describe('a due time entered in one zone and read in another', () => {
  it("shows each viewer the teacher's 23:59 on their own clock", () => {
    // A teacher in New York sets 10 March 2026, 23:59 (EDT from 8 March).
    const due = zonedWallTime('2026-03-10T23:59', 'America/New_York');
    expect(due).toEqual({ kind: 'exact', instant: new Date('2026-03-11T03:59:00Z') });
    const instant = due!.instant;
    expect(formatInZone(instant, 'America/New_York')).toBe('Mar 10, 11:59 PM');
    // A student in Tokyo is already on the next afternoon; one in London in the small hours.
    expect(formatInZone(instant, 'Asia/Tokyo')).toBe('Mar 11, 12:59 PM');
    expect(formatInZone(instant, 'Europe/London')).toBe('Mar 11, 3:59 AM');
    // Where the two clocks differ the zone is named: summer time in New York, GMT in London.
    expect(zoneAbbreviation(instant, 'America/New_York')).toBe('EDT');
    expect(zoneAbbreviation(instant, 'Europe/London')).toBe('GMT');
  });

  it('names summer and winter time apart for the same wall time in one zone', () => {
    const winter = zonedWallTime('2026-01-15T09:00', 'Europe/Paris')!.instant;
    const summer = zonedWallTime('2026-07-15T09:00', 'Europe/Paris')!.instant;
    expect([winter.toISOString(), summer.toISOString()]).toEqual([
      '2026-01-15T08:00:00.000Z',
      '2026-07-15T07:00:00.000Z',
    ]);
    expect([zoneAbbreviation(winter, 'Europe/Paris'), zoneAbbreviation(summer, 'Europe/Paris')]).toEqual([
      'GMT+1',
      'GMT+2',
    ]);
  });
});

describe('a time the clocks skip or repeat', () => {
  it('says a skipped time does not exist, and which time is saved instead', () => {
    // New York springs forward at 02:00 on 8 March 2026: 02:30 never happens.
    const wall = zonedWallTime('2026-03-08T02:30', 'America/New_York');
    expect(wall).toEqual({ kind: 'gap', instant: new Date('2026-03-08T07:30:00Z') });
    expect(formatInZone(wall!.instant, 'America/New_York')).toBe('Mar 8, 3:30 AM');
    expect(wallTimeNotice(wall, 'America/New_York')).toBe(
      "This time doesn't exist on that day (clocks change in America/New_York): it will be saved as 3:30 AM EDT.",
    );
    // Berlin on 29 March 2026, the same.
    expect(zonedWallTime('2026-03-29T02:15', 'Europe/Berlin')).toEqual({
      kind: 'gap',
      instant: new Date('2026-03-29T01:15:00Z'),
    });
  });

  it('says a repeated time happens twice, and that the first is saved', () => {
    // New York falls back at 02:00 on 1 November 2026: 01:30 happens in EDT, then again in EST.
    const wall = zonedWallTime('2026-11-01T01:30', 'America/New_York');
    expect(wall).toEqual({
      kind: 'overlap',
      instant: new Date('2026-11-01T05:30:00Z'),
      later: new Date('2026-11-01T06:30:00Z'),
    });
    expect(wallTimeNotice(wall, 'America/New_York')).toBe(
      'This time happens twice on that day (clocks change in America/New_York): it will be saved as the first, 1:30 AM EDT, not 1:30 AM EST.',
    );
  });

  it('says nothing on an ordinary day, and refuses what is not a datetime-local value', () => {
    const wall = zonedWallTime('2026-11-01T03:30', 'America/New_York');
    expect(wall).toEqual({ kind: 'exact', instant: new Date('2026-11-01T08:30:00Z') });
    expect(wallTimeNotice(wall, 'America/New_York')).toBeNull();
    for (const bad of ['', 'tomorrow', '2026-02-30T10:00', '2026-01-01T24:00', '2026-01-01 10:00'])
      expect(zonedWallTime(bad, 'UTC'), bad).toBeNull();
    expect(zonedWallTime('2026-01-01T10:00:30', 'UTC')?.instant.toISOString()).toBe(
      '2026-01-01T10:00:30.000Z',
    );
  });
});
