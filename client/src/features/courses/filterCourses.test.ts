import { describe, expect, it } from 'vitest';
import { filterCourses } from './filterCourses';

const courses = [
  { title: 'Introduction to Biology', code: 'BIO101' },
  { title: 'World History', code: 'HI230' },
  { title: 'Creative Writing', code: 'EN310' },
];

describe('filterCourses', () => {
  it('matches the title, ignoring case', () => {
    expect(filterCourses(courses, 'HISTORY')).toEqual([courses[1]]);
    expect(filterCourses(courses, 'writ')).toEqual([courses[2]]);
  });

  it('matches the code, ignoring case', () => {
    expect(filterCourses(courses, 'bio1')).toEqual([courses[0]]);
    expect(filterCourses(courses, 'en310')).toEqual([courses[2]]);
  });

  it('keeps every course for a blank query, ignoring surrounding spaces otherwise', () => {
    expect(filterCourses(courses, '')).toEqual(courses);
    expect(filterCourses(courses, '   ')).toEqual(courses);
    expect(filterCourses(courses, '  world ')).toEqual([courses[1]]);
  });

  it('finds nothing when neither title nor code matches', () => {
    expect(filterCourses(courses, 'chemistry')).toEqual([]);
  });

  it('does not match the description or other fields', () => {
    expect(filterCourses([{ ...courses[0]!, description: 'cells' }], 'cells')).toEqual([]);
  });
});
