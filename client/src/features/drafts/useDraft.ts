import { DRAFT_TIMING, ErrorCode, LIMITS, type DraftConflictBody } from '@classwave/shared';
import { useCallback, useEffect, useRef, useState } from 'react';
import { apiErrorCode, httpStatus } from '../../api/errors';
import { useAppSelector } from '../../app/hooks';
import { selectConnection } from '../../realtime/connectionSlice';
import { selectAuthStatus } from '../auth/authSlice';
import { readDeviceDraft, readQueuedSubmit, stashOnUnload, writeDeviceDraft } from './deviceStore';
import { onDraftSaved } from './draftEvents';
import { joinDisplaced, openDraft } from './draftMerge';
import type { DraftStatus } from './draftStatus';
import { useLazyGetDraftQuery, useSaveDraftMutation } from './draftsApi';
import { fresh, isDirty, type Refs } from './draftRefs';
import { useDraftControl } from './useDraftControl';

/**
 * The device copy is written this soon after typing pauses, well before the server save (1.5 s):
 * a reload, a closed tab or a crash while offline then loses at most a moment of typing.
 */
const DEVICE_COPY_MS = 300;

/** Something the dialog must tell the student about their draft. */
export type DraftNotice =
  /** Another tab saved newer text; it is on screen now. */
  | 'conflict'
  /** The assignment was submitted (in another tab): no more drafts. */
  | 'submitted'
  /** The assignment is gone or the student was removed: the text stays on screen to copy. */
  | 'gone';

/**
 * A student's answer that is never lost (DESIGN §12): every typed character is in the server's
 * draft, in the submission, or on this device. Restored from the server or the device when the
 * dialog opens, saved ~1.5 s after typing stops, at least every 10 s while typing, when the tab is
 * hidden and when the connection or the session returns; copied to the device after each pause.
 * One writer by version: a stale save gets the newer text back, and this tab's text is kept aside.
 */
export function useDraft(assignmentId: string | null, userId: string | null) {
  const [content, setContentState] = useState('');
  const [status, setStatus] = useState<DraftStatus>({ kind: 'idle' });
  const [notice, setNotice] = useState<DraftNotice | null>(null);
  const [displaced, setDisplaced] = useState<string | null>(null);
  const [ready, setReady] = useState(false);
  const [saveDraft] = useSaveDraftMutation();
  const [fetchDraft] = useLazyGetDraftQuery();
  const connection = useAppSelector(selectConnection);
  const signedIn = useAppSelector(selectAuthStatus) === 'signedIn';
  const signedInRef = useRef(signedIn);
  const refs = useRef<Refs>(fresh());

  const clearTimers = () => {
    clearTimeout(refs.current.pause);
    clearTimeout(refs.current.maxWait);
    refs.current.pause = undefined;
    refs.current.maxWait = undefined;
  };

  const writeDevice = useCallback(
    (r: Refs = refs.current) =>
      assignmentId && userId && !r.held
        ? writeDeviceDraft(userId, assignmentId, {
            content: r.content,
            baseVersion: r.base,
            synced: !isDirty(r),
            savedAt: Date.now(),
            ...(r.displaced ? { displaced: r.displaced } : {}),
          })
        : Promise.resolve(false),
    [assignmentId, userId],
  );

  /** The text is only on the device (or not even there): say which, and why. */
  const keptOnDevice = useCallback(
    async (r: Refs, why: 'device' | 'signedOut' = 'device') => {
      const kept = await writeDevice(r);
      if (refs.current === r && !r.held) setStatus({ kind: kept ? why : 'unsaved' });
    },
    [writeDevice],
  );

  const save = useCallback(
    async ({ keepalive = false }: { keepalive?: boolean } = {}): Promise<void> => {
      const r = refs.current;
      clearTimers();
      if (!assignmentId || r.stopped || r.held || !isDirty(r)) return;
      if (r.inFlight) {
        r.again = true;
        return;
      }
      if (!signedInRef.current) return keptOnDevice(r, 'signedOut');
      // Offline, or over the limit the server would refuse: the device keeps it meanwhile.
      if (!navigator.onLine || r.content.length > LIMITS.submissionContent) return keptOnDevice(r);
      const text = r.content;
      setStatus({ kind: 'saving' });
      const run = (async () => {
        const result = await saveDraft({ assignmentId, content: text, baseVersion: r.base, keepalive });
        if (refs.current !== r) return;
        if ('data' in result && result.data) {
          r.base = result.data.version;
          r.acked = text;
          r.ackedAt = result.data.updatedAt;
          if (r.content === text) setStatus({ kind: 'saved', at: result.data.updatedAt });
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
          clearTimers();
          r.base = newer.version;
          r.acked = newer.content;
          r.ackedAt = newer.updatedAt;
          r.content = newer.content;
          setContentState(newer.content);
          setDisplaced(r.displaced);
          setNotice('conflict');
          setStatus({ kind: 'saved', at: newer.updatedAt });
          await writeDevice(r);
          return;
        }
        if (httpCode === 409 || httpCode === 403 || httpCode === 404) {
          // Submitted elsewhere, or the assignment is gone for this student: stop saving, keep the text.
          r.stopped = true;
          r.stopReason = httpCode === 409 ? 'submitted' : 'gone';
          if (httpCode !== 409) r.acked = null;
          setNotice(httpCode === 409 ? 'submitted' : 'gone');
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
    [assignmentId, saveDraft, writeDevice, keptOnDevice],
  );

  /** A pause in typing (or the 10 s ceiling): copy to the device, then save. */
  const pauseReached = useCallback(() => {
    clearTimers();
    void writeDevice().then(() => save());
  }, [save, writeDevice]);

  const setContent = useCallback(
    (text: string) => {
      const r = refs.current;
      if (r.held) return;
      r.content = text;
      setContentState(text);
      setNotice((current) => (current === 'conflict' ? null : current));
      clearTimeout(r.deviceCopy);
      r.deviceCopy = setTimeout(() => void writeDevice(r), DEVICE_COPY_MS);
      // No server to save to: the device copy above is all there is.
      if (r.stopped) return;
      if (!isDirty(r)) {
        // Back to exactly what the server has.
        clearTimers();
        setStatus(r.ackedAt ? { kind: 'saved', at: r.ackedAt } : { kind: 'idle' });
        return;
      }
      setStatus((s) =>
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
    [pauseReached, writeDevice],
  );

  /** Saves now (before closing or hiding the tab). */
  const flush = useCallback(
    async (options?: { keepalive?: boolean }) => {
      clearTimers();
      // The request starts first: on pagehide the page may be gone before the device write ends.
      const kept = writeDevice();
      await save(options);
      await kept;
    },
    [save, writeDevice],
  );

  // Opening: the newest of the server's draft and the device copy, pushed when the device's is newer.
  useEffect(() => {
    if (!assignmentId || !userId) return;
    const r = fresh();
    refs.current = r;
    let cancelled = false;
    setReady(false);
    setNotice(null);
    setDisplaced(null);
    setContentState('');
    setStatus({ kind: 'idle' });
    void (async () => {
      const [device, queued, server] = await Promise.all([
        readDeviceDraft(userId, assignmentId),
        readQueuedSubmit(userId, assignmentId),
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
      if (server.status === 403) {
        r.stopped = true;
        r.stopReason = 'gone';
        r.acked = null;
        setNotice('gone');
      } else if (conflict) {
        setNotice('conflict');
        // The displaced text is kept with the newer one, in the device copy itself.
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
      setContentState(r.content);
      setDisplaced(r.displaced);
      if (r.held) setStatus({ kind: 'queued' });
      else if (!isDirty(r)) setStatus(r.ackedAt ? { kind: 'saved', at: r.ackedAt } : { kind: 'idle' });
      else if (!reached) setStatus({ kind: server.status === 401 ? 'signedOut' : 'device' });
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
      void writeDeviceDraft(userId, assignmentId, {
        content: r.content,
        baseVersion: r.base,
        synced: false,
        savedAt: Date.now(),
        ...(r.displaced ? { displaced: r.displaced } : {}),
      });
      const canSend = navigator.onLine && signedInRef.current && !r.inFlight;
      if (!r.stopped && canSend && r.content.length <= LIMITS.submissionContent)
        void saveDraft({ assignmentId, content: r.content, baseVersion: r.base });
    };
    // `save` is stable for one assignment; the draft is loaded once per opening.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [assignmentId, userId]);

  // Hidden tab (switching away, closing, a phone locking): save now; on pagehide with keepalive, so
  // the request outlives the page. Back online: push what only the device has.
  useEffect(() => {
    if (!assignmentId) return;
    const onHidden = () => {
      if (document.visibilityState === 'hidden' || document.visibilityState === undefined) void flush();
    };
    const onPageHide = () => {
      const r = refs.current;
      // Synchronous, unlike IndexedDB: the page may be gone before an asynchronous write ends.
      if (userId && !r.held && isDirty(r))
        stashOnUnload(userId, assignmentId, {
          content: r.content,
          baseVersion: r.base,
          synced: false,
          savedAt: Date.now(),
          ...(r.displaced ? { displaced: r.displaced } : {}),
        });
      void flush({ keepalive: true });
    };
    const onOnline = () => void flush();
    document.addEventListener('visibilitychange', onHidden);
    window.addEventListener('pagehide', onPageHide);
    window.addEventListener('online', onOnline);
    return () => {
      document.removeEventListener('visibilitychange', onHidden);
      window.removeEventListener('pagehide', onPageHide);
      window.removeEventListener('online', onOnline);
    };
  }, [assignmentId, userId, flush]);

  // Signed in again after the session expired: push what only the device has.
  useEffect(() => {
    signedInRef.current = signedIn;
    if (signedIn && isDirty(refs.current) && !refs.current.pause) void save();
  }, [signedIn, save]);

  // The socket is back: push what only the device has.
  useEffect(() => {
    if (connection === 'live' && isDirty(refs.current) && !refs.current.pause) void save();
  }, [connection, save]);

  // Another tab saved: take its text when this one has nothing unsaved (else the next save says 409).
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
      setContentState(data.content);
      setNotice('conflict');
      setStatus({ kind: 'saved', at: data.updatedAt });
      void writeDevice(r);
    });
  }, [assignmentId, fetchDraft, writeDevice]);

  const control = useDraftControl(refs, { setContent, setDisplaced, setStatus, flush, save, writeDevice });
  return { content, setContent, status, notice, setNotice, displaced, ready, flush, ...control };
}
