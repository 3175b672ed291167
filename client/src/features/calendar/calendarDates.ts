import type { CalendarItem } from '@classwave/shared';
import {
  addDays,
  addMonths,
  addWeeks,
  eachDayOfInterval,
  endOfMonth,
  endOfWeek,
  format,
  startOfMonth,
  startOfWeek,
} from 'date-fns';

/** Weeks start on Sunday, as the app's US-style dates ('MMM d, h:mm a') suggest. */
const WEEK = { weekStartsOn: 0 } as const;

/** The days the month grid shows: whole weeks from the one holding the 1st to the one holding the last day. */
export function monthGridDays(month: Date): Date[] {
  return eachDayOfInterval({
    start: startOfWeek(startOfMonth(month), WEEK),
    end: endOfWeek(endOfMonth(month), WEEK),
  });
}

/** The range to fetch for a month: the grid's first day at midnight to the day after its last, in the viewer's zone. */
export function monthRange(month: Date): { from: string; to: string } {
  const days = monthGridDays(month);
  return { from: days[0]!.toISOString(), to: addDays(days.at(-1)!, 1).toISOString() };
}

/** A day's key in the viewer's zone. */
export const dayKey = (date: Date | string) => format(new Date(date), 'yyyy-MM-dd');

/** Items by the local day they are due, each day's in due-time order. */
export function itemsByDay(items: readonly CalendarItem[]): Map<string, CalendarItem[]> {
  const byDay = new Map<string, CalendarItem[]>();
  for (const item of [...items].sort((a, b) => a.dueDate.localeCompare(b.dueDate))) {
    const key = dayKey(item.dueDate);
    byDay.set(key, [...(byDay.get(key) ?? []), item]);
  }
  return byDay;
}

/** Where a key moves the focused day in the month grid (null: not a grid key). */
export function moveFocus(day: Date, key: string): Date | null {
  switch (key) {
    case 'ArrowLeft':
      return addDays(day, -1);
    case 'ArrowRight':
      return addDays(day, 1);
    case 'ArrowUp':
      return addWeeks(day, -1);
    case 'ArrowDown':
      return addWeeks(day, 1);
    case 'Home':
      return startOfWeek(day, WEEK);
    case 'End':
      return endOfWeek(day, WEEK);
    case 'PageUp':
      return addMonths(day, -1);
    case 'PageDown':
      return addMonths(day, 1);
    default:
      return null;
  }
}
