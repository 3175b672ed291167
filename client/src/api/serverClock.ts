/**
 * The server's clock, as this tab estimates it (DESIGN §13: statuses follow the server's clock).
 * A device clock set wrong by minutes or hours would otherwise show "Missing" early or "Active"
 * after the due time. Each API answer's `Date` header (whole seconds) bounds the offset between the
 * clocks: the server stamped it somewhere between the request leaving and the answer arriving.
 * The bounds of every answer are intersected, so a few answers pin it to well under a second; when
 * they stop agreeing (the device clock was changed, or woke from sleep), the newest answer starts
 * the estimate afresh.
 */

let low = Number.NEGATIVE_INFINITY;
let high = Number.POSITIVE_INFINITY;
const listeners = new Set<() => void>();

/** Milliseconds to add to the device clock to read the server's (0 until an answer said). */
export function serverClockOffset(): number {
  return Number.isFinite(low) ? Math.round((low + high) / 2) : 0;
}

/** The time now by the server's clock. */
export function serverNow(): Date {
  return new Date(Date.now() + serverClockOffset());
}

/** Called for each API answer: its Date header, and when the request left and the answer came (device ms). */
export function noteServerDate(
  dateHeader: string | null | undefined,
  sentAt: number,
  receivedAt: number,
): void {
  const stamped = dateHeader ? Date.parse(dateHeader) : Number.NaN;
  if (Number.isNaN(stamped) || receivedAt < sentAt) return;
  const before = serverClockOffset();
  // The header truncates to the second: the server's clock read between stamped and stamped + 1 s.
  const sampleLow = stamped - receivedAt;
  const sampleHigh = stamped + 1000 - sentAt;
  if (sampleLow > high || sampleHigh < low) {
    low = sampleLow;
    high = sampleHigh;
  } else {
    low = Math.max(low, sampleLow);
    high = Math.min(high, sampleHigh);
  }
  // Only a change a person could see (a second or more) re-renders the clocks on screen.
  if (Math.abs(serverClockOffset() - before) >= 1000) listeners.forEach((listener) => listener());
}

/** Calls `listener` when the estimate moves by a second or more; returns the unsubscribe. */
export function onServerClockChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Forgets the estimate (a test starts from the device clock). */
export function resetServerClock(): void {
  low = Number.NEGATIVE_INFINITY;
  high = Number.POSITIVE_INFINITY;
}
