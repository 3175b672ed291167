import {
  ErrorCode,
  formatJoinCode,
  joinPath,
  normalizeJoinCode,
  REMOVED_FROM_COURSE,
  type JoinPreview,
} from '@classwave/shared';
import { BookOpen, GraduationCap, KeyRound, Lock, Users } from 'lucide-react';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { toast } from 'sonner';
import { apiErrorCode } from '../../api/errors';
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
import { useGetJoinPreviewQuery, useJoinCourseMutation } from './classesApi';
import { joinErrorMessage } from './joinErrors';
import './JoinPage.css';

const backToCourses = (
  <ButtonLink to="/courses" variant="secondary">
    Go to my courses
  </ButtonLink>
);

/**
 * /join/:code, the page a join link opens (DESIGN §11): which course, which teacher, how many are in
 * it and which account will join, then Join or "Not me". Signed-out visitors come back here after
 * signing in (the route guard carries the path).
 */
export function JoinPage() {
  const { code: raw = '' } = useParams();
  const profile = useAppSelector(selectProfile);
  const code = normalizeJoinCode(raw);

  if (profile?.role === 'teacher') {
    return (
      <EmptyState icon={<GraduationCap />} title="Join links are for students">
        <p>
          You are signed in as a teacher. Share this link with your students; they join the class with it.
        </p>
        <div className="join-page__actions">{backToCourses}</div>
      </EmptyState>
    );
  }
  if (!code) return <WrongCode />;
  return <JoinPreviewScreen code={code} />;
}

function WrongCode({ message }: { message?: string }) {
  return (
    <EmptyState icon={<KeyRound />} title="This class code does not work">
      <p>{message ?? 'The link is not quite right.'}</p>
      <p>It may have been reset by the teacher: ask them for the current code or link.</p>
      <div className="join-page__actions">{backToCourses}</div>
    </EmptyState>
  );
}

function JoinPreviewScreen({ code }: { code: string }) {
  const { data, error, isLoading, refetch } = useGetJoinPreviewQuery(code);

  if (isLoading) {
    return (
      <div className="join-page__loading">
        <Spinner label="Loading the class" />
      </div>
    );
  }
  if (!data) {
    switch (apiErrorCode(error)) {
      case ErrorCode.joinCodeInvalid:
      case ErrorCode.validationFailed:
        return <WrongCode message={joinErrorMessage(error)} />;
      case ErrorCode.joinDisabled:
        return <JoiningOff message={joinErrorMessage(error)} />;
      case ErrorCode.rateLimited:
        return (
          <EmptyState icon={<Lock />} title="Too many tries">
            <p>{joinErrorMessage(error)}</p>
          </EmptyState>
        );
      default:
        return (
          <LoadFailed
            icon={<BookOpen />}
            title="This class could not be loaded"
            onRetry={() => void refetch()}
          />
        );
    }
  }
  return <PreviewCard code={code} preview={data} />;
}

function JoiningOff({ message }: { message: string }) {
  return (
    <EmptyState icon={<Lock />} title="Joining is turned off">
      <p>{message}</p>
      <p>Ask your teacher to turn joining on, then open the link again.</p>
      <div className="join-page__actions">{backToCourses}</div>
    </EmptyState>
  );
}

function PreviewCard({ code, preview }: { code: string; preview: JoinPreview }) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const profile = useAppSelector(selectProfile);
  const email = useAppSelector(selectSession)?.user.email;
  const [joinCourse, { isLoading: joining }] = useJoinCourseMutation();
  const [error, setError] = useState<{ code: string | undefined; message: string } | null>(null);
  const [leaving, setLeaving] = useState(false);
  const { course, teacher, memberCount, alreadyMember, removed } = preview;

  async function handleJoin() {
    setError(null);
    try {
      const { course: joined } = await joinCourse({ code }).unwrap();
      toast.success(`You joined ${joined.title}`);
      await navigate(`/courses/${joined.id}`, { replace: true });
    } catch (failure) {
      setError({ code: apiErrorCode(failure), message: joinErrorMessage(failure) });
    }
  }

  /** Another person's account is signed in here: sign out, and come back to this link after signing in. */
  async function handleNotMe() {
    setLeaving(true);
    await dispatch(signOut());
    await navigate(withNext('/login', joinPath(code)), { replace: true });
  }

  if (error?.code === ErrorCode.joinCodeInvalid) return <WrongCode message={error.message} />;

  return (
    <div className="join-page">
      <Card as="section" padding="lg" className="join-card" aria-labelledby="join-title">
        <p className="join-card__eyebrow">
          {alreadyMember
            ? 'You are in this class'
            : removed
              ? 'You were removed from this class'
              : 'You are invited to join'}
        </p>
        <h1 id="join-title" className="join-card__title">
          {course.title}
        </h1>
        <dl className="join-card__facts">
          <div>
            <dt>Course code</dt>
            <dd>{course.code}</dd>
          </div>
          <div>
            <dt>Teacher</dt>
            <dd>{teacher.fullName}</dd>
          </div>
          <div>
            <dt>
              <Users aria-hidden="true" size={16} /> Members
            </dt>
            <dd>
              {memberCount} {memberCount === 1 ? 'student' : 'students'}
            </dd>
          </div>
          <div>
            <dt>Class code</dt>
            <dd className="join-card__code">{formatJoinCode(code)}</dd>
          </div>
        </dl>

        {error && <Notice tone="danger">{error.message}</Notice>}

        {removed ? (
          <>
            <Notice tone="warning">{REMOVED_FROM_COURSE}</Notice>
            <div className="join-card__actions">{backToCourses}</div>
          </>
        ) : alreadyMember ? (
          <div className="join-card__actions">
            <ButtonLink to={`/courses/${course.id}`} size="lg">
              Open the course
            </ButtonLink>
          </div>
        ) : (
          <>
            <p className="join-card__account">
              You&apos;ll join as <strong>{profile?.fullName}</strong>
              {email && <> ({email})</>}
            </p>
            <div className="join-card__actions">
              <Button size="lg" loading={joining} onClick={() => void handleJoin()}>
                Join {course.title}
              </Button>
              <Button variant="secondary" size="lg" loading={leaving} onClick={() => void handleNotMe()}>
                Not me
              </Button>
            </div>
          </>
        )}
      </Card>
    </div>
  );
}
