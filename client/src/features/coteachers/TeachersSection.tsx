import {
  formatDetailDate,
  type CourseTeacher,
  type CourseTeachers,
  type PendingTeacherInvite,
} from '@classwave/shared';
import { Mail, UserMinus, UserPlus, X } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { apiErrorMessage } from '../../api/errors';
import { Badge } from '../../components/Badge';
import { Button } from '../../components/Button';
import { Card } from '../../components/Card';
import { useConfirm } from '../../components/ConfirmDialog';
import { Input } from '../../components/Input';
import { Skeleton } from '../../components/Skeleton';
import { useCourseReadOnly } from '../archive/readOnly';
import {
  useCancelTeacherInviteMutation,
  useGetCourseTeachersQuery,
  useInviteTeacherMutation,
  useRemoveTeacherMutation,
} from './coteachersApi';
import './TeachersSection.css';

/**
 * The course's teachers (DESIGN §20), for its teachers: the owner and the co-teachers, and the
 * invitations still open. The owner invites by e-mail and removes co-teachers; a co-teacher sees
 * the list. Live: `course:teachers` keeps it current in every teacher's tab.
 */
export function TeachersSection({ courseId, isOwner }: { courseId: string; isOwner: boolean }) {
  const { data, isLoading, refetch } = useGetCourseTeachersQuery(courseId);
  // An archived course's teachers are shown, not changed (DESIGN §20: the server refuses with 409).
  const archived = useCourseReadOnly();
  const manages = isOwner && !archived;
  const coTeachers = data ? data.teachers.length - 1 : 0;

  return (
    <Card as="section" aria-labelledby="course-teachers" className="teachers">
      <div className="course-detail__section-head">
        <h2 id="course-teachers" className="course-detail__section-title">
          Teachers
        </h2>
        {data && <span className="course-detail__count">{data.teachers.length}</span>}
      </div>
      {isLoading ? (
        <div className="teachers__skeleton" aria-busy="true">
          <span className="sr-only" role="status">
            Loading the teachers
          </span>
          <Skeleton />
        </div>
      ) : !data ? (
        <p className="course-detail__empty">
          The teachers could not be loaded.{' '}
          <Button variant="ghost" size="sm" onClick={() => void refetch()}>
            Try again
          </Button>
        </p>
      ) : (
        <>
          <ul className="teachers__list" aria-label="Teachers of this course">
            {data.teachers.map((teacher) => (
              <TeacherRow key={teacher.id} courseId={courseId} teacher={teacher} canRemove={manages} />
            ))}
            {data.invites.map((invite) => (
              <InviteRow key={invite.id} courseId={courseId} invite={invite} canCancel={manages} />
            ))}
          </ul>
          {manages && <InviteForm courseId={courseId} full={coTeachers >= data.maxCoTeachers} list={data} />}
        </>
      )}
    </Card>
  );
}

function TeacherRow({
  courseId,
  teacher,
  canRemove,
}: {
  courseId: string;
  teacher: CourseTeacher;
  canRemove: boolean;
}) {
  const [remove, { isLoading }] = useRemoveTeacherMutation();
  const [confirm, dialog] = useConfirm();
  const owner = teacher.role === 'owner';

  async function handleRemove() {
    const sure = await confirm({
      title: `Remove ${teacher.fullName} as a co-teacher?`,
      description: 'They lose access to this course at once. Their grades and posts stay.',
      confirmLabel: 'Remove co-teacher',
    });
    if (!sure) return;
    try {
      await remove({ courseId, userId: teacher.id }).unwrap();
      toast.success(`${teacher.fullName} no longer teaches this course`);
    } catch (error) {
      toast.error(apiErrorMessage(error, `Could not remove ${teacher.fullName}`));
    }
  }

  return (
    <li className="teachers__row" aria-label={teacher.fullName}>
      <div className="teachers__who">
        <span className="teachers__name">{teacher.fullName}</span>
        <span className="teachers__meta" title={teacher.email}>
          {teacher.email}
        </span>
      </div>
      <Badge tone={owner ? 'success' : 'neutral'}>{owner ? 'Owner' : 'Co-teacher'}</Badge>
      {canRemove && !owner ? (
        <Button
          variant="ghost"
          size="sm"
          icon={<UserMinus />}
          loading={isLoading}
          aria-label={`Remove ${teacher.fullName}`}
          onClick={() => void handleRemove()}
        >
          Remove
        </Button>
      ) : (
        <span />
      )}
      {dialog}
    </li>
  );
}

function InviteRow({
  courseId,
  invite,
  canCancel,
}: {
  courseId: string;
  invite: PendingTeacherInvite;
  canCancel: boolean;
}) {
  const [cancel, { isLoading }] = useCancelTeacherInviteMutation();
  const [confirm, dialog] = useConfirm();

  async function handleCancel() {
    const sure = await confirm({
      title: `Cancel the invitation to ${invite.email}?`,
      description: 'The link in their e-mail stops working. You can invite them again later.',
      confirmLabel: 'Cancel invitation',
      cancelLabel: 'Keep it',
    });
    if (!sure) return;
    try {
      await cancel({ courseId, inviteId: invite.id }).unwrap();
      toast.success(`The invitation to ${invite.email} is cancelled`);
    } catch (error) {
      toast.error(apiErrorMessage(error, 'Could not cancel the invitation'));
    }
  }

  return (
    <li className="teachers__row" aria-label={`Invited: ${invite.email}`}>
      <div className="teachers__who">
        <span className="teachers__name teachers__name--pending" title={invite.email}>
          {invite.email}
        </span>
        <span className="teachers__meta">
          Invited {formatDetailDate(invite.invitedAt)}
          {new Date(invite.expiresAt).getTime() < Date.now() ? ' · expired' : ''}
        </span>
      </div>
      <Badge tone="neutral">Invited</Badge>
      {canCancel ? (
        <Button
          variant="ghost"
          size="sm"
          icon={<X />}
          loading={isLoading}
          aria-label={`Cancel the invitation to ${invite.email}`}
          onClick={() => void handleCancel()}
        >
          Cancel
        </Button>
      ) : (
        <span />
      )}
      {dialog}
    </li>
  );
}

function InviteForm({ courseId, full, list }: { courseId: string; full: boolean; list: CourseTeachers }) {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [invite, { isLoading }] = useInviteTeacherMutation();

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    const address = email.trim();
    if (!address) return setError('Enter the e-mail address of the teacher to invite.');
    setError(null);
    try {
      await invite({ courseId, email: address }).unwrap();
      toast.success(`Invitation sent to ${address}`);
      setEmail('');
    } catch (failure) {
      setError(apiErrorMessage(failure, 'The invitation could not be sent.'));
    }
  }

  if (full)
    return (
      <p className="teachers__note">
        This course has {list.maxCoTeachers} co-teachers, the most it can have. Remove one to invite another.
      </p>
    );
  return (
    <form className="teachers__invite" onSubmit={(event) => void handleSubmit(event)} noValidate>
      <Input
        label="Invite a co-teacher"
        type="email"
        autoComplete="off"
        placeholder="teacher@school.org"
        icon={<Mail />}
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        error={error ?? undefined}
        hint="They get an e-mail with a link; co-teachers can do everything but delete the course."
        containerClassName="teachers__field"
      />
      <Button type="submit" icon={<UserPlus />} loading={isLoading}>
        Send invitation
      </Button>
    </form>
  );
}
