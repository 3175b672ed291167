import { useEffect, useState } from 'react';
import { queuedSubmits, readQueuedSubmit, type QueuedSubmit } from './deviceStore';
import { onSubmitOutcome, type WaitReason } from './submitQueue';

/** A submit of this assignment waiting on the device, and why it waits (unknown until one attempt). */
export interface QueuedState {
  item: QueuedSubmit;
  reason: WaitReason | null;
}

/**
 * The submit of one assignment still queued on this device, if any: read when shown (so after a
 * reload the card and the dialog say it is queued and do not offer Submit again), then followed
 * through every attempt to send it.
 */
export function useQueuedSubmit(userId: string | null, assignmentId: string | null) {
  const [queued, setQueued] = useState<QueuedState | null>(null);
  const [checked, setChecked] = useState(false);

  useEffect(() => {
    setQueued(null);
    setChecked(false);
    if (!userId || !assignmentId) return;
    let cancelled = false;
    void readQueuedSubmit(userId, assignmentId).then((item) => {
      if (cancelled) return;
      setQueued((current) => current ?? (item ? { item, reason: null } : null));
      setChecked(true);
    });
    const stop = onSubmitOutcome((who, id, outcome) => {
      if (who !== userId || id !== assignmentId) return;
      if (outcome.kind === 'waiting')
        setQueued((current) => current && { ...current, reason: outcome.reason });
      else setQueued(null);
    });
    return () => {
      cancelled = true;
      stop();
    };
  }, [userId, assignmentId]);

  return { queued, setQueued, checked };
}

/**
 * The assignments whose submit waits on this device for this user: read when the list shows and
 * again after each attempt to send one, so a card never offers Submit for work already queued.
 */
export function useQueuedAssignments(userId: string | null): ReadonlySet<string> {
  const [ids, setIds] = useState<ReadonlySet<string>>(new Set());
  useEffect(() => {
    if (!userId) return;
    let cancelled = false;
    const read = () =>
      void queuedSubmits(userId).then((items) => {
        if (!cancelled) setIds(new Set(items.map((item) => item.assignmentId)));
      });
    read();
    const stop = onSubmitOutcome((who) => {
      if (who === userId) read();
    });
    return () => {
      cancelled = true;
      stop();
    };
  }, [userId]);
  return ids;
}
