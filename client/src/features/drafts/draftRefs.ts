import type { DeviceDraft } from './deviceStore';
import type { useLazyGetDraftQuery, useSaveDraftMutation } from './draftsApi';
import type { DraftScreen } from './draftStatus';

/** What the answer box knows about its text, kept out of React state so timers and saves see it now. */
export interface Refs {
  content: string;
  /** The server version the text on screen builds on (0: none). */
  base: number;
  /** The text the server last acknowledged, or null when it has none. */
  acked: string | null;
  /** When the server acknowledged `acked` (its time). */
  ackedAt: string | null;
  /** This tab's text that another tab's save replaced: kept on the device, offered back. */
  displaced: string | null;
  /** The text in this tab's conflict copy on the device (null: it has none). */
  copyWritten: string | null;
  /** Other tabs' conflict copies offered here since opening: dropped with this tab's own. */
  adopted: string[];
  /** The save under way, if any. */
  inFlight: Promise<void> | null;
  again: boolean;
  /** No more server saves (submitted elsewhere, assignment gone); the device still keeps the text. */
  stopped: boolean;
  stopReason?: 'gone' | 'submitted';
  /** A submit of this text is being sent or queued: it carries the text, so no draft save may race it. */
  held: boolean;
  pause?: ReturnType<typeof setTimeout>;
  /** The device copy follows typing closely: a reload or a crash loses at most this short gap. */
  deviceCopy?: ReturnType<typeof setTimeout>;
  maxWait?: ReturnType<typeof setTimeout>;
}

export const fresh = (): Refs => ({
  content: '',
  base: 0,
  acked: null,
  ackedAt: null,
  displaced: null,
  copyWritten: null,
  adopted: [],
  inFlight: null,
  again: false,
  stopped: false,
  held: false,
});
/** The text on screen differs from what the server holds. */
export const isDirty = (r: Refs) => r.content !== (r.acked ?? '');

/** Stops the pending saves' timers: a save starts now, or there is nothing left to save. */
export function clearSaveTimers(r: Refs): void {
  clearTimeout(r.pause);
  clearTimeout(r.maxWait);
  r.pause = undefined;
  r.maxWait = undefined;
}

/**
 * The device copy of the text as it stands, synced when the server holds exactly it. Displaced
 * text is not in it: every tab writes this one record, so it goes to the tab's conflict copy.
 */
export const deviceCopyOf = (r: Refs): DeviceDraft => ({
  content: r.content,
  baseVersion: r.base,
  synced: !isDirty(r),
  savedAt: Date.now(),
});

/** What every hook of one open answer shares: whose answer to what, its refs, its screen, its requests. */
export interface DraftHandle {
  assignmentId: string | null;
  userId: string | null;
  /** This open dialog's own id: its conflict copy's key, which no other tab writes. */
  tab: string;
  refs: { current: Refs };
  /** Signed in as of now (a session can expire and come back while the dialog is open). */
  signedInRef: { current: boolean };
  show: DraftScreen;
  saveDraft: ReturnType<typeof useSaveDraftMutation>[0];
  fetchDraft: ReturnType<typeof useLazyGetDraftQuery>[0];
}
