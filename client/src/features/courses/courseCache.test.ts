import { describe, expect, it } from 'vitest';
import { createCourse } from '../../test/factories';
import { removeCourse, upsertCourses } from './courseCache';

const at = (iso: string) => createCourse({ createdAt: iso });

describe('course cache updates', () => {
  it('adds new courses newest first', () => {
    const older = at('2026-01-01T00:00:00.000Z');
    const newer = at('2026-02-01T00:00:00.000Z');
    const list = [older];
    upsertCourses(list, [newer]);
    expect(list).toEqual([newer, older]);
  });

  it('replaces a course that is already there instead of adding it twice (e.g. after a live event)', () => {
    const course = at('2026-01-01T00:00:00.000Z');
    const list = [course];
    upsertCourses(list, [{ ...course, title: 'Renamed' }]);
    expect(list).toHaveLength(1);
    expect(list[0]!.title).toBe('Renamed');
  });

  it('removes a course by id and ignores unknown ids', () => {
    const a = at('2026-01-01T00:00:00.000Z');
    const b = at('2026-01-02T00:00:00.000Z');
    const list = [b, a];
    removeCourse(list, 'not-there');
    expect(list).toEqual([b, a]);
    removeCourse(list, b.id);
    expect(list).toEqual([a]);
  });
});
