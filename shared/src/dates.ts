import { format } from 'date-fns/format';

/** 'MMM d, h:mm a': dates in lists (assignment due dates, submission times). */
export const formatListDate = (iso: string | Date) => format(new Date(iso), 'MMM d, h:mm a');

/** 'MMM d, yyyy': dates on the course detail page. */
export const formatDetailDate = (iso: string | Date) => format(new Date(iso), 'MMM d, yyyy');

/** An upcoming event's time: 'Today, h:mm a', 'Tomorrow, h:mm a' or 'MMM d, h:mm a' (spec §2). */
export function formatEventTime(iso: string | Date, now: Date = new Date()): string {
  const date = new Date(iso);
  const sameDayAs = (offsetDays: number) => {
    const day = new Date(now);
    day.setDate(day.getDate() + offsetDays);
    return (
      date.getFullYear() === day.getFullYear() &&
      date.getMonth() === day.getMonth() &&
      date.getDate() === day.getDate()
    );
  };
  if (sameDayAs(0)) return `Today, ${format(date, 'h:mm a')}`;
  if (sameDayAs(1)) return `Tomorrow, ${format(date, 'h:mm a')}`;
  return formatListDate(date);
}

/** Whether `zone` is an IANA time zone this runtime knows (e.g. 'Europe/Paris'). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** How far `zone`'s wall clock is ahead of UTC at `instant`, in milliseconds. */
export function zoneOffsetMs(instant: Date, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(instant);
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second'));
  return wall - Math.floor(instant.getTime() / 1000) * 1000;
}

/**
 * The instant it is `hour`:`minute` in `zone` on the calendar day that `instant` falls on there
 * (sample work is due at the end of the teacher's own day, not the server's). Daylight-saving
 * changes between the two are allowed for by measuring the offset again at the answer.
 */
export function atZonedTime(instant: Date, zone: string, hour: number, minute: number): Date {
  const local = new Date(instant.getTime() + zoneOffsetMs(instant, zone));
  const wall = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate(), hour, minute);
  const first = wall - zoneOffsetMs(new Date(wall), zone);
  return new Date(wall - zoneOffsetMs(new Date(first), zone));
}
