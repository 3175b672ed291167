/**
 * Posts and comments are plain text (DESIGN §19): the client finds the http(s) addresses in it and
 * links them, and everything else stays text. Nothing here produces HTML, so a `<script>` typed
 * into a post is shown as those characters, and a `javascript:` address is never a link.
 */

export type TextPart = { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string };

// A run of non-space characters starting with http:// or https://; punctuation that ends a
// sentence is trimmed off below. The scheme must start a word, so "xhttp://" is not taken.
const URL_CANDIDATE = /\bhttps?:\/\/[^\s<>"]+/gi;
/** Characters that end a sentence rather than an address when they close it. */
const TRAILING = /[.,;:!?'"*_]+$/;

/** Drops a closing bracket the address did not open: "(see https://x.org/a)" keeps its ")" as text. */
function trimUnbalanced(url: string): string {
  const pairs: Record<string, string> = { ')': '(', ']': '[', '}': '{' };
  let end = url.length;
  for (;;) {
    const candidate = url.slice(0, end).replace(TRAILING, '');
    const last = candidate.at(-1);
    const opener = last ? pairs[last] : undefined;
    if (!opener) return candidate;
    const opened = candidate.split(opener).length - 1;
    const closed = candidate.split(last!).length - 1;
    if (closed <= opened) return candidate;
    end = candidate.length - 1;
  }
}

/** Whether the browser reads `href` as an http(s) address (the final guard against any other scheme). */
function isWebAddress(href: string): boolean {
  try {
    const { protocol } = new URL(href);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/** Splits plain text into text and http(s) links, in order; joined, the parts are the text. An address never spans a line break. */
export function linkify(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let at = 0;
  for (const match of text.matchAll(URL_CANDIDATE)) {
    const url = trimUnbalanced(match[0]);
    // "https://" alone, or an address the URL parser refuses, stays text.
    if (!isWebAddress(url) || /^https?:\/\/$/i.test(url)) continue;
    if (match.index > at) parts.push({ kind: 'text', text: text.slice(at, match.index) });
    parts.push({ kind: 'link', text: url, href: url });
    at = match.index + url.length;
  }
  if (at < text.length) parts.push({ kind: 'text', text: text.slice(at) });
  return parts;
}
