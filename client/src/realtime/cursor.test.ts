import { describe, expect, it } from 'vitest';
import { EventCursor } from './cursor';

describe('EventCursor', () => {
  it('accepts each id once and tracks the highest', () => {
    const cursor = new EventCursor();
    expect([5, 6, 5, 7, 6].map((id) => cursor.accept(id))).toEqual([true, true, false, true, false]);
    expect(cursor.lastId).toBe(7);
  });

  it('keeps the highest id when an older event arrives late', () => {
    const cursor = new EventCursor();
    cursor.accept(10);
    expect(cursor.accept(8)).toBe(true);
    expect(cursor.lastId).toBe(10);
  });

  it('moves to a reported head without going backwards', () => {
    const cursor = new EventCursor();
    cursor.moveTo(40);
    expect(cursor.lastId).toBe(40);
    cursor.moveTo(12);
    expect(cursor.lastId).toBe(40);
  });

  it('forgets the oldest ids beyond its memory', () => {
    const cursor = new EventCursor(3);
    [1, 2, 3, 4].forEach((id) => cursor.accept(id));
    expect(cursor.accept(1)).toBe(true);
    expect(cursor.accept(4)).toBe(false);
  });

  it('starts over after a reset', () => {
    const cursor = new EventCursor();
    cursor.accept(3);
    cursor.reset();
    expect(cursor.lastId).toBeNull();
    expect(cursor.accept(3)).toBe(true);
  });
});
