import { LIMITS } from '@classwave/shared';
import { useEffect, useState } from 'react';
import { httpStatus } from '../../api/errors';
import { readConflictCopies, readDeviceDraft, readQueuedSubmit, writeDeviceDraft } from './deviceStore';
import { joinDisplaced, openDraft } from './draftMerge';
import { deviceCopyOf, fresh, isDirty, type DraftHandle } from './draftRefs';
import type { DeviceCopy } from './useDeviceCopy';
import type { Save } from './useDraftSave';

/**
 * Opening an assignment's answer: the newest of the server's draft and the device copy, pushed
 * when the device's is newer, or the text of a submit still queued on the device. Closing it:
 * whatever is not saved yet goes to the device and, when it can, the server. Answers whether the
 * opening text is on screen yet.
 */
export function useDraftOpening(
  { assignmentId, userId, tab, refs, signedInRef, saveDraft, fetchDraft, show }: DraftHandle,
  { save, writeDevice }: { save: Save; writeDevice: DeviceCopy['writeDevice'] },
) {
  const [ready, setReady] = useState(false);

  useEffect(() => {
    if (!assignmentId || !userId) return;
    const r = fresh();
    refs.current = r;
    let cancelled = false;
    setReady(false);
    show.notice(null);
    show.displaced(null);
    show.content('');
    show.status({ kind: 'idle' });
    void (async () => {
      const [device, queued, copies, server] = await Promise.all([
        readDeviceDraft(userId, assignmentId),
        readQueuedSubmit(userId, assignmentId),
        readConflictCopies(userId, assignmentId),
        fetchDraft(assignmentId).then((result) => ({
          draft: result.data,
          status: result.data ? 200 : httpStatus(result.error),
        })),
      ]);
      if (cancelled) return;
      const reached = server.status !== undefined && server.status < 500 && server.status !== 401;
      const { conflict, ...opening } = openDraft(device, server.draft, reached);
      // Typed before the draft arrived: kept on screen over an empty draft, else offered back.
      const early = r.content;
      Object.assign(r, opening);
      // Text other tabs (open or closed since) lost to a newer save: offered here too (issue 25, item 9).
      // This dialog's own copy too, from an earlier opening of it.
      for (const copy of copies) r.displaced = joinDisplaced(r.displaced, copy.text);
      r.copyWritten = copies.find((copy) => copy.tab === tab)?.text ?? null;
      r.adopted = copies.filter((copy) => copy.tab !== tab).map((copy) => copy.tab);
      if (server.status === 403) {
        r.stopped = true;
        r.stopReason = 'gone';
        r.acked = null;
        show.notice('gone');
      } else if (conflict || device?.displaced) {
        if (conflict) show.notice('conflict');
        // The displaced text goes to this tab's conflict copy (an older version's record had it inside).
        void writeDevice(r);
      }
      // A submit queued before a reload: it carries the text, nothing else is sent for it.
      if (queued) {
        r.content = queued.content;
        r.held = true;
      }
      if (early !== '' && early !== r.content) {
        if (r.content === '' && !r.held) r.content = early;
        else r.displaced = joinDisplaced(r.displaced, early);
      }
      show.content(r.content);
      show.displaced(r.displaced);
      if (r.held) show.status({ kind: 'queued' });
      else if (!isDirty(r)) show.status(r.ackedAt ? { kind: 'saved', at: r.ackedAt } : { kind: 'idle' });
      else if (!reached) show.status({ kind: server.status === 401 ? 'signedOut' : 'device' });
      setReady(true);
      if (isDirty(r) && reached && !r.stopped && !r.held) void save();
    })();
    return () => {
      cancelled = true;
      // Closing: whatever is not saved yet goes to the device and, when it can, the server.
      clearTimeout(r.pause);
      clearTimeout(r.maxWait);
      clearTimeout(r.deviceCopy);
      if (r.held || !isDirty(r)) return;
      void writeDeviceDraft(userId, assignmentId, deviceCopyOf(r));
      // Signed in as of closing, not of opening: the ref is read for its value now.
      // eslint-disable-next-line react-hooks/exhaustive-deps
      const canSend = navigator.onLine && signedInRef.current && !r.inFlight;
      if (!r.stopped && canSend && r.content.length <= LIMITS.submissionContent)
        void saveDraft({ assignmentId, content: r.content, baseVersion: r.base });
    };
    // `save` is stable for one assignment; the draft is loaded once per opening.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [assignmentId, userId]);

  return ready;
}
