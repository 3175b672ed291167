import { zoneOffsetMs } from './dates.js';

/**
 * Wall-clock times in a named zone (DESIGN §13: due times are entered and shown in the viewer's
 * zone, stored in UTC). A teacher types a due time into a datetime-local field, which has no zone
 * and may name a time that a daylight-saving change skips (a gap) or repeats (an overlap) that
 * day; `new Date(value)` silently picks one. These say which instant it is, and when there was a
 * choice, so the form can say so.
 */

/** What a datetime-local value ("2026-03-29T02:30") means in a zone. */
export type WallTime =
  | { kind: 'exact'; instant: Date }
  /** Skipped by the clocks going forward: `instant` is as far past the change as the value was past its start. */
  | { kind: 'gap'; instant: Date }
  /** Happens twice (clocks going back): `instant` is the first, `later` the second. */
  | { kind: 'overlap'; instant: Date; later: Date };

const LOCAL_INPUT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;
const HOUR_MS = 3600_000;

/** The instant a datetime-local value names in `zone`, or null when it is not a valid value. */
export function zonedWallTime(value: string, zone: string): WallTime | null {
  const m = LOCAL_INPUT.exec(value);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1).map((part) => Number(part ?? 0)) as number[];
  const wall = Date.UTC(year!, month! - 1, day!, hour!, minute!, second!);
  const check = new Date(wall);
  if (check.getUTCMonth() !== month! - 1 || check.getUTCDate() !== day! || hour! > 23 || minute! > 59)
    return null;
  // The offsets in force either side of any change near that day (no zone changes twice in 28 h).
  const before = zoneOffsetMs(new Date(wall - 14 * HOUR_MS), zone);
  const after = zoneOffsetMs(new Date(wall + 14 * HOUR_MS), zone);
  const fits = [...new Set([before, after])]
    .map((offset) => wall - offset)
    .filter((instant) => zoneOffsetMs(new Date(instant), zone) === wall - instant)
    .sort((a, b) => a - b);
  if (fits.length === 1) return { kind: 'exact', instant: new Date(fits[0]!) };
  if (fits.length === 2) return { kind: 'overlap', instant: new Date(fits[0]!), later: new Date(fits[1]!) };
  // A gap: read with the offset from before the change, as the clocks would have shown it.
  return { kind: 'gap', instant: new Date(wall - before) };
}

/** Intl's words with plain spaces: some ICU versions put a narrow no-break space before AM/PM. */
const plain = (text: string) => text.replace(/\s/g, ' ');

/** An instant as "Mar 29, 3:30 AM" on the wall clocks of `zone` (the app's list-date style). */
export function formatInZone(instant: Date | string, zone: string): string {
  return plain(
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      month: 'short',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
    }).format(new Date(instant)),
  );
}

/** The zone's short name at that instant ("EDT", "GMT+2"): it tells summer from winter time. */
export function zoneAbbreviation(instant: Date | string, zone: string): string {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'short' }).formatToParts(
    new Date(instant),
  );
  return parts.find((p) => p.type === 'timeZoneName')?.value ?? zone;
}

const timeOf = (instant: Date, zone: string) =>
  plain(
    new Intl.DateTimeFormat('en-US', { timeZone: zone, hour: 'numeric', minute: '2-digit' }).format(instant),
  );

/**
 * What to tell the person who typed the value, when the clocks change that day; null otherwise.
 * The choice made is said, with the zone's name for the time (summer or winter), never left silent.
 */
export function wallTimeNotice(wall: WallTime | null, zone: string): string | null {
  if (!wall || wall.kind === 'exact') return null;
  const at = (instant: Date) => `${timeOf(instant, zone)} ${zoneAbbreviation(instant, zone)}`;
  if (wall.kind === 'gap')
    return `This time doesn't exist on that day (clocks change in ${zone}): it will be saved as ${at(wall.instant)}.`;
  return (
    `This time happens twice on that day (clocks change in ${zone}): it will be saved as the first, ` +
    `${at(wall.instant)}, not ${at(wall.later)}.`
  );
}
