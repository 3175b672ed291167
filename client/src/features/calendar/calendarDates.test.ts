import { describe, expect, it } from 'vitest';
import { dayKey, itemsByDay, monthGridDays, monthRange, moveFocus } from './calendarDates';

const local = (y: number, m: number, d: number, h = 12) => new Date(y, m - 1, d, h);

describe('calendarDates', () => {
  it('shows whole weeks, Sunday to Saturday, around the month', () => {
    // November 2026 starts on a Sunday and ends on a Monday.
    const days = monthGridDays(local(2026, 11, 15));
    expect(dayKey(days[0]!)).toBe('2026-11-01');
    expect(dayKey(days.at(-1)!)).toBe('2026-12-05');
    expect(days).toHaveLength(35);
    expect(days.every((d, i) => d.getDay() === i % 7)).toBe(true);
  });

  it("fetches from the grid's first midnight through two weeks past the month (the agenda's reach)", () => {
    // February 2026 fills exactly four weeks, Sunday the 1st to Saturday the 28th; its agenda runs to March 14.
    const { from, to } = monthRange(local(2026, 2, 1));
    expect(new Date(from)).toEqual(new Date(2026, 1, 1, 0, 0));
    expect(new Date(to)).toEqual(new Date(2026, 2, 15, 0, 0));
  });

  it.each([
    ['ArrowLeft', '2026-11-17'],
    ['ArrowRight', '2026-11-19'],
    ['ArrowUp', '2026-11-11'],
    ['ArrowDown', '2026-11-25'],
    ['Home', '2026-11-15'],
    ['End', '2026-11-21'],
    ['PageUp', '2026-10-18'],
    ['PageDown', '2026-12-18'],
  ])('moves the focus with %s', (key, expected) => {
    expect(dayKey(moveFocus(local(2026, 11, 18), key)!)).toBe(expected);
  });

  it('leaves other keys to the browser', () => {
    expect(moveFocus(local(2026, 11, 18), 'Enter')).toBeNull();
  });

  it('groups items by local day in due order', () => {
    const item = (title: string, due: Date) =>
      ({ title, dueDate: due.toISOString() }) as Parameters<typeof itemsByDay>[0][number];
    const byDay = itemsByDay([
      item('late', local(2026, 11, 18, 23)),
      item('early', local(2026, 11, 18, 8)),
      item('next', local(2026, 11, 19, 0)),
    ]);
    expect([...byDay.keys()]).toEqual(['2026-11-18', '2026-11-19']);
    expect(byDay.get('2026-11-18')!.map((i) => i.title)).toEqual(['early', 'late']);
  });
});
