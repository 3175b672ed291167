import { ErrorCode } from '@classwave/shared';
import { apiErrorCode, apiErrorMessage } from '../../api/errors';
import type { ClassesError } from './classesApi';

/** Shown when what was typed cannot be a code at all (checked before asking the server). */
export const MALFORMED_CODE = 'A class code has 8 letters and digits, like ABCD-EFGH.';

/** "about 3 minutes", "45 seconds": how long a rate-limited student waits. */
export function formatWait(seconds: number): string {
  if (seconds < 60) return `${Math.ceil(seconds)} second${Math.ceil(seconds) === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/**
 * What a failed join (or preview) tells the student: the server's message for the codes it explains
 * (wrong or reset code, joining turned off), with the wait added when they tried too often.
 */
export function joinErrorMessage(error: unknown): string {
  const message = apiErrorMessage(error, 'Could not join the class. Check your connection and try again.');
  if (apiErrorCode(error) !== ErrorCode.rateLimited) return message;
  // Retry-After says how long, in a unit that reads well ("9 minutes", not "540 seconds").
  const wait = (error as ClassesError).retryAfterSeconds;
  if (!wait) return message;
  const inSeconds = /in \d+ seconds?/i;
  return inSeconds.test(message)
    ? message.replace(inSeconds, `in ${formatWait(wait)}`)
    : `${message} Try again in ${formatWait(wait)}.`;
}
