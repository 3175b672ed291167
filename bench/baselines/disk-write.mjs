// S10's floor: the bytes an upload sends (the same generated file), written to a file on the disk
// the app writes to, through a plain fs write stream; then fsync. Prints { writeMs, fsyncMs }.
// `node disk-write.mjs <file> <bytes> [jpeg]`, started pinned to the app's core.
import { createWriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileBytes } from '../lib/uploads.mjs';

const [file, bytes, kind] = process.argv.slice(2);
const size = Number(bytes);
const t0 = performance.now();
await pipeline(Readable.from(fileBytes(size, { jpeg: kind === 'jpeg' })), createWriteStream(file));
const t1 = performance.now();
const handle = await open(file, 'r+');
await handle.sync();
await handle.close();
const t2 = performance.now();
process.stdout.write(`${JSON.stringify({ writeMs: t1 - t0, fsyncMs: t2 - t1 })}\n`);
