import { DRAFT_TIMING } from '@classwave/shared';
import { useCallback } from 'react';
import { clearSaveTimers, isDirty, type DraftHandle } from './draftRefs';
import type { DeviceCopy } from './useDeviceCopy';
import type { Save } from './useDraftSave';

/**
 * The device copy is written this soon after typing pauses, well before the server save (1.5 s):
 * a reload, a closed tab or a crash while offline then loses at most a moment of typing.
 */
const DEVICE_COPY_MS = 300;

/**
 * Typing into the answer: each change is copied to the device after a short pause and saved to the
 * server after a longer one (or every 10 s while typing goes on); `flush` saves at once.
 */
export function useDraftTyping(
  { refs, signedInRef, show }: DraftHandle,
  { save, writeDevice }: { save: Save; writeDevice: DeviceCopy['writeDevice'] },
) {
  /** A pause in typing (or the 10 s ceiling): copy to the device, then save. */
  const pauseReached = useCallback(() => {
    clearSaveTimers(refs.current);
    void writeDevice().then(() => save());
  }, [save, writeDevice, refs]);

  const setContent = useCallback(
    (text: string) => {
      const r = refs.current;
      if (r.held) return;
      r.content = text;
      show.content(text);
      show.notice((current) => (current === 'conflict' ? null : current));
      clearTimeout(r.deviceCopy);
      r.deviceCopy = setTimeout(() => void writeDevice(r), DEVICE_COPY_MS);
      // No server to save to: the device copy above is all there is.
      if (r.stopped) return;
      if (!isDirty(r)) {
        // Back to exactly what the server has.
        clearSaveTimers(r);
        show.status(r.ackedAt ? { kind: 'saved', at: r.ackedAt } : { kind: 'idle' });
        return;
      }
      show.status((s) =>
        !signedInRef.current
          ? s.kind === 'signedOut'
            ? s
            : { kind: 'unsaved' }
          : navigator.onLine
            ? { kind: 'saving' }
            : s.kind === 'device'
              ? s
              : { kind: 'unsaved' },
      );
      clearTimeout(r.pause);
      r.pause = setTimeout(pauseReached, DRAFT_TIMING.pauseMs);
      r.maxWait ??= setTimeout(pauseReached, DRAFT_TIMING.maxWaitMs);
    },
    [pauseReached, writeDevice, refs, signedInRef, show],
  );

  /** Saves now (before closing or hiding the tab). */
  const flush = useCallback(
    async (options?: { keepalive?: boolean }) => {
      clearSaveTimers(refs.current);
      // The request starts first: on pagehide the page may be gone before the device write ends.
      const kept = writeDevice();
      await save(options);
      await kept;
    },
    [save, writeDevice, refs],
  );

  return { setContent, flush };
}
