import { describe, expect, it } from 'vitest';
import { safeNext } from './next.js';

const origin = 'https://app.school.test';

describe('safeNext', () => {
  it('keeps a path inside the app, with its query and hash', () => {
    expect(safeNext('/join/ABCD-EFGH', origin)).toBe('/join/ABCD-EFGH');
    expect(safeNext('/assignments?open=1#a', origin)).toBe('/assignments?open=1#a');
  });

  it.each([
    ['an absolute URL', 'https://evil.example/'],
    ['a protocol-relative URL', '//evil.example/x'],
    ['a backslash host', '/\\evil.example'],
    ['a scheme', 'javascript:alert(1)'],
    ['a tab inside', '/\t/evil.example'],
    ['a relative path', 'join/x'],
    ['nothing', ''],
    ['too long', `/${'a'.repeat(2000)}`],
  ])('refuses %s', (_what, raw) => {
    expect(safeNext(raw, origin)).toBeUndefined();
  });
});
