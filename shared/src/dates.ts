import { format } from 'date-fns';

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
