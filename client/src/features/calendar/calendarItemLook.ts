import type { CalendarItem, WorkStatus } from '@classwave/shared';

/**
 * A student's status as the calendar colours and words it: the spec's badge words where they exist
 * (Active, Submitted, Graded), §13's where they are new (late, missing, excused).
 */
const STUDENT_LOOK: Record<WorkStatus, { tone: string; note: string }> = {
  not_submitted: { tone: 'active', note: 'Active' },
  submitted: { tone: 'submitted', note: 'Submitted' },
  late: { tone: 'submitted', note: 'Submitted late' },
  missing: { tone: 'overdue', note: 'Missing' },
  excused: { tone: 'other', note: 'Excused' },
  // A student is never sent `graded` (a held grade reads as submitted); kept for completeness.
  graded: { tone: 'submitted', note: 'Submitted' },
  returned: { tone: 'graded', note: 'Graded' },
};

/** The colour class and the words for an item: a student's status, a teacher's to-grade count. */
export function itemLook(item: CalendarItem): { tone: string; note: string } {
  if (item.needsGrading !== null) {
    return item.needsGrading > 0
      ? { tone: 'to-grade', note: `${item.needsGrading} to grade` }
      : { tone: 'teacher', note: 'Nothing to grade' };
  }
  return item.status ? STUDENT_LOOK[item.status] : { tone: 'other', note: 'Due' };
}
