/** Refresh this long before the access token expires (or halfway, for very short-lived tokens). */
export const REFRESH_LEAD_MS = 60_000;
/** Never schedule sooner than this, so a server answering with odd expiries cannot cause a refresh storm. */
export const MIN_REFRESH_DELAY_MS = 5_000;
/** After a refresh that got no answer, try again this much later while the token is still good. */
export const REFRESH_RETRY_MS = 15_000;
// setTimeout overflows above 2^31 - 1 ms and would fire at once.
const MAX_TIMEOUT_MS = 2_147_483_647;

/**
 * How long to wait before refreshing a session that was just received. It is computed from
 * `expiresIn` (relative) rather than `expiresAt` (epoch seconds) so that a wrong clock on this
 * computer cannot make the timer fire too early or too late; the two describe the same moment.
 */
export function refreshDelayMs(expiresInSeconds: number): number {
  const lifetime = expiresInSeconds * 1000;
  const lead = Math.min(REFRESH_LEAD_MS, lifetime / 2);
  return Math.min(MAX_TIMEOUT_MS, Math.max(MIN_REFRESH_DELAY_MS, lifetime - lead));
}
