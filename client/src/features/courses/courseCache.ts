import type { Assignment, Course } from '@classwave/shared';

/** Newest first, as GET /api/courses answers (ties keep their order). */
const newestFirst = (a: Course, b: Course) => Date.parse(b.createdAt) - Date.parse(a.createdAt);

/**
 * Adds courses to a cached course list, or replaces the ones already there (a live event may have
 * brought the same course first), keeping the list newest first. Mutates `list` (an Immer draft).
 */
export function upsertCourses(list: Course[], courses: readonly Course[]): void {
  for (const course of courses) {
    const index = list.findIndex((existing) => existing.id === course.id);
    if (index === -1) list.push(course);
    else list[index] = course;
  }
  list.sort(newestFirst);
}

/** Removes a course from a cached course list, if it is there. */
export function removeCourse(list: Course[], courseId: string): void {
  const index = list.findIndex((course) => course.id === courseId);
  if (index !== -1) list.splice(index, 1);
}

/** By due date, then id: the order of GET /api/assignments and of a course's assignments. */
export const byDueDate = (a: Assignment, b: Assignment) =>
  Date.parse(a.dueDate) - Date.parse(b.dueDate) || a.id.localeCompare(b.id);
