import type { AppThunk } from '../../app/store';
import { notificationsApi } from './notificationsApi';

/** The browser's own IANA zone, e.g. Europe/Paris. */
export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** How long the zone's worker may take before the page asks on its own thread. */
const WORKER_WAIT_MS = 5000;

/**
 * The browser's zone, read off the main thread where the browser can: the first date format of a
 * page loads the locale's date data, and a session start is the busiest moment of a page's life.
 * Without workers (or if the worker cannot start) the page asks itself.
 */
export function browserTimeZoneOffThread(): Promise<string> {
  if (typeof Worker === 'undefined') return Promise.resolve(browserTimeZone());
  return new Promise((resolve) => {
    let worker: Worker | undefined;
    const done = (zone: string | undefined) => {
      worker?.terminate();
      clearTimeout(timer);
      resolve(zone || browserTimeZone());
    };
    const timer = setTimeout(() => done(undefined), WORKER_WAIT_MS);
    try {
      worker = new Worker(new URL('./timeZone.worker.ts', import.meta.url), { type: 'module' });
      worker.onmessage = (event: MessageEvent<unknown>) =>
        done(typeof event.data === 'string' ? event.data : undefined);
      worker.onerror = () => done(undefined);
    } catch {
      done(undefined);
    }
  });
}

/**
 * Tells the server the browser's zone once a session starts (sign-in, or a session restored on
 * load), so reminders and new-assignment texts are written in the reader's time; the server keeps a
 * zone the user chose in Settings. Nothing waits for it, and a failure only leaves the zone as it was.
 */
export const reportTimeZone = (): AppThunk<Promise<void>> => async (dispatch) => {
  const timeZone = await browserTimeZoneOffThread();
  if (!timeZone) return;
  await dispatch(notificationsApi.endpoints.reportTimeZone.initiate(timeZone))
    .unwrap()
    .catch(() => {});
};
