import { createStore, del, get, keys, set, type UseStore } from 'idb-keyval';

/**
 * The device copy (DESIGN §12): the answer as last typed, and submits waiting for the network,
 * kept in IndexedDB so a reload, a lost connection or an expired session loses nothing. Each
 * entry is the signed-in user's own (the key names them). A browser without IndexedDB (some
 * private modes) just has no device copy: every call here reports failure instead of throwing.
 */

export interface DeviceDraft {
  content: string;
  /** The server version this text was typed on (0: none yet). */
  baseVersion: number;
  /** True once the server has acknowledged exactly this text. */
  synced: boolean;
  /** When it was written, ms since the epoch. */
  savedAt: number;
  /**
   * Text typed in a tab that lost a conflict to another tab's newer save: on no server, so kept
   * here and offered back ("Your text from this tab") until restored or dismissed.
   */
  displaced?: string;
}

export interface QueuedSubmit {
  assignmentId: string;
  content: string;
  /** The Idempotency-Key made when Submit was pressed: sending it again can never submit twice. */
  key: string;
  queuedAt: number;
}

let store: UseStore | null | undefined;
function deviceStore(): UseStore | null {
  if (store === undefined) {
    try {
      store = typeof indexedDB === 'undefined' ? null : createStore('classwave', 'student-work');
    } catch {
      store = null;
    }
  }
  return store;
}

const draftKey = (userId: string, assignmentId: string) => `draft:${userId}:${assignmentId}`;
const submitKey = (userId: string, assignmentId: string) => `submit:${userId}:${assignmentId}`;

async function attempt<T>(work: (store: UseStore) => Promise<T>): Promise<T | undefined> {
  const target = deviceStore();
  if (!target) return undefined;
  try {
    return await work(target);
  } catch {
    return undefined;
  }
}

/**
 * The unload stash: IndexedDB writes are asynchronous, and one started as the page goes away
 * (a reload or a closed tab while offline) may never finish. On pagehide the latest text is also
 * written synchronously to localStorage; the next read takes it when it is newer, moves it into
 * IndexedDB and clears it.
 */
const stashKey = (userId: string, assignmentId: string) =>
  `classwave:unload:${draftKey(userId, assignmentId)}`;

/** Synchronously keeps the text as the page goes away (see the unload stash above). */
export function stashOnUnload(userId: string, assignmentId: string, draft: DeviceDraft): void {
  try {
    localStorage.setItem(stashKey(userId, assignmentId), JSON.stringify(draft));
  } catch {
    // No storage (private mode, quota): the IndexedDB write started beside it is all there is.
  }
}

function takeStash(userId: string, assignmentId: string): DeviceDraft | undefined {
  try {
    const key = stashKey(userId, assignmentId);
    const raw = localStorage.getItem(key);
    localStorage.removeItem(key);
    const stash = raw ? (JSON.parse(raw) as Partial<DeviceDraft>) : undefined;
    return stash && typeof stash.content === 'string' && typeof stash.savedAt === 'number'
      ? (stash as DeviceDraft)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The device copy: the newer of IndexedDB's and an unload stash (which then moves into IndexedDB). */
export async function readDeviceDraft(
  userId: string,
  assignmentId: string,
): Promise<DeviceDraft | undefined> {
  const stored = await attempt((s) => get<DeviceDraft>(draftKey(userId, assignmentId), s));
  const stash = takeStash(userId, assignmentId);
  if (!stash || (stored && stored.savedAt >= stash.savedAt)) return stored;
  await writeDeviceDraft(userId, assignmentId, stash);
  return stash;
}

/** Writes the device copy; false when the device could not keep it. */
export const writeDeviceDraft = async (userId: string, assignmentId: string, draft: DeviceDraft) =>
  (await attempt((s) => set(draftKey(userId, assignmentId), draft, s).then(() => true))) === true;

export const deleteDeviceDraft = (userId: string, assignmentId: string) => {
  takeStash(userId, assignmentId);
  return attempt((s) => del(draftKey(userId, assignmentId), s));
};

/**
 * After a submission: the copy of the submitted text goes (it is in the submission now), but text
 * displaced by another tab that the student never restored stays, since it is nowhere else.
 */
export async function dropSubmittedDraft(userId: string, assignmentId: string): Promise<void> {
  const copy = await readDeviceDraft(userId, assignmentId);
  if (copy?.displaced)
    await writeDeviceDraft(userId, assignmentId, {
      content: '',
      baseVersion: 0,
      synced: true,
      savedAt: Date.now(),
      displaced: copy.displaced,
    });
  else await deleteDeviceDraft(userId, assignmentId);
}

export const queueSubmit = async (userId: string, item: QueuedSubmit) =>
  (await attempt((s) => set(submitKey(userId, item.assignmentId), item, s).then(() => true))) === true;

export const unqueueSubmit = (userId: string, assignmentId: string) =>
  attempt((s) => del(submitKey(userId, assignmentId), s));

export const readQueuedSubmit = (userId: string, assignmentId: string) =>
  attempt((s) => get<QueuedSubmit>(submitKey(userId, assignmentId), s));

/** Every submit of this user still waiting for the network. */
export async function queuedSubmits(userId: string): Promise<QueuedSubmit[]> {
  const prefix = `submit:${userId}:`;
  const all = await attempt(async (s) => {
    const names = (await keys(s)).filter((k): k is string => typeof k === 'string' && k.startsWith(prefix));
    return Promise.all(names.map((name) => get<QueuedSubmit>(name, s)));
  });
  return (all ?? []).filter((item): item is QueuedSubmit => item !== undefined);
}

/** Tests start from an empty device. */
export function resetDeviceStoreForTests(): void {
  store = undefined;
}

/**
 * On a deliberate sign-out (a shared school computer): forgets this user's device copies that the
 * server already holds. Text the server never acknowledged and submits still waiting stay, so
 * signing out offline loses nothing; they are pushed when the same person signs in again.
 */
export async function forgetSyncedWork(userId: string): Promise<void> {
  const prefix = `draft:${userId}:`;
  await attempt(async (s) => {
    const names = (await keys(s)).filter((k): k is string => typeof k === 'string' && k.startsWith(prefix));
    const copies = await Promise.all(
      names.map(async (name) => ({ name, copy: await get<DeviceDraft>(name, s) })),
    );
    await Promise.all(copies.filter(({ copy }) => copy?.synced).map(({ name }) => del(name, s)));
  });
}
