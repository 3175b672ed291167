import { useCallback } from 'react';
import { deleteConflictCopies, writeConflictCopy, writeDeviceDraft } from './deviceStore';
import { deviceCopyOf, type DraftHandle, type Refs } from './draftRefs';

/**
 * The device copy of one assignment's answer (DESIGN §12). `writeDevice` copies the text as it
 * stands, never while a submit holds it (the queued submit carries the text), and keeps this tab's
 * displaced text in its own conflict copy (dropped with the copies adopted from other tabs once it
 * is restored or discarded); `keptOnDevice` does so when the server did not take the text, and
 * says on the status line where it is now.
 */
export function useDeviceCopy({ assignmentId, userId, tab, refs, show }: DraftHandle) {
  const writeDevice = useCallback(
    async (r: Refs = refs.current) => {
      if (!assignmentId || !userId || r.held) return false;
      // The conflict copy first: the record written next no longer carries displaced text.
      const displaced = r.displaced;
      if (displaced !== null && displaced !== r.copyWritten) {
        if (!(await writeConflictCopy(userId, assignmentId, tab, displaced))) return false;
        r.copyWritten = displaced;
      } else if (displaced === null && (r.copyWritten !== null || r.adopted.length > 0)) {
        const tabs = [tab, ...r.adopted];
        r.copyWritten = null;
        r.adopted = [];
        await deleteConflictCopies(userId, assignmentId, tabs);
      }
      return writeDeviceDraft(userId, assignmentId, deviceCopyOf(r));
    },
    [assignmentId, userId, tab, refs],
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
