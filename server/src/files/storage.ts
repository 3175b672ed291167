import { createReadStream, createWriteStream } from 'node:fs';
import { link, mkdir, open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { StorageConfig } from '../config.js';

/** Bytes `start` to `end` of a file, both included (as in a Range header). */
export interface ByteRange {
  start: number;
  end: number;
}

/** How a presigned download should be answered by the object store. */
export interface PresignOptions {
  contentType: string;
  contentDisposition: string;
}

/**
 * Where finished attachments live (DESIGN §18), written once for both kinds: a folder under
 * DATA_DIR, or an S3-compatible bucket. Uploads in progress are not here: tus writes them to the
 * staging folder (uploads.ts), and a finished one is put here whole under its key.
 */
export interface FileStorage {
  kind: StorageConfig['kind'];
  /** Stores `size` bytes read from `body` under `key`, replacing what was there. */
  put(key: string, body: Readable, size: number): Promise<void>;
  /**
   * Stores the whole file at `source` under `key`, replacing what was there, without reading it
   * when the storage can (the disk: a hard link, `source` untouched and still the caller's to
   * remove). Absent where it cannot: the caller puts the bytes instead.
   */
  // Both resolve once the file is durable: on the disk, its bytes and its name flushed (fsync), so
  // a file whose receipt a student saw survives a power cut.
  adopt?(key: string, source: string): Promise<void>;
  /** The file's bytes, or the range of them. */
  open(key: string, range?: ByteRange): Promise<Readable>;
  /** Removes the bytes; nothing to remove is not an error. */
  remove(key: string): Promise<void>;
  /** A short-lived URL the client downloads from directly; undefined for the disk. */
  presign?(key: string, options: PresignOptions): Promise<string>;
  close(): void;
}

/** How long a presigned download link works. */
export const PRESIGN_SECONDS = 300;

export function createStorage(config: StorageConfig): FileStorage {
  return config.kind === 'disk' ? diskStorage(config.directory) : s3Storage(config);
}

/** Keys are our uuids; anything else never reaches the file system. */
function safeKey(key: string): string {
  if (!/^[0-9a-f-]{36}$/.test(key)) throw new Error(`not a storage key: ${key}`);
  return key;
}

/** Flushes a file's bytes (or a folder's names) to the disk: fsync through a handle of its own. */
async function flush(file: string): Promise<void> {
  const handle = await open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function diskStorage(directory: string): FileStorage {
  const file = (key: string) => path.join(directory, safeKey(key));
  return {
    kind: 'disk',
    async put(key, body) {
      await mkdir(directory, { recursive: true });
      // Written beside and renamed: a reader never sees half a file, and a crash leaves only a .tmp.
      const temp = `${file(key)}.tmp`;
      await pipeline(body, createWriteStream(temp, { flush: true }));
      await rename(temp, file(key));
      await flush(directory);
    },
    async adopt(key, source) {
      await mkdir(directory, { recursive: true });
      const temp = `${file(key)}.tmp`;
      await rm(temp, { force: true });
      // The staging folder is beside this one (both under DATA_DIR), so a link is the usual case; on
      // another file system (EXDEV) or one without links, the bytes are copied as put would.
      await link(source, temp).catch(() =>
        pipeline(createReadStream(source), createWriteStream(temp, { flush: true })),
      );
      // Linked, the staged file's own pages: most were flushed while it arrived (staging.ts), the
      // rest are now, before the name that makes it the stored file.
      await flush(temp);
      await rename(temp, file(key));
      await flush(directory);
    },
    async open(key, range) {
      await stat(file(key));
      return createReadStream(file(key), range ? { start: range.start, end: range.end } : {});
    },
    async remove(key) {
      await rm(file(key), { force: true });
      await rm(`${file(key)}.tmp`, { force: true });
    },
    close() {},
  };
}

function s3Storage(config: Extract<StorageConfig, { kind: 's3' }>): FileStorage {
  const client = new S3Client({
    region: config.region,
    endpoint: config.endpoint,
    // Any S3-compatible store (MinIO, s3rver, Ceph) addresses buckets by path.
    forcePathStyle: config.endpoint !== undefined,
    credentials: config.credentials,
    // Checksums only where S3 requires them: a streamed body otherwise goes aws-chunked with a
    // trailing checksum, which not every S3-compatible store reads (s3rver stored the framing).
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = config.bucket;
  return {
    kind: 's3',
    async put(key, body, size) {
      await client.send(new PutObjectCommand({ Bucket, Key: safeKey(key), Body: body, ContentLength: size }));
    },
    async open(key, range) {
      const answer = await client.send(
        new GetObjectCommand({
          Bucket,
          Key: safeKey(key),
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      return answer.Body as Readable;
    },
    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: safeKey(key) }));
    },
    presign(key, options) {
      return getSignedUrl(
        client,
        new GetObjectCommand({
          Bucket,
          Key: safeKey(key),
          ResponseContentType: options.contentType,
          ResponseContentDisposition: options.contentDisposition,
        }),
        { expiresIn: PRESIGN_SECONDS },
      );
    },
    close() {
      client.destroy();
    },
  };
}
