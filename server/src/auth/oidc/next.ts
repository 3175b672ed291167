/** The longest `next` carried through a school sign-in (the flow cookie must stay under 4 kB). */
export const NEXT_MAX_LENGTH = 1024;

/**
 * `raw` as a path inside the app (path, query and hash) to land on after a school sign-in, or
 * undefined when it is not one: only a single leading slash is accepted, so `https://…`,
 * `//evil.example`, `/\evil.example` and anything with control characters (which URL parsers drop,
 * turning a path into a host) are refused, never repaired — an open redirect is the risk.
 */
export function safeNext(raw: string | undefined, appOrigin: string): string | undefined {
  if (!raw || raw.length > NEXT_MAX_LENGTH) return undefined;
  if (!raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return undefined;
  if ([...raw].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f)) return undefined;
  let url: URL;
  try {
    url = new URL(raw, appOrigin);
  } catch {
    return undefined;
  }
  if (url.origin !== new URL(appOrigin).origin) return undefined;
  return `${url.pathname}${url.search}${url.hash}`;
}
