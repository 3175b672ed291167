import { STATUS_LABELS, type AssignmentStatus } from '@classwave/shared';
import { AlarmClock, CircleCheck, CircleDot, Send } from 'lucide-react';
import { Badge, type BadgeTone } from '../../components/Badge';

const look: Record<AssignmentStatus, { tone: BadgeTone; icon: typeof CircleDot }> = {
  active: { tone: 'primary', icon: CircleDot },
  overdue: { tone: 'danger', icon: AlarmClock },
  submitted: { tone: 'warning', icon: Send },
  graded: { tone: 'success', icon: CircleCheck },
};

/** An assignment's status (spec §4) as a coloured badge; each status has its own colour and icon. */
export function StatusBadge({ status }: { status: AssignmentStatus }) {
  const { tone, icon: Icon } = look[status];
  return (
    <Badge tone={tone} icon={<Icon />} className={`status-badge status-badge--${status}`}>
      {STATUS_LABELS[status]}
    </Badge>
  );
}
