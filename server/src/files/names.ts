import { FILE_NAME_MAX } from '@classwave/shared';

/**
 * A file's name as kept: the last part of any path (either slash), without control characters
 * (C0, DEL, C1, and the bidirectional overrides that make `evil‮gpj.exe` read as `.jpg`), trimmed,
 * at most FILE_NAME_MAX characters (the extension kept when cut). Empty afterwards: undefined.
 */
export function cleanFileName(raw: string): string | undefined {
  const last = raw.split(/[/\\]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  let name = last.replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '').trim();
  if (name === '.' || name === '..') name = '';
  name = name.replace(/^\.+/, (dots) => (dots.length === name.length ? '' : dots));
  if (name === '') return undefined;
  const chars = Array.from(name);
  if (chars.length <= FILE_NAME_MAX) return name;
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 ? Array.from(name.slice(dot)) : [];
  const keep = ext.length > 0 && ext.length <= 16 ? ext : [];
  return chars.slice(0, FILE_NAME_MAX - keep.length).join('') + keep.join('');
}

/**
 * `Content-Disposition` for a download (RFC 6266): an ASCII fallback `filename` with anything
 * outside printable ASCII, quotes and backslashes replaced, and the exact name as `filename*`
 * (RFC 8187, UTF-8 percent-encoded).
 */
export function contentDisposition(kind: 'attachment' | 'inline', name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%;]/g, '_') || 'file';
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
