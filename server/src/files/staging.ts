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
 * (fdatasync) in the background, while the rest arrives: the flush a finished upload needs before
 * it is stored (storage.ts `adopt`) then finds little left to write.
 */
export const FLUSH_EVERY_BYTES = 2 * 1024 * 1024;

/** Flushes a file's bytes to the disk (fdatasync) through a handle of its own. */
async function datasync(file: string): Promise<void> {
  const handle = await open(file, 'r');
  try {
    await handle.datasync();
  } finally {
    await handle.close();
  }
}

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
  /** Each upload's background flush: the one running (one at a time), and whether one failed. */
  private readonly flushes = new Map<string, { running?: Promise<void>; failed: boolean }>();

  constructor(private readonly stagingDir: string) {
    super({ directory: stagingDir });
  }

  /**
   * Starts flushing an upload's staged bytes to the disk (fdatasync, through a handle of its own so
   * neither the PATCH's writes nor its answer wait for it), unless a flush of it is running; whether
   * it started. A slow flush gathers more for the next.
   */
  private flushLater(id: string): boolean {
    const state = this.flushes.get(id) ?? { failed: false };
    if (state.running) return false;
    this.flushes.set(id, state);
    state.running = datasync(path.join(this.stagingDir, id))
      .catch(() => void (state.failed = true))
      .finally(() => {
        state.running = undefined;
        if (!state.failed) this.flushes.delete(id);
      });
    return true;
  }

  /**
   * Resolves once no background flush of the upload runs; throws if one failed: the disk refused
   * bytes already written, which the upload cannot be stored without (whoever fsyncs the file next
   * might not hear of it).
   */
  async flushed(id: string): Promise<void> {
    const state = this.flushes.get(id);
    await state?.running;
    if (state?.failed) throw ERRORS.FILE_WRITE_ERROR;
  }

  override async remove(id: string): Promise<void> {
    this.flushes.delete(id);
    await super.remove(id);
  }

  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    if (!UUID.test(id)) throw ERRORS.FILE_NOT_FOUND;
    let at = offset;
    let handle: FileHandle | undefined;
    try {
      // A flush of the bytes before this PATCH failed: they may not be there to resume from.
      if (this.flushes.get(id)?.failed) throw ERRORS.FILE_WRITE_ERROR;
      const file = (handle = await open(path.join(this.stagingDir, id), 'r+'));
      let unflushed = 0;
      const put = async (chunks: Buffer[]) => {
        const written = await writeAll(file, chunks, at);
        at += written;
        unflushed += written;
        for (const chunk of chunks) if (isReleasable(chunk)) release(chunk);
        if (unflushed >= FLUSH_EVERY_BYTES && this.flushLater(id)) unflushed = 0;
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
    } catch {
      // As tus's own store: the bytes written so far stay (the upload resumes from them).
      throw ERRORS.FILE_WRITE_ERROR;
    } finally {
      await handle?.close();
    }
    return at;
  }
}
