import type { AppThunk } from '../../app/store';
import { notificationsApi } from './notificationsApi';

/** The browser's own IANA zone, e.g. Europe/Paris. */
export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * Tells the server the browser's zone once a session starts (sign-in, or a session restored on
 * load), so reminders and new-assignment texts are written in the reader's time; the server keeps a
 * zone the user chose in Settings. Nothing waits for it, and a failure only leaves the zone as it was.
 */
export const reportTimeZone = (): AppThunk => (dispatch) => {
  const timeZone = browserTimeZone();
  if (!timeZone) return;
  void dispatch(notificationsApi.endpoints.reportTimeZone.initiate(timeZone))
    .unwrap()
    .catch(() => {});
};
