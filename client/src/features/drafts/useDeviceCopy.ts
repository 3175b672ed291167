import { useCallback } from 'react';
import { writeDeviceDraft } from './deviceStore';
import { deviceCopyOf, type DraftHandle, type Refs } from './draftRefs';

/**
 * The device copy of one assignment's answer (DESIGN §12). `writeDevice` copies the text as it
 * stands, never while a submit holds it (the queued submit carries the text); `keptOnDevice` does
 * so when the server did not take the text, and says on the status line where it is now.
 */
export function useDeviceCopy({ assignmentId, userId, refs, show }: DraftHandle) {
  const writeDevice = useCallback(
    (r: Refs = refs.current) =>
      assignmentId && userId && !r.held
        ? writeDeviceDraft(userId, assignmentId, deviceCopyOf(r))
        : Promise.resolve(false),
    [assignmentId, userId, refs],
  );

  /** The text is only on the device (or not even there): say which, and why. */
  const keptOnDevice = useCallback(
    async (r: Refs, why: 'device' | 'signedOut' = 'device') => {
      const kept = await writeDevice(r);
      if (refs.current === r && !r.held) show.status({ kind: kept ? why : 'unsaved' });
    },
    [writeDevice, refs, show],
  );

  return { writeDevice, keptOnDevice };
}

/** The device copy's two writers, as the other hooks of a draft take them. */
export type DeviceCopy = ReturnType<typeof useDeviceCopy>;
