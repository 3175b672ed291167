import { open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { type Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileStore } from '@tus/file-store';
import { ERRORS } from '@tus/server';
import { isReleasable, release } from './body.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Bytes of a PATCH held while the file is written, before the request is read further. */
const WRITE_BATCH_BYTES = 1024 * 1024;
/**
 * Bytes written since the last flush after which the staged file's pages are flushed to the disk
 * (fdatasync) in the background, while the rest of the PATCH arrives: the flush a finished upload
 * needs before it is stored (storage.ts `adopt`) then finds little left to write.
 */
export const FLUSH_EVERY_BYTES = 8 * 1024 * 1024;

/** Writes `chunks` at `position` whole, however the system splits the writes; the bytes written. */
export async function writeAll(handle: FileHandle, chunks: Buffer[], position: number): Promise<number> {
  let buffers = chunks.slice();
  let written = 0;
  while (buffers.length > 0) {
    let { bytesWritten } = await handle.writev(buffers, position + written);
    written += bytesWritten;
    // A short write: what is left of the first buffer not written whole, and those after it.
    while (buffers.length > 0 && bytesWritten >= buffers[0]!.length) bytesWritten -= buffers.shift()!.length;
    if (bytesWritten > 0) buffers = [buffers[0]!.subarray(bytesWritten), ...buffers.slice(1)];
  }
  return written;
}

/**
 * tus's file store with its own write: a PATCH's chunks written at the upload's offset through one
 * file handle, those that arrive during a write gathered into the next (one writev, as an fs write
 * stream does), and a chunk of the request itself (body.ts marks them) freed as soon as it is on
 * disk. Why (bench S10, Node 26): every 64 KB the HTTP parser hands on is a new ArrayBuffer outside
 * V8's heap, and with nothing but V8's collector to free them they piled up until its
 * external-memory limit started a full collection of the whole app's heap: three a 100 MB upload,
 * 45 % of the server's CPU for it, and 40–56 MB of RSS held in chunks already written. Freed once
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
    let handle: FileHandle | undefined;
    /** The background flush in flight, if any (one at a time: a slow one gathers more for the next). */
    let flushing: Promise<void> | undefined;
    let flushFailed = false;
    try {
      const file = (handle = await open(path.join(this.stagingDir, id), 'r+'));
      let unflushed = 0;
      const put = async (chunks: Buffer[]) => {
        const written = await writeAll(file, chunks, at);
        at += written;
        unflushed += written;
        for (const chunk of chunks) if (isReleasable(chunk)) release(chunk);
        if (unflushed >= FLUSH_EVERY_BYTES && !flushing) {
          unflushed = 0;
          flushing = file
            .datasync()
            .catch(() => void (flushFailed = true))
            .finally(() => (flushing = undefined));
        }
      };
      await pipeline(
        readable,
        new Writable({
          highWaterMark: WRITE_BATCH_BYTES,
          write(chunk: Buffer, _encoding, done) {
            put([chunk]).then(() => done(), done);
          },
          writev(entries, done) {
            put(entries.map((e) => e.chunk as Buffer)).then(() => done(), done);
          },
        }),
      );
      await flushing;
      // The disk refused the bytes already written: as a failed write (they may not all be there).
      if (flushFailed) throw ERRORS.FILE_WRITE_ERROR;
    } catch {
      // As tus's own store: the bytes written so far stay (the upload resumes from them).
      throw ERRORS.FILE_WRITE_ERROR;
    } finally {
      await flushing;
      await handle?.close();
    }
    return at;
  }
}
