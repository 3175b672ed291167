import { useEffect } from 'react';
import { useAppSelector } from '../../app/hooks';
import { selectConnection } from '../../realtime/connectionSlice';
import { stashOnUnload } from './deviceStore';
import { deviceCopyOf, isDirty, type DraftHandle } from './draftRefs';
import type { Save } from './useDraftSave';

/**
 * The moments a draft is saved besides a pause in typing: the tab is hidden (switching away,
 * closing, a phone locking), the page goes away, and the browser, the session or the socket come
 * back with text that only the device has.
 */
export function useSaveTriggers(
  { assignmentId, userId, refs, signedInRef }: DraftHandle,
  { signedIn, save, flush }: { signedIn: boolean; save: Save; flush: Save },
) {
  const connection = useAppSelector(selectConnection);

  // Hidden tab: save now; on pagehide with keepalive, so the request outlives the page. Back
  // online: push what only the device has.
  useEffect(() => {
    if (!assignmentId) return;
    const onHidden = () => {
      if (document.visibilityState === 'hidden' || document.visibilityState === undefined) void flush();
    };
    // Synchronous, unlike IndexedDB: the page may be gone before an asynchronous write ends.
    const stash = () => {
      const r = refs.current;
      if (userId && !r.held && isDirty(r)) stashOnUnload(userId, assignmentId, deviceCopyOf(r));
    };
    const onPageHide = () => {
      stash();
      void flush({ keepalive: true });
    };
    const onOnline = () => void flush();
    document.addEventListener('visibilitychange', onHidden);
    window.addEventListener('pagehide', onPageHide);
    window.addEventListener('online', onOnline);
    return () => {
      // The dialog goes (or the page around it is built anew, issue 25 item 10) with text the device
      // copy's short delay has not written yet: kept, so reopening it shows every character typed.
      stash();
      document.removeEventListener('visibilitychange', onHidden);
      window.removeEventListener('pagehide', onPageHide);
      window.removeEventListener('online', onOnline);
    };
  }, [assignmentId, userId, flush, refs]);

  // Signed in again after the session expired: push what only the device has.
  useEffect(() => {
    signedInRef.current = signedIn;
    if (signedIn && isDirty(refs.current) && !refs.current.pause) void save();
  }, [signedIn, save, refs, signedInRef]);

  // The socket is back: push what only the device has.
  useEffect(() => {
    if (connection === 'live' && isDirty(refs.current) && !refs.current.pause) void save();
  }, [connection, save, refs]);
}
