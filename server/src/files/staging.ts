import { open } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { FileStore } from '@tus/file-store';
import { ERRORS } from '@tus/server';
import { isReleasable, release } from './body.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * tus's file store with its own write: each chunk of a PATCH written at its offset through one
 * file handle, and a chunk of the request itself (body.ts marks them) freed as soon as it is
 * written. Why (bench S10, Node 26): every 64 KB the HTTP parser hands on is a new ArrayBuffer
 * outside V8's heap, and with nothing but V8's collector to free them they pile up until its
 * external-memory limit starts a full collection of the whole app's heap, three a 100 MB upload, 45
 * % of the server's CPU for it, and 40–56 MB of RSS held in chunks already on disk. Freed once
 * written, the heap is left alone and the RSS stays flat; a chunk that is not the request's own (an
 * injected test request's body) is written the same and left to its owner.
 */
export class StagingStore extends FileStore {
  constructor(private readonly stagingDir: string) {
    super({ directory: stagingDir });
  }

  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    if (!UUID.test(id)) throw ERRORS.FILE_NOT_FOUND;
    let at = offset;
    let handle;
    try {
      handle = await open(path.join(this.stagingDir, id), 'r+');
      for await (const chunk of readable as AsyncIterable<Buffer>) {
        for (let done = 0; done < chunk.length;) {
          const { bytesWritten } = await handle.write(chunk, done, chunk.length - done, at + done);
          done += bytesWritten;
        }
        at += chunk.length;
        if (isReleasable(chunk)) release(chunk);
      }
    } catch {
      // As tus's own store: the bytes written so far stay (the upload resumes from them).
      throw ERRORS.FILE_WRITE_ERROR;
    } finally {
      await handle?.close();
    }
    return at;
  }
}
