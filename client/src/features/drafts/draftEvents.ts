import type { DraftSavedEvent } from '@classwave/shared';

type Listener = (event: DraftSavedEvent) => void;
const listeners = new Set<Listener>();

/**
 * `draft:saved` from the student's other tabs (DESIGN §12). A draft is not cached data anyone
 * lists, so the live-event bridge hands it to whichever answer dialog is open instead.
 */
export function onDraftSaved(listener: Listener): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

export function draftSavedElsewhere(event: DraftSavedEvent): void {
  for (const listener of listeners) listener(event);
}

type AccessListener = (courseId: string) => void;
const accessListeners = new Set<AccessListener>();

/**
 * The signed-in student is a member of a course again (`member:restored`, or joined in another
 * tab): an answer dialog that lost access to one of its assignments saves again (DESIGN §17).
 */
export function onAccessBack(listener: AccessListener): () => void {
  accessListeners.add(listener);
  return () => void accessListeners.delete(listener);
}

export function accessBack(courseId: string): void {
  for (const listener of accessListeners) listener(courseId);
}
