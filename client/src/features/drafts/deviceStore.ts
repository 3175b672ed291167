import { createStore, del, delMany, get, keys, set, type UseStore } from 'idb-keyval';

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
   * Written by older versions only: text displaced by another tab's newer save, kept in this one
   * record, which the winning tab's next write replaced without it. Read once when the dialog
   * opens and moved into a conflict copy (below).
   */
  displaced?: string;
}

/**
 * A conflict copy: text typed in one tab that lost to another tab's newer save. On no server, so
 * each tab keeps its own beside the device copy (`conflict:<user>:<assignment>:<tab>`), which the
 * other tabs never write over; it is offered back ("Your text from this tab") when the dialog
 * opens next, in any tab, until restored or discarded.
 */
export interface ConflictCopy {
  /** The tab that kept it (a random id per open dialog). */
  tab: string;
  text: string;
  /** When it was written, ms since the epoch. */
  savedAt: number;
}

/** At most this many conflict copies per answer: the oldest go first beyond it. */
export const MAX_CONFLICT_COPIES = 5;

export interface QueuedSubmit {
  assignmentId: string;
  content: string;
  /** The Idempotency-Key made when Submit was pressed: sending it again can never submit twice. */
  key: string;
  queuedAt: number;
  /** The files handed in with it (DESIGN §18): queued only once each is stored on the server. */
  fileIds?: string[];
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
const conflictPrefix = (userId: string, assignmentId: string) => `conflict:${userId}:${assignmentId}:`;
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
 * displaced by another tab that the student never restored stays, since it is nowhere else: the
 * conflict copies, and one an older version kept in the record itself.
 */
export async function dropSubmittedDraft(userId: string, assignmentId: string): Promise<void> {
  const copy = await readDeviceDraft(userId, assignmentId);
  if (copy?.displaced) await writeConflictCopy(userId, assignmentId, crypto.randomUUID(), copy.displaced);
  await deleteDeviceDraft(userId, assignmentId);
}

/** This answer's conflict copies on this device, oldest first. */
export async function readConflictCopies(userId: string, assignmentId: string): Promise<ConflictCopy[]> {
  const prefix = conflictPrefix(userId, assignmentId);
  const copies = await attempt(async (s) => {
    const names = (await keys(s)).filter((k): k is string => typeof k === 'string' && k.startsWith(prefix));
    return Promise.all(names.map((name) => get<ConflictCopy>(name, s)));
  });
  return (copies ?? [])
    .filter((copy): copy is ConflictCopy => typeof copy?.text === 'string' && copy.text !== '')
    .sort((a, b) => a.savedAt - b.savedAt);
}

/**
 * Keeps one tab's conflict copy (replacing that tab's previous one); false when the device could
 * not. Beyond `MAX_CONFLICT_COPIES` for one answer, the oldest other tabs' copies are dropped.
 */
export async function writeConflictCopy(
  userId: string,
  assignmentId: string,
  tab: string,
  text: string,
): Promise<boolean> {
  const copy: ConflictCopy = { tab, text, savedAt: Date.now() };
  const kept =
    (await attempt((s) => set(conflictPrefix(userId, assignmentId) + tab, copy, s).then(() => true))) ===
    true;
  const all = await readConflictCopies(userId, assignmentId);
  const others = all.filter((c) => c.tab !== tab);
  const excess = others.slice(0, Math.max(0, all.length - MAX_CONFLICT_COPIES));
  if (excess.length > 0)
    await deleteConflictCopies(
      userId,
      assignmentId,
      excess.map((c) => c.tab),
    );
  return kept;
}

/** Drops the conflict copies of these tabs (restored, or discarded by the student). */
export const deleteConflictCopies = (userId: string, assignmentId: string, tabs: readonly string[]) =>
  attempt((s) =>
    delMany(
      tabs.map((tab) => conflictPrefix(userId, assignmentId) + tab),
      s,
    ),
  );

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
