import { formatListDate } from '@classwave/shared';
import { LogOut, Monitor } from 'lucide-react';
import { toast } from 'sonner';
import { apiErrorMessage } from '../../api/errors';
import { Badge } from '../../components/Badge';
import { Button } from '../../components/Button';
import { LoadFailed } from '../../components/LoadFailed';
import { Spinner } from '../../components/Spinner';
import { SettingsSection } from './SettingsSection';
import { useGetSessionsQuery, useSignOutOthersMutation, useSignOutSessionMutation } from './settingsApi';

/**
 * Where the user is signed in: each other device can be signed out alone (a lost phone), or all of
 * them with "Sign out everywhere else"; those tabs go to /login at once.
 */
export function SessionsSection() {
  const { data, isLoading, isError, refetch } = useGetSessionsQuery();
  const [signOutOthers, { isLoading: signingOut }] = useSignOutOthersMutation();
  const [signOutSession, { isLoading: signingOutOne, originalArgs: endingId }] = useSignOutSessionMutation();
  const others = data?.sessions.filter((s) => !s.current).length ?? 0;

  async function handleSignOutOthers() {
    try {
      const { ended } = await signOutOthers().unwrap();
      toast.success(
        ended === 1 ? 'Signed out of 1 other session.' : `Signed out of ${ended} other sessions.`,
      );
    } catch (error) {
      toast.error(apiErrorMessage(error, 'We could not sign out your other sessions.'));
    }
  }

  async function handleSignOut(sessionId: string, device: string) {
    try {
      await signOutSession(sessionId).unwrap();
      toast.success(`Signed out of ${device}.`);
    } catch (error) {
      toast.error(apiErrorMessage(error, `We could not sign out of ${device}.`));
    }
  }

  return (
    <SettingsSection
      id="sessions"
      title="Sessions"
      description="The browsers and devices signed in to your account."
    >
      {isLoading && <Spinner label="Loading sessions" />}
      {isError && (
        <LoadFailed
          icon={<Monitor />}
          title="Your sessions could not be loaded"
          onRetry={() => void refetch()}
        />
      )}
      {data && (
        <ul className="settings-sessions" aria-label="Signed-in sessions">
          {data.sessions.map((session) => (
            <li key={session.id} className="settings-sessions__item">
              <Monitor className="settings-sessions__icon" aria-hidden="true" size={20} />
              <div className="settings-sessions__text">
                <span className="settings-sessions__device">
                  {session.device}
                  {session.current && <Badge tone="success">This device</Badge>}
                </span>
                <span className="settings-sessions__meta">
                  Signed in {formatListDate(session.createdAt)} · last seen{' '}
                  {formatListDate(session.lastSeenAt)}
                </span>
              </div>
              {!session.current && (
                <Button
                  variant="ghost"
                  size="sm"
                  className="settings-sessions__sign-out"
                  aria-label={`Sign out of ${session.device}, last seen ${formatListDate(session.lastSeenAt)}`}
                  loading={signingOutOne && endingId === session.id}
                  onClick={() => void handleSignOut(session.id, session.device)}
                >
                  Sign out
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      <div className="settings-form__actions">
        <Button
          variant="secondary"
          icon={<LogOut size={16} />}
          loading={signingOut}
          disabled={others === 0}
          onClick={() => void handleSignOutOthers()}
        >
          Sign out everywhere else
        </Button>
      </div>
    </SettingsSection>
  );
}
