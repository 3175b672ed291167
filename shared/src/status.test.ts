import { describe, expect, it } from 'vitest';
import { assignmentStatus } from './status.js';

const now = new Date('2026-11-21T12:00:00Z');
const future = '2026-11-22T12:00:00Z';
const past = '2026-11-20T12:00:00Z';

describe('assignmentStatus', () => {
  it.each([
    ['student', future, null, 'active'],
    ['student', past, null, 'overdue'],
    ['student', past, { grade: null }, 'submitted'],
    ['student', future, { grade: null }, 'submitted'],
    ['student', future, { grade: 0 }, 'graded'],
    ['student', past, { grade: 87 }, 'graded'],
    ['teacher', future, null, 'active'],
    ['teacher', past, null, 'overdue'],
    // A teacher never sees submitted or graded, whatever the data says.
    ['teacher', future, { grade: 10 }, 'active'],
  ] as const)('%s, due %s, submission %o → %s', (role, dueDate, submission, expected) => {
    expect(assignmentStatus({ dueDate, submission }, role, now)).toBe(expected);
  });

  it('counts an assignment due this very moment as still active', () => {
    expect(assignmentStatus({ dueDate: now.toISOString(), submission: null }, 'student', now)).toBe('active');
  });
});
