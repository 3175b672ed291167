import { createStore, del, entries, set, type UseStore } from 'idb-keyval';

/**
 * A file a student chose for their answer, kept on the device (IndexedDB, its bytes as a Blob)
 * until it is stored on the server and handed in (DESIGN §18): chosen offline, it waits here across
 * reloads and uploads when the connection returns, resuming from its tus URL where it stopped.
 */
export interface DeviceAttachment {
  /** This device's own id for it (the server's id is `fileId`, once the upload exists). */
  id: string;
  userId: string;
  assignmentId: string;
  name: string;
  /** The type the browser gave (for a preview here); the server sniffs its own from the bytes. */
  type: string;
  size: number;
  blob: Blob;
  /** The tus upload's URL once created: a resumed upload continues from its offset. */
  uploadUrl: string | null;
  /** The server's file id (the upload URL's last part); stored whole once `stored`. */
  fileId: string | null;
  stored: boolean;
  /** Milliseconds since the epoch: the order they were chosen in. */
  addedAt: number;
}

let store: UseStore | null | undefined;
function attachments(): UseStore | null {
  if (store === undefined)
    store = typeof indexedDB === 'undefined' ? null : createStore('classwave-files', 'attachments');
  return store;
}

/** The files waiting for (or stored for) one student's answer to one assignment, oldest first. */
export async function readAttachments(userId: string, assignmentId: string): Promise<DeviceAttachment[]> {
  const db = attachments();
  if (!db) return [];
  const all = await entries<string, DeviceAttachment>(db);
  return all
    .map(([, value]) => value)
    .filter((a) => a.userId === userId && a.assignmentId === assignmentId)
    .sort((a, b) => a.addedAt - b.addedAt);
}

export async function writeAttachment(attachment: DeviceAttachment): Promise<void> {
  const db = attachments();
  if (db) await set(attachment.id, attachment, db);
}

export async function deleteAttachment(id: string): Promise<void> {
  const db = attachments();
  if (db) await del(id, db);
}

/**
 * On sign-out: the files already on the server leave the device; those that never got there stay,
 * as a draft's unsaved text does, for their owner's next sign-in.
 */
export async function forgetStoredAttachments(userId: string): Promise<void> {
  const db = attachments();
  if (!db) return;
  const all = await entries<string, DeviceAttachment>(db);
  await Promise.all(all.filter(([, a]) => a.userId === userId && a.stored).map(([key]) => del(key, db)));
}

/** Forgets the store's handle (tests give each one a fresh IndexedDB). */
export function resetAttachmentStoreForTests(): void {
  store = undefined;
}
