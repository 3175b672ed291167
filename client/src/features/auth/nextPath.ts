/** The query parameter that carries where to go after signing in. */
export const NEXT_PARAM = 'next';

/** Pages that are no destination after signing in (they would send the user straight on anyway). */
const NOT_A_DESTINATION = ['/', '/login', '/signup', '/dashboard'];

/**
 * `raw` as a path inside this app (path, query and hash), or null when it is not one. Only a single
 * leading slash is accepted: `//evil.example`, `/\evil.example`, `https://…` and `javascript:` would
 * leave the app (an open redirect), so they are refused rather than repaired.
 */
export function safeNextPath(raw: string | null | undefined): string | null {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return null;
  // Control characters (a tab or newline is dropped by URL parsers) could turn the path into a host.
  if ([...raw].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f)) return null;
  let url: URL;
  try {
    url = new URL(raw, window.location.origin);
  } catch {
    return null;
  }
  if (url.origin !== window.location.origin) return null;
  if (NOT_A_DESTINATION.includes(url.pathname)) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** `path` with `?next=` added when there is somewhere to return to. */
export function withNext(path: string, next: string | null): string {
  return next ? `${path}?${new URLSearchParams({ [NEXT_PARAM]: next }).toString()}` : path;
}

/** Where to go once signed in: the page the visitor asked for, else the dashboard. */
export const destinationAfterSignIn = (next: string | null) => next ?? '/dashboard';
