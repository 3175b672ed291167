import { describe, expect, it } from 'vitest';
import { formatJoinCode, JOIN_CODE_ALPHABET, joinPath, normalizeJoinCode } from './classes.js';

describe('join codes', () => {
  it('leave out the characters people confuse', () => {
    for (const ch of '01OIL') expect(JOIN_CODE_ALPHABET).not.toContain(ch);
    expect(new Set(JOIN_CODE_ALPHABET).size).toBe(JOIN_CODE_ALPHABET.length);
  });

  it('are shown as two groups of four', () => {
    expect(formatJoinCode('ABCDEFGH')).toBe('ABCD-EFGH');
    expect(joinPath('ABCDEFGH')).toBe('/join/ABCD-EFGH');
  });

  it('are accepted in any case, with or without the dash or spaces', () => {
    for (const typed of ['ABCD-EFGH', 'abcd-efgh', 'abcdefgh', ' AbCd EfGh ', 'ABCD - EFGH']) {
      expect(normalizeJoinCode(typed)).toBe('ABCDEFGH');
    }
  });

  it('refuse what cannot be a code', () => {
    for (const typed of ['', 'ABCD-EFG', 'ABCD-EFGHJ', 'ABCD-EFG0', 'ABCD-EFGI', 'ABCD_EFGH', 'ÀBCD-EFGH']) {
      expect(normalizeJoinCode(typed)).toBeNull();
    }
  });
});
