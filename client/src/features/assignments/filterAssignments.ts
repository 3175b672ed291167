import type { Assignment } from '@classwave/shared';

/**
 * The assignments whose title or course title contains `query`, ignoring case and surrounding
 * spaces (spec §2: 'Search assignments...'). A blank query keeps every assignment.
 */
export function filterAssignments<T extends Pick<Assignment, 'title' | 'courseTitle'>>(
  assignments: readonly T[],
  query: string,
): T[] {
  const needle = query.trim().toLocaleLowerCase();
  if (!needle) return [...assignments];
  return assignments.filter(
    (assignment) =>
      assignment.title.toLocaleLowerCase().includes(needle) ||
      assignment.courseTitle.toLocaleLowerCase().includes(needle),
  );
}
