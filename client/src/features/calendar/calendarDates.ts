import type { CalendarItem } from '@classwave/shared';
import {
  addDays,
  addMonths,
  addWeeks,
  eachDayOfInterval,
  endOfMonth,
  endOfWeek,
  format,
  startOfDay,
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

/** How far past a month's end its agenda looks: at the end of a month, next week is what matters (issue 25). */
export const AGENDA_DAYS_AFTER = 14;

/** The last day a month's agenda lists: two weeks into the next month. */
export const agendaEnd = (month: Date) => addDays(endOfMonth(month), AGENDA_DAYS_AFTER);

/**
 * The range to fetch for a month, in the viewer's zone: from the grid's first day at midnight to the
 * day after the later of the grid's last day and the agenda's, so both views read one answer.
 */
export function monthRange(month: Date): { from: string; to: string } {
  const days = monthGridDays(month);
  const last = days.at(-1)! > agendaEnd(month) ? days.at(-1)! : agendaEnd(month);
  return { from: days[0]!.toISOString(), to: addDays(startOfDay(last), 1).toISOString() };
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
