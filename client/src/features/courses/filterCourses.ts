import type { Course } from '@classwave/shared';

/**
 * The courses whose title or code contains `query`, ignoring case and surrounding spaces
 * (spec §2: 'Search courses by title or code...'). A blank query keeps every course.
 */
export function filterCourses<T extends Pick<Course, 'title' | 'code'>>(
  courses: readonly T[],
  query: string,
): T[] {
  const needle = query.trim().toLocaleLowerCase();
  if (!needle) return [...courses];
  return courses.filter(
    (course) =>
      course.title.toLocaleLowerCase().includes(needle) || course.code.toLocaleLowerCase().includes(needle),
  );
}
