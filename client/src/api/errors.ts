import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { ErrorBody } from '@classwave/shared';

/** True for the errors RTK Query's fetchBaseQuery returns (as opposed to a thrown exception). */
export function isFetchBaseQueryError(error: unknown): error is FetchBaseQueryError {
  return typeof error === 'object' && error !== null && 'status' in error;
}

/** The API's error body (`{ statusCode, code, error, message }`), if `error` carries one. */
export function apiErrorBody(error: unknown): ErrorBody | undefined {
  if (!isFetchBaseQueryError(error)) return undefined;
  const { data } = error as { data?: unknown };
  if (typeof data !== 'object' || data === null) return undefined;
  const body = data as Partial<ErrorBody>;
  return typeof body.code === 'string' && typeof body.message === 'string' ? (body as ErrorBody) : undefined;
}

/** The stable error code the API answered with, e.g. 'token_expired'. */
export function apiErrorCode(error: unknown): string | undefined {
  return apiErrorBody(error)?.code;
}

/** The server's human-readable message, or `fallback` when there is none (network failure, bad body). */
export function apiErrorMessage(error: unknown, fallback: string): string {
  const message = apiErrorBody(error)?.message.trim();
  return message ? message : fallback;
}

/** The HTTP status of a failed call, or undefined when the call never got an HTTP answer. */
export function httpStatus(error: unknown): number | undefined {
  return isFetchBaseQueryError(error) && typeof error.status === 'number' ? error.status : undefined;
}

/** A Retry-After header (seconds or an HTTP date) in ms from now; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null | undefined, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
