import { describe, expect, it } from 'vitest';
import { categoriesProblem, courseTotals, type CountedWork } from './categories.js';

const homework = { id: 'hw', name: 'Homework', weight: 30 };
const tests = { id: 'tests', name: 'Tests', weight: 70 };
const work = (
  grade: number | null,
  maxPoints: number,
  categoryId: string | null,
  status = 'graded',
): CountedWork => ({
  grade,
  maxPoints,
  categoryId,
  status,
});

describe('courseTotals', () => {
  it('is points over possible without categories', () => {
    const totals = courseTotals([work(8, 10, null), work(null, 10, null, 'submitted')], [], true);
    expect(totals).toEqual({ points: 8, possible: 10, percent: 80, categories: [] });
  });

  it('weights the categories that have counted work, scaled up between them', () => {
    const some = courseTotals([work(9, 10, 'hw')], [homework, tests], true);
    expect(some.percent).toBe(90);
    const both = courseTotals([work(9, 10, 'hw'), work(50, 100, 'tests')], [homework, tests], true);
    // 0.3 · 90 + 0.7 · 50 = 62
    expect(both.percent).toBe(62);
    expect(both.categories.map((c) => c.percent)).toEqual([90, 50]);
  });

  it('counts missing work as 0 where the course says so, excused work nowhere, uncategorized work in points only', () => {
    const items = [
      work(10, 10, 'hw'),
      work(null, 10, 'hw', 'missing'),
      work(null, 50, 'tests', 'excused'),
      work(40, 40, null),
    ];
    const zero = courseTotals(items, [homework, tests], true);
    expect(zero).toMatchObject({ points: 50, possible: 60, percent: 50 });
    const notZero = courseTotals(items, [homework, tests], false);
    expect(notZero).toMatchObject({ points: 50, possible: 50, percent: 100 });
  });

  it('has no percent when only weightless categories have work', () => {
    const practice = { id: 'p', name: 'Practice', weight: 0 };
    expect(courseTotals([work(1, 10, 'p')], [practice, { ...tests, weight: 100 }], true).percent).toBeNull();
  });
});

describe('categoriesProblem', () => {
  it('accepts an empty list and weights adding up to 100', () => {
    expect(categoriesProblem([])).toBeNull();
    expect(
      categoriesProblem([
        { name: 'A', weight: 100 },
        { name: 'B', weight: 0 },
      ]),
    ).toBeNull();
  });
  it('names what is wrong', () => {
    expect(categoriesProblem([{ name: 'A', weight: 99 }])).toMatch(/add up to 99/);
    expect(
      categoriesProblem([
        { name: 'Quiz', weight: 50 },
        { name: 'quiz ', weight: 50 },
      ]),
    ).toMatch(/twice/);
  });
});
