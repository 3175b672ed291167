import type { Dispatch, SetStateAction } from 'react';

/**
 * The answer box's status line (DESIGN §12). It says only what is true: "Saved" appears only
 * after the server acknowledged exactly the text on screen.
 */
export type DraftStatus =
  /** Nothing typed and nothing saved yet: the line is empty. */
  | { kind: 'idle' }
  /** Changes not yet acknowledged, with the connection up: a save is due or under way. */
  | { kind: 'saving' }
  /** The server acknowledged the text on screen at `at` (its time). */
  | { kind: 'saved'; at: string }
  /** The server has not got it, but this device kept a copy. */
  | { kind: 'device' }
  /** Signed out (the session expired): kept on this device until they sign in again. */
  | { kind: 'signedOut' }
  /** Submit was pressed and waits to be sent: the text is on this device with it. */
  | { kind: 'queued' }
  /** A submit the server refused (closed, gone, already submitted): the text is kept, not sent. */
  | { kind: 'refused' }
  /** Neither the server nor the device has the latest text. */
  | { kind: 'unsaved' };

/** Something the dialog must tell the student about their draft. */
export type DraftNotice =
  /** Another tab saved newer text; it is on screen now. */
  | 'conflict'
  /** The assignment was submitted (in another tab): no more drafts. */
  | 'submitted'
  /** The assignment is gone or the student was removed: the text stays on screen to copy. */
  | 'gone';

/**
 * What the answer dialog shows of its draft, as the draft's hooks set it: the text, the status
 * line, a notice and a displaced text offered back.
 */
export interface DraftScreen {
  content: (text: string) => void;
  status: Dispatch<SetStateAction<DraftStatus>>;
  notice: Dispatch<SetStateAction<DraftNotice | null>>;
  displaced: (text: string | null) => void;
}

/** A time as the status line and receipts show it: 10:42 (with seconds on a receipt). */
export function clockTime(iso: string, seconds = false): string {
  return new Intl.DateTimeFormat(undefined, {
    hour: '2-digit',
    minute: '2-digit',
    ...(seconds ? { second: '2-digit' } : {}),
    hourCycle: 'h23',
  }).format(new Date(iso));
}

export function draftStatusText(status: DraftStatus): string {
  switch (status.kind) {
    case 'idle':
      return '';
    case 'saving':
      return 'Saving…';
    case 'saved':
      return `Saved ${clockTime(status.at)}`;
    case 'device':
      return 'Saved on this device — reconnecting';
    case 'signedOut':
      return 'Saved on this device — sign in to save';
    case 'queued':
      return 'Saved on this device — waiting to submit';
    case 'refused':
      return 'Not submitted — your text is kept';
    case 'unsaved':
      return 'Not saved — check your connection';
  }
}

/** Whether closing the dialog may lose nothing: the server has the text on screen, or there is none. */
export const safeToClose = (status: DraftStatus, content: string) =>
  status.kind === 'saved' || content.trim() === '';
