import { ErrorCode, LIMITS, type DraftConflictBody } from '@classwave/shared';
import { useCallback } from 'react';
import { apiErrorCode, httpStatus } from '../../api/errors';
import { joinDisplaced } from './draftMerge';
import { clearSaveTimers, isDirty, type DraftHandle } from './draftRefs';
import type { DeviceCopy } from './useDeviceCopy';

/**
 * Saves the text on screen to the server, one save at a time (a change during one is saved right
 * after it). One writer by version: a stale save gets the newer text back and this tab's text is
 * kept aside; a save refused for good stops saving and leaves the text on the device.
 */
export function useDraftSave(
  { assignmentId, refs, signedInRef, saveDraft, show }: DraftHandle,
  { writeDevice, keptOnDevice }: DeviceCopy,
) {
  const save = useCallback(
    async ({ keepalive = false }: { keepalive?: boolean } = {}): Promise<void> => {
      const r = refs.current;
      clearSaveTimers(r);
      if (!assignmentId || r.stopped || r.held || !isDirty(r)) return;
      if (r.inFlight) {
        r.again = true;
        return;
      }
      if (!signedInRef.current) return keptOnDevice(r, 'signedOut');
      // Offline, or over the limit the server would refuse: the device keeps it meanwhile.
      if (!navigator.onLine || r.content.length > LIMITS.submissionContent) return keptOnDevice(r);
      const text = r.content;
      show.status({ kind: 'saving' });
      const run = (async () => {
        const result = await saveDraft({ assignmentId, content: text, baseVersion: r.base, keepalive });
        if (refs.current !== r) return;
        if ('data' in result && result.data) {
          r.base = result.data.version;
          r.acked = text;
          r.ackedAt = result.data.updatedAt;
          if (r.content === text) show.status({ kind: 'saved', at: result.data.updatedAt });
          await writeDevice(r);
          return;
        }
        const code = apiErrorCode(result.error);
        const httpCode = httpStatus(result.error);
        if (code === ErrorCode.draftConflict) {
          // Another tab saved first: its text is shown, this tab's goes aside (and to the device).
          const newer = (result.error as { data: DraftConflictBody }).data;
          // Nothing to keep aside when the newer text already holds all of this tab's (a prefix).
          if (!newer.content.includes(r.content)) r.displaced = joinDisplaced(r.displaced, r.content);
          clearSaveTimers(r);
          r.base = newer.version;
          r.acked = newer.content;
          r.ackedAt = newer.updatedAt;
          r.content = newer.content;
          show.content(newer.content);
          show.displaced(r.displaced);
          show.notice('conflict');
          show.status({ kind: 'saved', at: newer.updatedAt });
          await writeDevice(r);
          return;
        }
        if (httpCode === 409 || httpCode === 403 || httpCode === 404) {
          // Submitted elsewhere, or the assignment is gone for this student: stop saving, keep the text.
          r.stopped = true;
          r.stopReason = httpCode === 409 ? 'submitted' : 'gone';
          if (httpCode !== 409) r.acked = null;
          show.notice(httpCode === 409 ? 'submitted' : 'gone');
          return keptOnDevice(r);
        }
        await keptOnDevice(r, httpCode === 401 || !signedInRef.current ? 'signedOut' : 'device');
      })();
      r.inFlight = run;
      await run.finally(() => {
        r.inFlight = null;
      });
      if (r.again) {
        r.again = false;
        void save();
      }
    },
    [assignmentId, saveDraft, writeDevice, keptOnDevice, refs, signedInRef, show],
  );
  return save;
}

/** Saves the draft now, unless a submit holds it or nothing is unsaved. */
export type Save = ReturnType<typeof useDraftSave>;
