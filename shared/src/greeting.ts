import { AFTERNOON_ENDS_AT_HOUR, MORNING_ENDS_AT_HOUR } from './constants.js';

/** 'Good morning' before 12:00, 'Good afternoon' before 18:00, otherwise 'Good evening' (spec §2). */
export function greetingFor(date: Date): string {
  const hour = date.getHours();
  if (hour < MORNING_ENDS_AT_HOUR) return 'Good morning';
  if (hour < AFTERNOON_ENDS_AT_HOUR) return 'Good afternoon';
  return 'Good evening';
}

/** Titles a teacher's name often starts with ("Ms Rivera"), with or without a full stop. */
const HONORIFICS = new Set(['mr', 'mrs', 'ms', 'miss', 'mx', 'dr', 'prof', 'professor', 'sir', 'madam']);

/**
 * How to greet someone by name: the first word of the full name; a name that starts with a title
 * keeps it and the last word ("Ms Rivera", not "Ms"); 'there' when there is no name.
 */
export function firstName(fullName: string | null | undefined): string {
  const words = fullName?.trim().split(/\s+/).filter(Boolean) ?? [];
  const [first, ...rest] = words;
  if (!first) return 'there';
  if (rest.length > 0 && HONORIFICS.has(first.replace(/\.$/, '').toLowerCase()))
    return `${first} ${rest.at(-1)}`;
  return first;
}
