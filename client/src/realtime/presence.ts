import type { PresenceState } from '@classwave/shared';
import { useEffect, useRef } from 'react';
import { liveSocket } from './socket';

/** After this long without a keystroke, "writing" falls back to "viewing". */
export const WRITING_IDLE_MS = 15_000;

/** Tells the server which assignment this tab shows, and whether its student is typing (DESIGN §13 panel). */
export function reportPresence(assignmentId: string | null, state: PresenceState | null): void {
  liveSocket()?.emit('presence:set', { assignmentId, state }, () => {});
}

/**
 * While `assignmentId` is open this tab reports "viewing", "writing" for a while after each call
 * of the returned function, and nothing once it closes. A reconnected socket is told again.
 */
export function useAssignmentPresence(assignmentId: string | null): () => void {
  const state = useRef<PresenceState>('viewing');
  const idle = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    if (!assignmentId) return;
    state.current = 'viewing';
    reportPresence(assignmentId, 'viewing');
    const socket = liveSocket();
    const again = () => reportPresence(assignmentId, state.current);
    socket?.on('connect', again);
    return () => {
      clearTimeout(idle.current);
      socket?.off('connect', again);
      reportPresence(null, null);
    };
  }, [assignmentId]);

  return () => {
    if (!assignmentId) return;
    clearTimeout(idle.current);
    if (state.current !== 'writing') {
      state.current = 'writing';
      reportPresence(assignmentId, 'writing');
    }
    idle.current = setTimeout(() => {
      state.current = 'viewing';
      reportPresence(assignmentId, 'viewing');
    }, WRITING_IDLE_MS);
  };
}

/**
 * While a teacher's panel for `assignmentId` is on screen, the socket says so (`panel:watch`): the
 * server computes panel updates only for watched assignments. Told again after every reconnect;
 * `onWatching` runs each time the server took it (the panel is read afresh then, so nothing that
 * changed before the watch began is missed).
 */
export function usePanelWatch(assignmentId: string, onWatching: () => void): void {
  const latest = useRef(onWatching);
  latest.current = onWatching;
  useEffect(() => {
    const socket = liveSocket();
    const watch = () =>
      socket?.emit('panel:watch', { assignmentId }, (result) => {
        if (result.ok) latest.current();
      });
    watch();
    socket?.on('connect', watch);
    return () => {
      socket?.off('connect', watch);
      socket?.emit('panel:watch', { assignmentId: null }, () => {});
    };
  }, [assignmentId]);
}
