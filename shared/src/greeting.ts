import { AFTERNOON_ENDS_AT_HOUR, MORNING_ENDS_AT_HOUR } from './constants.js';

/** 'Good morning' before 12:00, 'Good afternoon' before 18:00, otherwise 'Good evening' (spec §2). */
export function greetingFor(date: Date): string {
  const hour = date.getHours();
  if (hour < MORNING_ENDS_AT_HOUR) return 'Good morning';
  if (hour < AFTERNOON_ENDS_AT_HOUR) return 'Good afternoon';
  return 'Good evening';
}

/** The first word of a full name, or 'there' when there is none. */
export function firstName(fullName: string | null | undefined): string {
  const first = fullName?.trim().split(/\s+/)[0];
  return first ? first : 'there';
}
