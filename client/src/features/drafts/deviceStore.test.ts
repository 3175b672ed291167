import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import {
  forgetSyncedWork,
  queueSubmit,
  queuedSubmits,
  dropSubmittedDraft,
  readDeviceDraft,
  stashOnUnload,
  writeDeviceDraft,
} from './deviceStore';

const copy = (content: string, synced: boolean) => ({ content, baseVersion: 1, synced, savedAt: Date.now() });

describe('forgetSyncedWork', () => {
  it("forgets the user's copies the server holds, keeps unsent text, queued submits and other users' copies", async () => {
    await writeDeviceDraft('u1', 'a-synced', copy('on the server', true));
    await writeDeviceDraft('u1', 'a-unsent', copy('typed offline', false));
    await writeDeviceDraft('u2', 'a-synced', copy('someone else', true));
    await queueSubmit('u1', { assignmentId: 'a-queued', content: 'final', key: 'k1', queuedAt: 1 });

    await forgetSyncedWork('u1');

    expect(await readDeviceDraft('u1', 'a-synced')).toBeUndefined();
    expect((await readDeviceDraft('u1', 'a-unsent'))?.content).toBe('typed offline');
    expect((await readDeviceDraft('u2', 'a-synced'))?.content).toBe('someone else');
    expect((await queuedSubmits('u1')).map((q) => q.key)).toEqual(['k1']);
  });
});

describe('the unload stash', () => {
  it('brings back text kept synchronously as the page went away when it is newer than IndexedDB', async () => {
    await writeDeviceDraft('u3', 'a1', { ...copy('older words', false), savedAt: 1000 });
    // The page went away before the IndexedDB write of the last words finished.
    stashOnUnload('u3', 'a1', { ...copy('older words and the last ones', false), savedAt: 2000 });
    expect((await readDeviceDraft('u3', 'a1'))?.content).toBe('older words and the last ones');
    // Moved into IndexedDB: read again (the stash is gone), it is still there.
    expect(localStorage.length).toBe(0);
    expect((await readDeviceDraft('u3', 'a1'))?.content).toBe('older words and the last ones');
  });

  it('yields to a newer IndexedDB copy, and goes with the submitted draft', async () => {
    stashOnUnload('u4', 'a1', { ...copy('stale', false), savedAt: 1000 });
    await writeDeviceDraft('u4', 'a1', { ...copy('newer', false), savedAt: 2000 });
    expect((await readDeviceDraft('u4', 'a1'))?.content).toBe('newer');
    stashOnUnload('u4', 'a1', { ...copy('submitted text', false), savedAt: 3000 });
    await dropSubmittedDraft('u4', 'a1');
    expect(await readDeviceDraft('u4', 'a1')).toBeUndefined();
  });
});
