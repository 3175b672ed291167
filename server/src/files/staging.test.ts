import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { requestBody } from './body.js';
import { FLUSH_EVERY_BYTES, StagingStore, writeAll } from './staging.js';
import type { FileHandle } from 'node:fs/promises';

const root = mkdtempSync(path.join(tmpdir(), 'classwave-staging-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/**
 * tus's staging store writing a PATCH's chunks (uploads.ts): at the upload's offset, every byte, and
 * a chunk that is the request's own freed once written, anything else left to its owner.
 */
describe('StagingStore.write', () => {
  const store = new StagingStore(root);
  /** An empty staged upload, as tus creates it. */
  const staged = (bytes = Buffer.alloc(0)) => {
    const id = randomUUID();
    writeFileSync(path.join(root, id), bytes);
    return id;
  };
  /** The chunks as tus hands them to the store: through requestBody, as a request's body would be. */
  const asTusReads = (chunks: Buffer[], fromConnection: boolean) => {
    const request = Object.assign(Readable.from(chunks), fromConnection ? { socket: new Socket() } : {});
    return Readable.fromWeb(requestBody(request) as never);
  };

  it("writes a real connection's chunks and frees each one's memory once written", async () => {
    const chunks = [randomBytes(64 * 1024), randomBytes(64 * 1024), randomBytes(1000)];
    const expected = Buffer.concat(chunks);
    const id = staged();
    const offset = await store.write(asTusReads(chunks, true), id, 0);
    expect(offset).toBe(expected.length);
    expect(readFileSync(path.join(root, id)).equals(expected)).toBe(true);
    for (const chunk of chunks) {
      expect(chunk.buffer.byteLength).toBe(0); // detached: its backing store released
      expect(chunk.length).toBe(0);
    }
  });

  it("leaves chunks it does not own as they were: an injected request's, a slice of a bigger buffer", async () => {
    const whole = randomBytes(4096);
    const injected = [Buffer.from(whole)];
    const id = staged();
    await store.write(asTusReads(injected, false), id, 0);
    expect(injected[0]!.equals(whole)).toBe(true);

    const big = randomBytes(8192);
    const slices = [big.subarray(0, 4096), big.subarray(4096)];
    const other = staged();
    await store.write(asTusReads(slices, true), other, 0);
    expect(big.buffer.byteLength).toBeGreaterThanOrEqual(8192);
    expect(Buffer.concat(slices).equals(big)).toBe(true);
    expect(readFileSync(path.join(root, other)).equals(big)).toBe(true);
  });

  it('writes every byte of a PATCH longer than a flush, the flushes running while the rest arrives', async () => {
    // Three flushes' worth and a bit: the background fdatasync runs between writes of the same file.
    const chunks = Array.from({ length: (3 * FLUSH_EVERY_BYTES) / (64 * 1024) + 3 }, () =>
      randomBytes(64 * 1024),
    );
    const expected = Buffer.concat(chunks);
    const id = staged(Buffer.from('head'));
    const offset = await store.write(asTusReads(chunks, true), id, 4);
    expect(offset).toBe(4 + expected.length);
    const file = readFileSync(path.join(root, id));
    expect(file.subarray(0, 4).toString()).toBe('head');
    expect(file.subarray(4).equals(expected)).toBe(true);
  });

  it('writes at the offset a resumed upload reports, after the bytes already there', async () => {
    const first = Buffer.from('the first part, ');
    const rest = [Buffer.from('then the rest')];
    const id = staged(first);
    const offset = await store.write(asTusReads(rest, true), id, first.length);
    expect(offset).toBe(first.length + 'then the rest'.length);
    expect(readFileSync(path.join(root, id), 'utf8')).toBe('the first part, then the rest');
  });

  it('refuses an id that is not an upload of ours', async () => {
    await expect(store.write(Readable.from([Buffer.from('x')]), '../escape', 0)).rejects.toMatchObject({
      status_code: 404,
    });
  });
});

describe('writeAll', () => {
  it('finishes a short write from where the system stopped, at the right place in the file', async () => {
    // A handle whose every writev stores at most 5 bytes, as a disk may answer under pressure.
    const file = Buffer.alloc(40, '.');
    const handle = {
      async writev(buffers: Buffer[], position: number) {
        const bytes = Buffer.concat(buffers).subarray(0, 5);
        bytes.copy(file, position);
        return { bytesWritten: bytes.length, buffers };
      },
    } as unknown as FileHandle;
    const chunks = [Buffer.from('abcdefg'), Buffer.from('hi'), Buffer.from('jklmnopqrs')];
    expect(await writeAll(handle, chunks, 3)).toBe(19);
    expect(file.toString()).toBe('...abcdefghijklmnopqrs' + '.'.repeat(18));
    expect(chunks.map(String)).toEqual(['abcdefg', 'hi', 'jklmnopqrs']); // the caller's list untouched
  });
});
