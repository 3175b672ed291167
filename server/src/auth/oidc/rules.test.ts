import { describe, expect, it } from 'vitest';
import { roleFor, type RoleRule } from './config.js';

describe('roleFor (OIDC_ROLE_RULES)', () => {
  const rules: RoleRule[] = [
    { role: 'teacher', domain: 'staff.school.test' },
    { role: 'student', domain: 'pupils.school.test' },
    { role: 'teacher', claim: 'groups', value: 'teachers' },
    { role: 'student', claim: 'hd', value: 'school.test' },
  ];

  it('matches the e-mail domain exactly, without case, and not its subdomains', () => {
    expect(roleFor(rules, 'Ms.Lee@Staff.School.test', {})).toBe('teacher');
    expect(roleFor(rules, 'ana@pupils.school.test', {})).toBe('student');
    expect(roleFor(rules, 'ana@x.pupils.school.test', {})).toBeUndefined();
    expect(roleFor(rules, 'ana@pupils.school.test.evil.test', {})).toBeUndefined();
  });

  it('matches a claim equal to the value or an array claim holding it; the first rule wins', () => {
    expect(roleFor(rules, 'a@other.test', { groups: ['x', 'teachers'] })).toBe('teacher');
    expect(roleFor(rules, 'a@other.test', { hd: 'school.test' })).toBe('student');
    expect(roleFor(rules, 'a@pupils.school.test', { groups: ['teachers'] })).toBe('student');
    expect(roleFor(rules, 'a@other.test', { groups: 'teachers-not' })).toBeUndefined();
    expect(roleFor(rules, 'a@other.test', { groups: { teachers: true } })).toBeUndefined();
  });
});
