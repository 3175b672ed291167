import { describe, expect, it } from 'vitest';
import { linkify } from './linkify';

const links = (text: string) => linkify(text).flatMap((p) => (p.kind === 'link' ? [p.href] : []));

describe('linkify', () => {
  it('links http and https addresses and keeps the text around them, joined back whole', () => {
    const text = 'See https://example.org/a?b=1#c and http://x.test/ now';
    expect(links(text)).toEqual(['https://example.org/a?b=1#c', 'http://x.test/']);
    expect(
      linkify(text)
        .map((p) => p.text)
        .join(''),
    ).toBe(text);
  });

  it('leaves sentence punctuation and an unopened bracket outside the link', () => {
    expect(links('Read https://example.org/cells.')).toEqual(['https://example.org/cells']);
    expect(links('Done? https://example.org/q?, then')).toEqual(['https://example.org/q']);
    expect(links('(see https://example.org/page)')).toEqual(['https://example.org/page']);
    expect(links('https://en.wikipedia.org/wiki/Cell_(biology)')).toEqual([
      'https://en.wikipedia.org/wiki/Cell_(biology)',
    ]);
  });

  it('never links javascript:, data: or a bare scheme', () => {
    expect(links('javascript:alert(1) data:text/html,<b>x</b> https:// ftp://x.test')).toEqual([]);
    expect(links('xhttps://x.test')).toEqual([]);
    // The safe address after it is linked; the javascript: before it stays text.
    expect(linkify('javascript:https://x.test')[0]).toEqual({ kind: 'text', text: 'javascript:' });
  });

  it('keeps HTML as plain text, and an address never swallows a tag or a line break', () => {
    const parts = linkify('<img src=x onerror=alert(1)> https://a.test/<b>\nhttps://b.test');
    expect(parts[0]).toEqual({ kind: 'text', text: '<img src=x onerror=alert(1)> ' });
    expect(links('<a href="https://a.test/x">y</a>')).toEqual(['https://a.test/x']);
    expect(links('https://a.test/<b>\nhttps://b.test')).toEqual(['https://a.test/', 'https://b.test']);
  });
});
