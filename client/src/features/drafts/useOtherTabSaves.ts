import { useEffect } from 'react';
import { onDraftSaved } from './draftEvents';
import { isDirty, type DraftHandle } from './draftRefs';
import type { DeviceCopy } from './useDeviceCopy';

/**
 * Another tab saved this assignment's draft (`draft:saved`): its text is taken when this tab has
 * nothing unsaved, else this tab's next save is refused (409) and the conflict handled there.
 */
export function useOtherTabSaves(
  { assignmentId, refs, fetchDraft, show }: DraftHandle,
  writeDevice: DeviceCopy['writeDevice'],
) {
  useEffect(() => {
    if (!assignmentId) return;
    return onDraftSaved(async (event) => {
      const r = refs.current;
      const busy = isDirty(r) || r.inFlight !== null || r.held || r.stopped;
      if (event.assignmentId !== assignmentId || event.version <= r.base || busy) return;
      const { data } = await fetchDraft(assignmentId);
      if (!data || refs.current !== r || isDirty(r) || r.held || data.version <= r.base) return;
      r.content = data.content;
      r.base = data.version;
      r.acked = data.content;
      r.ackedAt = data.updatedAt;
      show.content(data.content);
      show.notice('conflict');
      show.status({ kind: 'saved', at: data.updatedAt });
      void writeDevice(r);
    });
  }, [assignmentId, fetchDraft, writeDevice, refs, show]);
}
