import type { Profile, Session } from '@classwave/shared';
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { apiErrorMessage } from '../../api/errors';
import { refreshSession } from '../../api/refreshSession';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { Button } from '../../components/Button';
import { FormModal } from '../../components/FormModal';
import { useSignInMutation } from './authApi';
import { broadcastAuth, subscribeToAuth } from './authChannel';
import { EmailInput, PasswordInput } from './AuthFields';
import { accountSwitched, selectProfile } from './authSlice';
import { signOut, startSession } from './session';

/**
 * Shown over the page when the session expired while signed in (issue 12): signing in again here
 * keeps everything on screen (an answer being written, its device copy) and carries on. Another
 * account signing in starts clean, with nothing of the previous one cached. A
 * sign-in in another tab is taken up here too.
 */
export function SessionExpiredDialog() {
  const dispatch = useAppDispatch();
  const profile = useAppSelector(selectProfile);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [signIn] = useSignInMutation();
  const previousId = profile?.id ?? null;

  async function adopt(session: Session, knownProfile?: Profile) {
    // Someone else: nothing of the previous account may stay in the cache (RequireAuth then starts
    // them on the dashboard).
    if (session.user.id !== previousId) dispatch(accountSwitched(session));
    await dispatch(startSession(session, { profile: knownProfile }));
  }

  // Signed in again in another tab of this browser: that session is this tab's too.
  useEffect(
    () =>
      subscribeToAuth((message) => {
        if (message.type !== 'signed-in') return;
        void refreshSession().then((result) => {
          if (result.ok) void adopt(result.session, result.profile);
        });
      }),
    // `adopt` reads only the profile id, fixed while this dialog is open.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );

  async function handleSubmit() {
    setSubmitting(true);
    try {
      const { session } = await signIn({ email: email.trim(), password }).unwrap();
      toast.dismiss();
      toast.success(session.user.id === previousId ? 'Signed in again.' : 'Signed in successfully!');
      await adopt(session);
      broadcastAuth({ type: 'signed-in' });
    } catch (error) {
      toast.error(apiErrorMessage(error, 'Authentication failed'));
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <FormModal
      open
      dismissible={false}
      onClose={() => {}}
      size="sm"
      title="Your session expired"
      description={`Sign in again${profile ? ` as ${profile.fullName}` : ''} to carry on. Nothing on this page is lost: what you typed is kept on this device meanwhile.`}
      submitLabel="Sign In"
      submitting={submitting}
      onSubmit={handleSubmit}
      cancel={
        <Button variant="secondary" onClick={() => void dispatch(signOut())}>
          Sign out
        </Button>
      }
    >
      <EmailInput value={email} onChange={(event) => setEmail(event.target.value)} />
      <PasswordInput
        autoComplete="current-password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
      />
    </FormModal>
  );
}
