import { describe, expect, it } from 'vitest';
import { firstName, greetingFor } from './greeting.js';

const at = (hours: number, minutes = 0) => new Date(2026, 10, 21, hours, minutes);

describe('greetingFor', () => {
  it.each([
    [at(0), 'Good morning'],
    [at(11, 59), 'Good morning'],
    [at(12), 'Good afternoon'],
    [at(17, 59), 'Good afternoon'],
    [at(18), 'Good evening'],
    [at(23, 59), 'Good evening'],
  ])('greets %s with %s', (date, expected) => {
    expect(greetingFor(date)).toBe(expected);
  });
});

describe('firstName', () => {
  it('takes the first word of the full name', () => {
    expect(firstName('  Ada   Lovelace ')).toBe('Ada');
  });
  // Issue 25: "Good morning, Ms!" greeted a teacher whose name starts with her title.
  it('keeps a title with the last name instead of greeting the title alone', () => {
    expect(firstName('Ms Jane Rivera')).toBe('Ms Rivera');
    expect(firstName('Dr. Okafor')).toBe('Dr. Okafor');
    expect(firstName('mr  Smith')).toBe('mr Smith');
    expect(firstName('Ms')).toBe('Ms');
    expect(firstName('Missy Elliott')).toBe('Missy');
  });
  it("falls back to 'there' without a name", () => {
    expect(firstName('')).toBe('there');
    expect(firstName('   ')).toBe('there');
    expect(firstName(null)).toBe('there');
  });
});
