import { ErrorCode } from '@classwave/shared';
import { AppError } from '../http/errors.js';
import { contentDisposition } from './names.js';
import type { ByteRange } from './storage.js';

/** Types a browser may show inline, in the app's sandboxed viewer (DESIGN §18). */
const INLINE_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'application/pdf']);
/** Types a browser would run or render as a page: only ever served as bytes to save. */
const ACTIVE_TYPES = new Set([
  'text/html',
  'image/svg+xml',
  'application/xml',
  'text/xml',
  'application/xhtml+xml',
  'application/javascript',
  'text/javascript',
]);

/** The type a file is served with: its sniffed type, but markup never as itself. */
export function servedType(mime: string): string {
  if (ACTIVE_TYPES.has(mime)) return 'application/octet-stream';
  if (mime === 'text/plain') return 'text/plain; charset=utf-8';
  return mime;
}

/**
 * Every file response's headers (DESIGN §18): no sniffing, a sandbox policy, and attachment unless
 * an image or PDF was asked for inline; inline answers may be framed by the app's own viewer.
 */
export function fileHeaders(file: { name: string; mime: string }, inline: boolean): Record<string, string> {
  const showInline = inline && INLINE_TYPES.has(file.mime);
  return {
    'content-type': servedType(file.mime),
    'content-disposition': contentDisposition(showInline ? 'inline' : 'attachment', file.name),
    'x-content-type-options': 'nosniff',
    'content-security-policy': `sandbox; default-src 'none'; img-src 'self'; media-src 'self'; frame-ancestors ${showInline ? "'self'" : "'none'"}`,
    'x-frame-options': showInline ? 'SAMEORIGIN' : 'DENY',
    'cache-control': 'private, no-cache',
    'accept-ranges': 'bytes',
  };
}

/**
 * One `bytes=` range of a file of `size` bytes (RFC 9110 §14): undefined for the whole file (no
 * header, a header this does not read, or several ranges, which may be answered whole); 416 when
 * it cannot be satisfied.
 */
export function rangeOf(header: string | undefined, size: number): ByteRange | undefined {
  if (!header) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return undefined;
  const [, from, to] = match;
  if (from === '' && to === '') return undefined;
  let start: number;
  let end: number;
  if (from === '') {
    const suffix = Number(to);
    if (suffix === 0) throw unsatisfiable(size);
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(from);
    end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
    if (to !== '' && Number(to) < start) return undefined;
  }
  if (start >= size) throw unsatisfiable(size);
  return { start, end };
}

const unsatisfiable = (size: number) =>
  new AppError(
    416,
    ErrorCode.rangeNotSatisfiable,
    `The range asked for is outside the file's ${size} bytes.`,
    { 'content-range': `bytes */${size}` },
  );
