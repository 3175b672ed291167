import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { PassThrough, type Readable } from 'node:stream';
import { fileTypeFromFile } from 'file-type';

/**
 * What a finished upload's bytes are (DESIGN §18): sniffed from its content, never from its name
 * or the type the client sent. Formats with a signature come from `file-type`; what has none is
 * text only when it is valid UTF-8 with no NUL (markup is named as such, to be served as bytes
 * only), anything else application/octet-stream.
 */
export async function sniffType(file: string): Promise<string> {
  const found = await fileTypeFromFile(file);
  if (found) return found.mime;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let head = '';
  try {
    for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
      if (chunk.includes(0)) return 'application/octet-stream';
      const text = decoder.decode(chunk, { stream: true });
      if (head.length < 1024) head += text.slice(0, 1024);
    }
    decoder.decode();
  } catch {
    return 'application/octet-stream';
  }
  return markupType(head) ?? 'text/plain';
}

/** HTML, SVG or XML by how the text begins: kept as their type, never served as it. */
function markupType(head: string): string | undefined {
  const start = head
    .replace(/^\uFEFF/, '')
    .trimStart()
    .slice(0, 512)
    .toLowerCase();
  if (!start.startsWith('<')) return undefined;
  if (/<svg[\s>]/.test(start)) return 'image/svg+xml';
  if (/^<(!doctype html|html|head|body|script|iframe|meta|!--)/.test(start)) return 'text/html';
  if (start.startsWith('<?xml')) return 'application/xml';
  return 'text/html';
}

/** APP1 segments that hold XMP (a main packet, or an extension of one) rather than EXIF. */
const XMP_PREFIXES = ['http://ns.adobe.com/xap/1.0/\0', 'http://ns.adobe.com/xmp/extension/\0'].map((p) =>
  Buffer.from(p, 'latin1'),
);
const PHOTOSHOP_PREFIX = Buffer.from('Photoshop 3.0\0', 'latin1');

/**
 * The byte ranges of a JPEG's metadata that can say where a photo was taken, found by walking the
 * segments before the image data: EXIF (APP1 `Exif\0\0`, the GPS directory), XMP (APP1 with
 * Adobe's namespace: phones and editors copy the position there too, `exif:GPSLatitude`) and IPTC
 * (APP13 `Photoshop 3.0`: city, place names). Removing whole segments changes no other byte (never
 * re-encoded, DESIGN §18); an EXIF range names the photo's Orientation, which is kept.
 */
export async function metadataSegments(
  file: string,
): Promise<{ start: number; end: number; orientation?: number }[]> {
  const handle = await open(file, 'r');
  try {
    const size = (await handle.stat()).size;
    const read = async (at: number, length: number) => {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, at);
      return buffer.subarray(0, bytesRead);
    };
    const soi = await read(0, 2);
    if (soi[0] !== 0xff || soi[1] !== 0xd8) return [];
    const found: { start: number; end: number; orientation?: number }[] = [];
    let at = 2;
    while (at + 4 <= size) {
      const header = await read(at, 4 + 35);
      if (header[0] !== 0xff) break;
      const marker = header[1]!;
      if (marker === 0xff) {
        at += 1; // fill byte
        continue;
      }
      // Start of scan (image data follows) or end of image: no more metadata segments.
      if (marker === 0xda || marker === 0xd9) break;
      if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
        at += 2;
        continue;
      }
      const length = header.readUInt16BE(2);
      if (length < 2) break;
      const end = at + 2 + length;
      const body = header.subarray(4, Math.min(header.length, 2 + length));
      const begins = (prefix: Buffer) => body.subarray(0, prefix.length).equals(prefix);
      if (marker === 0xe1 && begins(Buffer.from('Exif\0\0', 'latin1'))) {
        const orientation = orientationOf(await read(at + 10, length - 8));
        found.push({ start: at, end: Math.min(end, size), ...(orientation ? { orientation } : {}) });
      } else if (
        (marker === 0xe1 && XMP_PREFIXES.some(begins)) ||
        (marker === 0xed && begins(PHOTOSHOP_PREFIX))
      ) {
        found.push({ start: at, end: Math.min(end, size) });
      }
      at = end;
    }
    return found;
  } finally {
    await handle.close();
  }
}

/**
 * The Orientation (tag 0x0112) of an EXIF block's first directory, if it names one of the eight
 * (1 to 8); undefined for anything else, a short or malformed block included.
 */
export function orientationOf(tiff: Buffer): number | undefined {
  if (tiff.length < 8) return undefined;
  const little = tiff.toString('latin1', 0, 2) === 'II';
  if (!little && tiff.toString('latin1', 0, 2) !== 'MM') return undefined;
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  if (u16(2) !== 42) return undefined;
  const directory = u32(4);
  if (directory + 2 > tiff.length) return undefined;
  const entries = u16(directory);
  for (let i = 0; i < entries; i++) {
    const entry = directory + 2 + i * 12;
    if (entry + 12 > tiff.length) return undefined;
    // A SHORT (type 3) holding one value, stored in the entry itself.
    if (u16(entry) === 0x0112 && u16(entry + 2) === 3) {
      const value = u16(entry + 8);
      return value >= 1 && value <= 8 ? value : undefined;
    }
  }
  return undefined;
}

/**
 * An EXIF segment holding the Orientation alone: what a photo keeps of its EXIF, so a phone's
 * upright picture is not shown on its side (the pixels stay as taken, DESIGN §18).
 */
export function orientationSegment(orientation: number): Buffer {
  const body = Buffer.alloc(6 + 8 + 2 + 12 + 4);
  body.write('Exif\0\0', 0, 'latin1');
  body.write('MM', 6, 'latin1');
  body.writeUInt16BE(42, 8);
  body.writeUInt32BE(8, 10); // the first directory right after the header
  body.writeUInt16BE(1, 14); // one entry
  body.writeUInt16BE(0x0112, 16);
  body.writeUInt16BE(3, 18); // SHORT
  body.writeUInt32BE(1, 20);
  body.writeUInt16BE(orientation, 24);
  // Next directory: none (the last four bytes, zero).
  const head = Buffer.from([0xff, 0xe1, 0, 0]);
  head.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([head, body]);
}

/**
 * The file's bytes less the `cut` ranges (sorted, not overlapping), as one stream; `insert`, if
 * given, stands where the first cut was.
 */
export function withoutRanges(
  file: string,
  size: number,
  cut: { start: number; end: number }[],
  insert?: Buffer,
): Readable {
  if (cut.length === 0) return createReadStream(file);
  const out = new PassThrough();
  const keep: { start: number; end: number }[] = [];
  let from = 0;
  for (const range of cut) {
    if (range.start > from) keep.push({ start: from, end: range.start });
    from = range.end;
  }
  if (from < size) keep.push({ start: from, end: size });
  void (async () => {
    try {
      let inserted = insert === undefined;
      for (const part of keep) {
        if (!inserted && part.start >= cut[0]!.end) {
          out.write(insert);
          inserted = true;
        }
        for await (const chunk of createReadStream(file, { start: part.start, end: part.end - 1 }))
          if (!out.write(chunk)) await new Promise((resolve) => out.once('drain', resolve));
      }
      if (!inserted) out.write(insert);
      out.end();
    } catch (error) {
      out.destroy(error as Error);
    }
  })();
  return out;
}
