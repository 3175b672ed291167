// Attachments for S10: files of any size made up on the fly (never held whole in memory or on
// disk), and a tus 1.0 client over node:http that sends them as the app's client does.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export const MB = 1024 * 1024;

// One megabyte of random bytes, repeated: incompressible enough, free to produce. No 0xFF in it,
// so a photo's scan data holds no marker and the server's EXIF walk stops at the scan.
const BLOCK = randomBytes(MB).map((b) => (b === 0xff ? 0xfe : b));

/** A JPEG's segment: marker, big-endian length (itself included), body. */
function segment(marker, body) {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([head, body]);
}

/**
 * What a phone photo begins with, short of its EXIF: SOI, a JFIF APP0, a quantisation table, a
 * baseline frame of 4032 × 3024 in three components, and the start of the scan. The server sniffs
 * it as image/jpeg (`file-type` reads the first bytes), finds no EXIF to cut, and keeps every byte.
 */
const JPEG_HEAD = Buffer.concat([
  Buffer.from([0xff, 0xd8]),
  segment(0xe0, Buffer.from('JFIF\0\x01\x01\0\0\x48\0\x48\0\0', 'latin1')),
  segment(0xdb, Buffer.concat([Buffer.from([0]), Buffer.alloc(64, 1)])),
  segment(0xc0, Buffer.from([8, 0x0b, 0xd0, 0x0f, 0xc0, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1])),
  segment(0xda, Buffer.from([3, 1, 0, 2, 0x11, 3, 0x11, 0, 0x3f, 0])),
]);
const JPEG_TAIL = Buffer.from([0xff, 0xd9]);

/**
 * Bytes `start` to `end` (exclusive) of a generated file of `size` bytes, as a series of buffers
 * (views of the shared block: nothing is copied). `jpeg`: it begins and ends as a JPEG.
 */
export function* fileBytes(size, { jpeg = false, start = 0, end = size } = {}) {
  const head = jpeg ? JPEG_HEAD : Buffer.alloc(0);
  const tail = jpeg ? JPEG_TAIL : Buffer.alloc(0);
  const bodyEnd = size - tail.length;
  let at = start;
  while (at < end) {
    if (at < head.length) {
      const to = Math.min(end, head.length);
      yield head.subarray(at, to);
      at = to;
    } else if (at >= bodyEnd) {
      yield tail.subarray(at - bodyEnd, end - bodyEnd);
      at = end;
    } else {
      const from = at % BLOCK.length;
      const to = from + Math.min(BLOCK.length - from, Math.min(end, bodyEnd) - at);
      yield BLOCK.subarray(from, to);
      at += to - from;
    }
  }
}

/** Upload-Metadata: each key with its value in base64, comma separated (tus 1.0). */
const tusMetadata = (meta) =>
  Object.entries(meta)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
    .join(',');

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

/** One request, its body streamed from `body` (an iterable of buffers); resolves { status, headers, text }. */
function send(url, { method, headers, body }) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode, headers: res.headers, text: Buffer.concat(chunks).toString() }),
      );
      res.on('error', reject);
    });
    req.setTimeout(600_000, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    if (body) pipeline(Readable.from(body), req).catch(reject);
    else req.end();
  });
}

/**
 * Uploads a generated file with tus 1.0, as tus-js-client does: POST with Upload-Length and the
 * metadata, then PATCHes of `chunkSize` bytes (Infinity, tus-js-client's default and the app's
 * client: the whole file in one streamed PATCH). The last PATCH is answered once the server has
 * stored the file (onUploadFinish), so the time to its answer is the time until the file is ready.
 * Resolves { id, ms, status, error? }; never rejects.
 */
export async function tusUpload({ origin, token, meta, size, jpeg = false, chunkSize = Infinity }) {
  const t0 = performance.now();
  const common = { 'tus-resumable': '1.0.0', authorization: `Bearer ${token}` };
  try {
    const created = await send(`${origin}/api/uploads`, {
      method: 'POST',
      headers: { ...common, 'upload-length': String(size), 'upload-metadata': tusMetadata(meta) },
    });
    if (created.status !== 201)
      return { status: created.status, error: `create: ${created.text.slice(0, 200)}`, ms: null };
    const location = new URL(created.headers.location, origin).toString();
    let offset = 0;
    let last = created;
    while (offset < size) {
      const end = Math.min(size, offset + chunkSize);
      last = await send(location, {
        method: 'PATCH',
        headers: {
          ...common,
          'upload-offset': String(offset),
          'content-type': 'application/offset+octet-stream',
          'content-length': String(end - offset),
        },
        body: fileBytes(size, { jpeg, start: offset, end }),
      });
      if (last.status !== 204)
        return { status: last.status, error: `patch at ${offset}: ${last.text.slice(0, 200)}`, ms: null };
      offset = Number(last.headers['upload-offset']);
    }
    return { id: location.split('/').pop(), status: last.status, ms: performance.now() - t0 };
  } catch (error) {
    return { status: 0, error: String(error), ms: null };
  }
}

/** A generated file in one plain PUT (the bare node:http reference); resolves { status, ms }. */
export async function putFile({ url, size }) {
  const t0 = performance.now();
  const res = await send(url, {
    method: 'PUT',
    headers: { 'content-length': String(size), 'content-type': 'application/octet-stream' },
    body: fileBytes(size),
  });
  return { status: res.status, ms: performance.now() - t0, error: res.status === 204 ? undefined : res.text };
}

/** Uploads all at once; each result's `ms` counts from the common start. */
export const tusUploads = ({ origin, uploads }) =>
  Promise.all(uploads.map((spec) => tusUpload({ origin, ...spec })));
