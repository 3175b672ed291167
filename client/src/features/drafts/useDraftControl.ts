import { useCallback } from 'react';
import type { DraftStatus } from './draftStatus';
import { isDirty, type Refs } from './draftRefs';

/** What the dialog does to the draft around a submit, a displaced text, and the end of writing. */
export function useDraftControl(
  refs: { current: Refs },
  actions: {
    setContent: (text: string) => void;
    setDisplaced: (text: string | null) => void;
    setStatus: (status: DraftStatus) => void;
    flush: () => Promise<void>;
    save: () => Promise<void>;
    writeDevice: (r?: Refs) => Promise<boolean>;
  },
) {
  const { setContent, setDisplaced, setStatus, flush, save, writeDevice } = actions;
  return {
    /**
     * Before a submit is sent: no more draft saves (the submit carries the text and deletes the
     * draft), after the save under way has finished. Null when that save changed the text on
     * screen (another tab's newer text arrived): the student sees it before anything is submitted.
     */
    hold: useCallback(async (): Promise<string | null> => {
      const r = refs.current;
      clearTimeout(r.pause);
      clearTimeout(r.maxWait);
      r.pause = r.maxWait = undefined;
      const pressed = r.content;
      await writeDevice(r);
      r.held = true;
      while (r.inFlight) await r.inFlight;
      if (r.content === pressed && !r.stopped) {
        setStatus({ kind: 'queued' });
        return pressed;
      }
      r.held = false;
      // The save's answer was written while held: the device gets it (and any displaced text) now.
      await writeDevice(r);
      return null;
    }, [refs, setStatus, writeDevice]),
    /**
     * The submit was refused: the text is a draft again, on the device and (when it can) the server.
     * The line says it was not submitted, never "waiting to submit" (DESIGN §17), until a save
     * of text the server does not have yet says where that text is.
     */
    release: useCallback(async () => {
      const r = refs.current;
      r.held = false;
      r.acked = r.stopped ? null : r.acked;
      await writeDevice(r);
      setStatus({ kind: 'refused' });
      if (!r.stopped) await save();
    }, [refs, save, setStatus, writeDevice]),
    /** No more server saves for this answer (gone, or submitted elsewhere), as of now. */
    stopped: useCallback(() => refs.current.stopped, [refs]),
    /** The submission was made here: nothing more to save (the queue dropped the device copy). */
    finish: useCallback(() => {
      const r = refs.current;
      r.held = true;
      r.stopped = true;
      r.acked = r.content;
      clearTimeout(r.pause);
      clearTimeout(r.maxWait);
    }, [refs]),
    /** Submitted in another tab, or the assignment is gone: no more saves, the device keeps the text. */
    stop: useCallback(
      async (reason: 'gone' | 'submitted') => {
        const r = refs.current;
        // Once gone, always gone; called on every render of the dialog while it is so.
        if (r.held || r.stopReason === reason || r.stopReason === 'gone') return;
        r.stopped = true;
        r.stopReason = reason;
        clearTimeout(r.maxWait);
        if (reason === 'gone') r.acked = null;
        if (!isDirty(r)) return;
        setStatus({ kind: (await writeDevice(r)) ? 'device' : 'unsaved' });
      },
      [refs, setStatus, writeDevice],
    ),
    /**
     * Access is back (restored to the course): saving resumes by itself, and the text that only
     * the device kept meanwhile goes to the server now. A save refused again stops it again.
     */
    resume: useCallback(async () => {
      const r = refs.current;
      if (r.stopReason !== 'gone' || r.held) return;
      r.stopped = false;
      r.stopReason = undefined;
      if (isDirty(r)) await save();
      else setStatus(r.ackedAt && r.acked !== null ? { kind: 'saved', at: r.ackedAt } : { kind: 'idle' });
    }, [refs, save, setStatus]),
    /** Puts the displaced text back on screen and saves it over the newer version. */
    restoreDisplaced: useCallback(async () => {
      const r = refs.current;
      const text = r.displaced;
      if (text === null) return;
      r.displaced = null;
      setDisplaced(null);
      setContent(text);
      await flush();
    }, [refs, setContent, setDisplaced, flush]),
    /** The student let the displaced text go. */
    dismissDisplaced: useCallback(async () => {
      const r = refs.current;
      r.displaced = null;
      setDisplaced(null);
      await writeDevice(r);
    }, [refs, setDisplaced, writeDevice]),
  };
}
