import { useEffect, useRef, type Dispatch, type SetStateAction } from 'react';
import { useAppSelector } from '../../app/hooks';
import { selectConnection } from '../../realtime/connectionSlice';
import { onAccessBack } from './draftEvents';
import type { DraftNotice } from './draftStatus';

/**
 * A refused save said "gone" (removed from the course): access back (`member:restored`, or joined
 * again) or a new connection (which may have missed the restore) clears it, so the dialog saves
 * again instead of staying dead (DESIGN §17). A save refused again says "gone" again.
 */
export function useAccessBack(
  courseId: string | undefined,
  /** The assignment is in the student's list now (a stale "gone" is only cleared then on reconnect). */
  listed: boolean,
  setNotice: Dispatch<SetStateAction<DraftNotice | null>>,
) {
  const connection = useAppSelector(selectConnection);
  const wasLive = useRef(connection === 'live');
  useEffect(() => {
    const back = connection === 'live' && !wasLive.current;
    wasLive.current = connection === 'live';
    if (back && listed) setNotice((current) => (current === 'gone' ? null : current));
  }, [connection, listed, setNotice]);

  useEffect(() => {
    if (!courseId) return;
    return onAccessBack((id) => {
      if (id === courseId) setNotice((current) => (current === 'gone' ? null : current));
    });
  }, [courseId, setNotice]);
}
