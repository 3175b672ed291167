import { formatEventTime as sharedEventTime, formatListDate as sharedListDate } from '@classwave/shared';
import { format } from 'date-fns';

/*
 * The client's date wording. shared/src/dates.ts gives the spec's formats, which never name the
 * year; a date from another year ("Dec 20" seen in January, a due date a year ahead) would read
 * as this year's. These add the year exactly when the date is not in the current one.
 */

const inOtherYear = (date: Date, now: Date) => date.getFullYear() !== now.getFullYear();

/** A date in a list: 'MMM d, h:mm a', or 'MMM d, yyyy, h:mm a' outside the current year. */
export function formatListDate(iso: string | Date, now: Date = new Date()): string {
  const date = new Date(iso);
  return inOtherYear(date, now) ? format(date, 'MMM d, yyyy, h:mm a') : sharedListDate(date);
}

/** An upcoming event's time: 'Today, …', 'Tomorrow, …', else as `formatListDate` (with the year when needed). */
export function formatEventTime(iso: string | Date, now: Date = new Date()): string {
  const date = new Date(iso);
  const relative = sharedEventTime(date, now);
  // 'Tomorrow' on New Year's Eve is clear without the year.
  if (!inOtherYear(date, now) || /^(Today|Tomorrow),/.test(relative)) return relative;
  return formatListDate(date, now);
}
