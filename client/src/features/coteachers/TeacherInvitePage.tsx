import { ErrorCode, type TeacherInvitePreview } from '@classwave/shared';
import { GraduationCap, MailX } from 'lucide-react';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { toast } from 'sonner';
import { apiErrorCode, apiErrorMessage } from '../../api/errors';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { Button } from '../../components/Button';
import { ButtonLink } from '../../components/ButtonLink';
import { Card } from '../../components/Card';
import { EmptyState } from '../../components/EmptyState';
import { LoadFailed } from '../../components/LoadFailed';
import { Notice } from '../../components/Notice';
import { Spinner } from '../../components/Spinner';
import { selectProfile, selectSession } from '../auth/authSlice';
import { withNext } from '../auth/nextPath';
import { signOut } from '../auth/session';
import { useAcceptTeacherInviteMutation, useGetTeacherInviteQuery } from './coteachersApi';
import './TeacherInvitePage.css';

const toCourses = (
  <ButtonLink to="/courses" variant="secondary">
    Go to my courses
  </ButtonLink>
);

/** Codes the invitation's page answers with a screen of its own rather than a retry. */
const DEAD_ENDS: readonly string[] = [
  ErrorCode.teacherInviteInvalid,
  ErrorCode.teacherInviteUsed,
  ErrorCode.teacherInviteExpired,
  ErrorCode.forbidden,
  ErrorCode.validationFailed,
];

/**
 * /teacher-invites/:token, the page a co-teacher invitation's mail opens (DESIGN §20). Signed-out
 * visitors sign in first and come back here (the route guard carries the path); then the course,
 * who invited and to which address, and Accept.
 */
export function TeacherInvitePage() {
  const { token = '' } = useParams();
  const { data, error, isLoading, refetch } = useGetTeacherInviteQuery(token);

  if (isLoading)
    return (
      <div className="invite-page__loading">
        <Spinner label="Loading the invitation" />
      </div>
    );
  if (!data) {
    const code = apiErrorCode(error);
    if (code && DEAD_ENDS.includes(code))
      return <DeadEnd token={token} message={apiErrorMessage(error, '')} />;
    return (
      <LoadFailed
        icon={<MailX />}
        title="This invitation could not be loaded"
        onRetry={() => void refetch()}
      />
    );
  }
  return <InviteCard token={token} invite={data} />;
}

function DeadEnd({ token, message }: { token: string; message: string }) {
  return (
    <EmptyState icon={<MailX />} title="This invitation cannot be used">
      <p>{message || 'The link is not quite right.'}</p>
      <NotMe token={token} />
      <div className="invite-page__actions">{toCourses}</div>
    </EmptyState>
  );
}

/** Another account is signed in here: sign out, and come back to this link after signing in. */
function NotMe({
  token,
  label = 'Sign in with another account',
  size,
}: {
  token: string;
  label?: string;
  size?: 'lg';
}) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [leaving, setLeaving] = useState(false);
  async function handleNotMe() {
    setLeaving(true);
    await dispatch(signOut());
    await navigate(withNext('/login', `/teacher-invites/${token}`), { replace: true });
  }
  return (
    <Button variant="secondary" size={size} loading={leaving} onClick={() => void handleNotMe()}>
      {label}
    </Button>
  );
}

function InviteCard({ token, invite }: { token: string; invite: TeacherInvitePreview }) {
  const navigate = useNavigate();
  const profile = useAppSelector(selectProfile);
  const email = useAppSelector(selectSession)?.user.email;
  const [accept, { isLoading }] = useAcceptTeacherInviteMutation();
  const [error, setError] = useState<string | null>(null);
  const otherAddress = email !== undefined && email.toLowerCase() !== invite.email.toLowerCase();

  async function handleAccept() {
    setError(null);
    try {
      const { course } = await accept(token).unwrap();
      toast.success(`You now co-teach ${course.title}`);
      await navigate(`/courses/${course.id}`, { replace: true });
    } catch (failure) {
      setError(apiErrorMessage(failure, 'The invitation could not be accepted.'));
    }
  }

  return (
    <div className="invite-page">
      <Card as="section" padding="lg" className="invite-card" aria-labelledby="invite-title">
        <p className="invite-card__eyebrow">
          <GraduationCap aria-hidden="true" size={16} /> You are invited to co-teach
        </p>
        <h1 id="invite-title" className="invite-card__title">
          {invite.course.title}
        </h1>
        <dl className="invite-card__facts">
          <div>
            <dt>Invited by</dt>
            <dd>{invite.invitedBy.fullName}</dd>
          </div>
          <div>
            <dt>Sent to</dt>
            <dd>{invite.email}</dd>
          </div>
        </dl>
        <p className="invite-card__account">
          Co-teachers post, set and grade work and manage the class with the owner; only the owner can delete
          the course.
        </p>
        {error && <Notice tone="danger">{error}</Notice>}
        {otherAddress ? (
          <>
            <Notice tone="warning">
              You are signed in as {profile?.fullName} ({email}). This invitation is for {invite.email}: sign
              in with that account to accept it.
            </Notice>
            <div className="invite-card__actions">
              <NotMe token={token} />
            </div>
          </>
        ) : (
          <div className="invite-card__actions">
            <Button size="lg" loading={isLoading} onClick={() => void handleAccept()}>
              Accept and co-teach
            </Button>
            <NotMe token={token} label="Not me" size="lg" />
          </div>
        )}
      </Card>
    </div>
  );
}
