import {
  formatLateness,
  minutesLate,
  workStatus,
  WORK_STATUS_LABELS,
  type Assignment,
  type WorkStatus,
} from '@classwave/shared';
import { AlarmClock, Award, CircleCheck, CircleDot, CircleSlash, Clock, Send } from 'lucide-react';
import { Badge, type BadgeTone } from '../../components/Badge';

const look: Record<WorkStatus, { tone: BadgeTone; icon: typeof CircleDot }> = {
  not_submitted: { tone: 'primary', icon: CircleDot },
  submitted: { tone: 'warning', icon: Send },
  late: { tone: 'warning', icon: Clock },
  missing: { tone: 'danger', icon: AlarmClock },
  excused: { tone: 'neutral', icon: CircleSlash },
  graded: { tone: 'success', icon: CircleCheck },
  returned: { tone: 'success', icon: Award },
};

/**
 * A student's status on an assignment at `now`: the server's word (`status`) for what only it
 * knows (excused), the shared rule for the rest, so "missing" appears the minute the due time
 * passes without a reload (DESIGN §13).
 */
export function studentWorkStatus(assignment: Assignment, now: Date): WorkStatus {
  return workStatus(
    {
      dueDate: assignment.dueDate,
      excused: assignment.status === 'excused',
      submission: assignment.submission,
    },
    now,
    'student',
  );
}

/**
 * The badge's words. The spec's own badges (Active, Submitted, Graded) keep their words; DESIGN §13
 * adds how late, missing, excused, and the returned grade: "Submitted · 2 h 14 min late",
 * "Graded · 18/20".
 */
export function workStatusText(assignment: Assignment, status: WorkStatus): string {
  const submission = assignment.submission;
  switch (status) {
    case 'not_submitted':
      return 'Active';
    case 'late': {
      const late = submission
        ? (submission.late ?? minutesLate(submission.submittedAt, assignment.dueDate) ?? 1)
        : 1;
      return `Submitted · ${formatLateness(late)}`;
    }
    case 'returned':
      return submission?.grade != null ? `Graded · ${submission.grade}/${assignment.maxPoints}` : 'Graded';
    default:
      return WORK_STATUS_LABELS[status];
  }
}

/** A status as a badge, in its tone and icon, with the words given (`workStatusText`). */
export function WorkStatusPill({ status, children }: { status: WorkStatus; children: string }) {
  const { tone, icon: Icon } = look[status];
  return (
    <Badge tone={tone} icon={<Icon />} className={`status-badge work-status work-status--${status}`}>
      {children}
    </Badge>
  );
}

/** A student's status badge on an assignment card. */
export function WorkStatusBadge({ assignment, now }: { assignment: Assignment; now: Date }) {
  const status = studentWorkStatus(assignment, now);
  return <WorkStatusPill status={status}>{workStatusText(assignment, status)}</WorkStatusPill>;
}
