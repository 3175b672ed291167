import { formatDetailDate } from '@classwave/shared';
import { useState } from 'react';
import { Upload, UserMinus, UserPlus } from 'lucide-react';
import { toast } from 'sonner';
import { apiErrorMessage } from '../../api/errors';
import { useConfirm } from '../../components/ConfirmDialog';
import { Badge, type BadgeTone } from '../../components/Badge';
import { Button } from '../../components/Button';
import { Card } from '../../components/Card';
import { Skeleton } from '../../components/Skeleton';
import { useGetMembersQuery, useRemoveMemberMutation, useRestoreMemberMutation } from './classesApi';
import { RosterImportDialog } from '../roster/RosterImportDialog';
import { useCourseReadOnly } from '../archive/readOnly';
import type { RosterMember, RosterStatus } from './rosterCache';
import './RosterSection.css';

const STATUS: Record<RosterStatus, { label: string; tone: BadgeTone }> = {
  active: { label: 'Active', tone: 'success' },
  left: { label: 'Left', tone: 'neutral' },
  removed: { label: 'Removed', tone: 'danger' },
};

export const REMOVE_CONFIRMATION =
  'They lose access at once; their submissions are kept and come back if you restore them.';

/**
 * The course's roster for its teacher (DESIGN §11): who is in the class, who left or was removed,
 * since when and how much they handed in. Live events keep it current; Remove and Restore act on it.
 */
export function RosterSection({ courseId }: { courseId: string }) {
  const { data: members, isLoading, refetch } = useGetMembersQuery(courseId);
  const active = members?.filter((member) => member.status === 'active').length ?? 0;
  const [importing, setImporting] = useState(false);
  const archived = useCourseReadOnly();

  return (
    <Card as="section" aria-labelledby="course-roster" className="roster">
      <div className="course-detail__section-head">
        <h2 id="course-roster" className="course-detail__section-title">
          Roster
        </h2>
        {members && <span className="course-detail__count">{active}</span>}
        {!archived && (
          <Button
            variant="secondary"
            size="sm"
            icon={<Upload size={16} aria-hidden="true" />}
            className="roster__import"
            onClick={() => setImporting(true)}
          >
            Import roster
          </Button>
        )}
      </div>
      {importing && <RosterImportDialog courseId={courseId} onClose={() => setImporting(false)} />}
      {isLoading ? (
        <div className="roster__skeleton" aria-busy="true">
          <span className="sr-only" role="status">
            Loading the roster
          </span>
          <Skeleton />
          <Skeleton width="80%" />
        </div>
      ) : !members ? (
        <p className="course-detail__empty">
          The roster could not be loaded.{' '}
          <Button variant="ghost" size="sm" onClick={() => void refetch()}>
            Try again
          </Button>
        </p>
      ) : members.length === 0 ? (
        <p className="course-detail__empty">No students yet. Share the class code to let them join.</p>
      ) : (
        <ul className="roster__list" aria-label="Students">
          {members.map((member) => (
            <RosterRow key={member.student.id} member={member} />
          ))}
        </ul>
      )}
    </Card>
  );
}

function RosterRow({ member }: { member: RosterMember }) {
  const [remove, { isLoading: removing }] = useRemoveMemberMutation();
  const [restore, { isLoading: restoring }] = useRestoreMemberMutation();
  const { student, courseId } = member;
  const status = STATUS[member.status];
  const [confirm, dialog] = useConfirm();
  const archived = useCourseReadOnly();

  async function handleRemove() {
    const sure = await confirm({
      title: `Remove ${student.fullName} from this class?`,
      description: REMOVE_CONFIRMATION,
      confirmLabel: 'Remove student',
    });
    if (!sure) return;
    try {
      await remove({ courseId, studentId: student.id }).unwrap();
      toast.success(`${student.fullName} was removed`);
    } catch (error) {
      toast.error(apiErrorMessage(error, `Could not remove ${student.fullName}`));
    }
  }

  async function handleRestore() {
    try {
      await restore({ courseId, studentId: student.id }).unwrap();
      toast.success(`${student.fullName} is back in the class`);
    } catch (error) {
      toast.error(apiErrorMessage(error, `Could not restore ${student.fullName}`));
    }
  }

  return (
    <li className="roster__row" aria-label={student.fullName}>
      <div className="roster__who">
        <span className="roster__name">{student.fullName}</span>
        <span className="roster__email" title={student.email}>
          {student.email}
        </span>
      </div>
      <div className="roster__facts">
        <Badge tone={status.tone}>{status.label}</Badge>
        <span>Joined {formatDetailDate(member.joinedAt)}</span>
        <span>
          {member.submissionCount} {member.submissionCount === 1 ? 'submission' : 'submissions'}
        </span>
      </div>
      {archived ? (
        <span className="roster__no-action" />
      ) : member.status === 'active' ? (
        <Button
          variant="ghost"
          size="sm"
          icon={<UserMinus />}
          loading={removing}
          aria-label={`Remove ${student.fullName}`}
          onClick={() => void handleRemove()}
        >
          Remove
        </Button>
      ) : member.status === 'removed' ? (
        <Button
          variant="ghost"
          size="sm"
          icon={<UserPlus />}
          loading={restoring}
          aria-label={`Restore ${student.fullName}`}
          onClick={() => void handleRestore()}
        >
          Restore
        </Button>
      ) : (
        <span className="roster__no-action" />
      )}
      {dialog}
    </li>
  );
}
