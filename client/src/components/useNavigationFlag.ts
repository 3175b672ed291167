import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';

/** Whether router location state carries `flag: true`, e.g. `{ openCreateCourse: true }`. */
export function hasNavigationFlag(state: unknown, flag: string): boolean {
  return typeof state === 'object' && state !== null && (state as Record<string, unknown>)[flag] === true;
}

/**
 * Runs `onFlag` when the page was reached with `flag` in its location state (e.g. a dashboard quick
 * action asking to open a dialog) and `enabled` is true, then replaces the history entry with one
 * without the flag, so closing the dialog, a reload or going back and forth does not run it again.
 */
export function useNavigationFlag(flag: string, onFlag: () => void, enabled = true): void {
  const { pathname, search, hash, state } = useLocation();
  const navigate = useNavigate();
  const flagged = hasNavigationFlag(state, flag);
  const onFlagRef = useRef(onFlag);
  useEffect(() => {
    onFlagRef.current = onFlag;
  });

  useEffect(() => {
    if (!flagged) return;
    if (enabled) onFlagRef.current();
    void navigate({ pathname, search, hash }, { replace: true, state: null });
  }, [flagged, enabled, pathname, search, hash, navigate]);
}
