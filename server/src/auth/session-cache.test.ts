import { describe, expect, it } from 'vitest';
import { createSessionCache } from './session-cache.js';

function cache(max = 100) {
  let now = 1_000;
  const sessions = createSessionCache({ ttlMs: 10_000, max, now: () => now });
  return { sessions, advance: (ms: number) => (now += ms) };
}

describe('the live-session cache', () => {
  it('answers for the session and user it was told about, until its time runs out', () => {
    const { sessions, advance } = cache();
    expect(sessions.remember('s1', 'u1', 'student')).toBe(true);
    expect(sessions.get('s1', 'u1')).toBe('student');
    expect(sessions.get('s1', 'someone else')).toBeUndefined();
    advance(9_999);
    expect(sessions.get('s1', 'u1')).toBe('student');
    advance(1);
    expect(sessions.get('s1', 'u1')).toBeUndefined();
  });

  it('forgets an ended session, and refuses a lookup that read it as live before it ended', () => {
    const { sessions, advance } = cache();
    sessions.remember('s1', 'u1', 'teacher');
    sessions.end('s1');
    expect(sessions.get('s1', 'u1')).toBeUndefined();
    // A database read that started before the sign-out comes back afterwards saying "live".
    expect(sessions.remember('s1', 'u1', 'teacher')).toBe(false);
    expect(sessions.get('s1', 'u1')).toBeUndefined();
    advance(10_001);
    expect(sessions.remember('s1', 'u1', 'teacher')).toBe(true);
  });

  it('never holds more than its maximum, dropping the oldest first', () => {
    const { sessions, advance } = cache(3);
    for (const id of ['a', 'b', 'c', 'd']) {
      sessions.remember(id, 'u', 'student');
      advance(1);
    }
    expect(sessions.size).toBe(3);
    expect(sessions.get('a', 'u')).toBeUndefined();
    expect(sessions.get('d', 'u')).toBe('student');
  });
});
