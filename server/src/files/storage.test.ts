import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createStorage } from './storage.js';

const root = mkdtempSync(path.join(tmpdir(), 'classwave-storage-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The disk storage taking a finished upload's staged file whole (uploads.ts, when nothing is cut). */
describe('disk storage: adopt', () => {
  const directory = path.join(root, 'files');
  const storage = createStorage({ kind: 'disk', directory });
  const staged = (bytes: string) => {
    const file = path.join(root, randomUUID());
    writeFileSync(file, bytes);
    return file;
  };

  it('stores the file without copying it, and keeps it when the staged name is removed', async () => {
    const source = staged('the whole upload');
    const key = randomUUID();
    await storage.adopt!(key, source);
    // The same bytes on disk, not a second copy of them: one inode, two names until staging is cleared.
    expect(statSync(path.join(directory, key)).ino).toBe(statSync(source).ino);
    rmSync(source);
    const read = await storage.open(key);
    const chunks: Buffer[] = [];
    for await (const chunk of read) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('the whole upload');
  });

  it('replaces what was stored under the key (finishing again after a crash)', async () => {
    const key = randomUUID();
    await storage.adopt!(key, staged('first'));
    await storage.adopt!(key, staged('second'));
    expect(readFileSync(path.join(directory, key), 'utf8')).toBe('second');
  });

  it('fails when the staged file is gone, storing nothing', async () => {
    const key = randomUUID();
    await expect(storage.adopt!(key, path.join(root, 'missing'))).rejects.toThrow();
    expect(() => statSync(path.join(directory, key))).toThrow();
  });
});
