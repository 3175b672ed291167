import { ErrorCode, VerifyLinkError, verifyLinkErrorMessages } from '@classwave/shared';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { toast } from 'sonner';
import { apiErrorCode, apiErrorMessage } from '../../api/errors';
import { useAppDispatch, useAppStore } from '../../app/hooks';
import { Button } from '../../components/Button';
import { Notice } from '../../components/Notice';
import { useGetAuthSettingsQuery, useSignInMutation } from './authApi';
import { broadcastAuth } from './authChannel';
import { EmailInput, PasswordInput } from './AuthFields';
import { AuthForm } from './AuthForm';
import { ResendVerificationForm, useResendVerification } from './ResendVerification';
import { destinationAfterSignIn, NEXT_PARAM, safeNextPath, withNext } from './nextPath';
import { oidcErrorOf, SchoolSignIn, SchoolSignInError } from './SchoolSignIn';
import { startSession } from './session';

function linkErrorOf(value: string | null): VerifyLinkError | null {
  return value !== null && value in verifyLinkErrorMessages ? (value as VerifyLinkError) : null;
}

/** /login: sign in, and the landing page of the verification link (`?verified=1` or `?error=…`). */
export function LoginPage() {
  const dispatch = useAppDispatch();
  const store = useAppStore();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const verified = searchParams.get('verified') === '1';
  const linkError = linkErrorOf(searchParams.get('error'));
  const next = safeNextPath(searchParams.get(NEXT_PARAM));
  const oidcError = oidcErrorOf(searchParams.get('error'));
  // Until the settings arrive (or if they cannot), the password form shows: it is what most servers have.
  const { data: settings } = useGetAuthSettingsQuery();
  const passwords = settings?.passwordSignin ?? true;

  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [signIn] = useSignInMutation();
  const [submitting, setSubmitting] = useState(false);
  const [unconfirmedEmail, setUnconfirmedEmail] = useState<string | null>(null);
  const { send: resend, sending: resending } = useResendVerification();
  const [resentTo, setResentTo] = useState<string | null>(null);

  async function handleSubmit() {
    setSubmitting(true);
    setUnconfirmedEmail(null);
    try {
      const { session, liveFrom } = await signIn({ email: email.trim(), password }).unwrap();
      const profile = await dispatch(startSession(session, { liveFrom }));
      if (!profile) {
        // A failed profile fetch has already been toasted; a session rejected right away has not.
        if (store.getState().auth.status === 'signedOut') toast.error('Authentication failed');
        return;
      }
      // Earlier failures' toasts are stale now: only the success stays.
      toast.dismiss();
      toast.success('Signed in successfully!');
      broadcastAuth({ type: 'signed-in' });
      await navigate(destinationAfterSignIn(next), { replace: true });
    } catch (error) {
      // Unverified: the notice above the form says so, with Resend; a toast saying it again is noise (issue 25).
      if (apiErrorCode(error) === ErrorCode.emailNotConfirmed) setUnconfirmedEmail(email.trim());
      else toast.error(apiErrorMessage(error, 'Authentication failed'));
    } finally {
      setSubmitting(false);
    }
  }

  async function handleResend() {
    if (!unconfirmedEmail) return;
    if (await resend(unconfirmedEmail)) setResentTo(unconfirmedEmail);
  }

  return (
    <AuthForm
      title="Welcome back"
      subtitle="Sign in to pick up where your class left off."
      otherScreen={
        passwords
          ? { question: 'New to Classwave?', to: withNext('/signup', next), label: 'Create an account' }
          : undefined
      }
      before={settings?.oidc && <SchoolSignIn name={settings.oidc.name} divider={passwords} next={next} />}
      hideForm={!passwords}
      submitLabel="Sign In"
      submitting={submitting}
      onSubmit={handleSubmit}
      notices={
        <>
          {oidcError && <SchoolSignInError reason={oidcError} />}
          {verified && (
            <Notice tone="success" title="Your e-mail address is verified.">
              Sign in below to get started.
            </Notice>
          )}
          {linkError === VerifyLinkError.alreadyVerified && (
            <Notice tone="success" title={verifyLinkErrorMessages[linkError]}>
              Your e-mail address was confirmed with that link earlier: sign in below.
            </Notice>
          )}
          {linkError && linkError !== VerifyLinkError.alreadyVerified && (
            <Notice tone="warning">
              <p>{verifyLinkErrorMessages[linkError]}</p>
              <ResendVerificationForm />
            </Notice>
          )}
          {unconfirmedEmail && (
            <Notice tone="warning" title="Please verify your e-mail address first.">
              {resentTo === unconfirmedEmail ? (
                <p>A new verification link is on its way to {unconfirmedEmail}.</p>
              ) : (
                <p>We sent a verification link to {unconfirmedEmail} when you signed up.</p>
              )}
              <div>
                <Button variant="secondary" size="sm" loading={resending} onClick={() => void handleResend()}>
                  Resend verification e-mail
                </Button>
              </div>
            </Notice>
          )}
        </>
      }
    >
      <EmailInput
        placeholder="you@school.org"
        value={email}
        onChange={(event) => setEmail(event.target.value)}
      />
      <PasswordInput
        autoComplete="current-password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
      />
      <p className="auth__forgot">
        <Link to="/forgot-password">Forgot password?</Link>
      </p>
    </AuthForm>
  );
}
