import { useCallback, useEffect, useState } from 'react';
import type { Attachments } from '../files/useAttachments';

const keyOf = (userId: string, assignmentId: string) => `classwave:submit-awaiting:${userId}:${assignmentId}`;

function remembered(key: string | null): boolean {
  try {
    return key !== null && localStorage.getItem(key) !== null;
  } catch {
    return false;
  }
}

function remember(key: string | null, on: boolean): void {
  if (key === null) return;
  try {
    if (on) localStorage.setItem(key, String(Date.now()));
    else localStorage.removeItem(key);
  } catch {
    // Storage refused (private mode, full): the wait lasts as long as the page.
  }
}

/**
 * "Submit was pressed while files were still uploading" (DESIGN §18): the answer goes once they are
 * stored. Kept on the device, beside the files themselves, so a reload or a closed dialog does not
 * forget it: when the dialog opens again on the same files, it waits again and submits by itself.
 * Forgotten when the files are gone (handed in, removed, signed out).
 */
export function useAwaitingFiles(
  userId: string | null,
  assignmentId: string | null,
  attachments: Attachments,
) {
  const key = userId && assignmentId ? keyOf(userId, assignmentId) : null;
  // Held per answer: another assignment's dialog starts without it.
  const [held, setHeld] = useState<string | null>(null);
  const awaiting = key !== null && held === key;
  const { loaded, items } = attachments;
  const hasFiles = items.length > 0;

  // Once the device's files are read: a press before a reload holds again while they are there.
  useEffect(() => {
    if (!loaded) return;
    if (hasFiles && remembered(key)) setHeld(key);
    else if (!hasFiles) remember(key, false);
  }, [loaded, hasFiles, key]);

  const setAwaiting = useCallback(
    (on: boolean) => {
      remember(key, on);
      setHeld(on ? key : null);
    },
    [key],
  );
  return [awaiting, setAwaiting] as const;
}
