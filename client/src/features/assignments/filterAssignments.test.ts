import { describe, expect, it } from 'vitest';
import { filterAssignments } from './filterAssignments';

const assignments = [
  { title: 'Cell Structure Lab Report', courseTitle: 'Introduction to Biology' },
  { title: 'Essay: The French Revolution', courseTitle: 'World History' },
  { title: 'Short Story Draft', courseTitle: 'Creative Writing' },
];

describe('filterAssignments', () => {
  it('matches the assignment title, ignoring case', () => {
    expect(filterAssignments(assignments, 'LAB REPORT')).toEqual([assignments[0]]);
    expect(filterAssignments(assignments, 'revolution')).toEqual([assignments[1]]);
  });

  it('matches the course title, ignoring case', () => {
    expect(filterAssignments(assignments, 'biology')).toEqual([assignments[0]]);
    expect(filterAssignments(assignments, 'WRITING')).toEqual([assignments[2]]);
  });

  it('keeps every assignment for a blank query, ignoring surrounding spaces otherwise', () => {
    expect(filterAssignments(assignments, '')).toEqual(assignments);
    expect(filterAssignments(assignments, ' \t ')).toEqual(assignments);
    expect(filterAssignments(assignments, '  draft ')).toEqual([assignments[2]]);
  });

  it('keeps every match, in order, when several assignments match', () => {
    expect(filterAssignments(assignments, 'r')).toEqual(assignments);
    expect(filterAssignments(assignments, 'history')).toEqual([assignments[1]]);
  });

  it('finds nothing when neither title nor course title matches', () => {
    expect(filterAssignments(assignments, 'algebra')).toEqual([]);
  });
});
