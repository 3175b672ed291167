import { describe, expect, it } from 'vitest';
import { retryAfterMs } from './errors';

describe('retryAfterMs', () => {
  it('reads seconds and HTTP dates, and nothing from a missing or unreadable header', () => {
    const now = Date.parse('2026-11-25T10:00:00Z');
    expect(retryAfterMs('3', now)).toBe(3000);
    expect(retryAfterMs('Wed, 25 Nov 2026 10:00:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('Wed, 25 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs(null, now)).toBeUndefined();
    expect(retryAfterMs('soon', now)).toBeUndefined();
  });
});
