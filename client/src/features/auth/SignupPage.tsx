import { FULL_NAME_MAX_LENGTH, type Role } from '@classwave/shared';
import { KeyRound, MailCheck, UserRound } from 'lucide-react';
import { useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { toast } from 'sonner';
import { apiErrorMessage } from '../../api/errors';
import { Button } from '../../components/Button';
import { Input } from '../../components/Input';
import { useGetAuthSettingsQuery, useSignUpMutation, verificationRedirect } from './authApi';
import { EmailInput, NewPasswordInput } from './AuthFields';
import { AuthForm } from './AuthForm';
import { AuthLayout } from './AuthLayout';
import { useResendVerification } from './ResendVerification';
import { NEXT_PARAM, safeNextPath, withNext } from './nextPath';
import { RoleChoice } from './RoleChoice';

/** /signup: create an account, then wait for the verification e-mail. */
export function SignupPage() {
  const [fullName, setFullName] = useState('');
  const [role, setRole] = useState<Role>('student');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [teacherCode, setTeacherCode] = useState('');
  const { data: settings } = useGetAuthSettingsQuery();
  const policy = settings?.teacherSignup ?? 'open';
  const [signUp, { isLoading }] = useSignUpMutation();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [searchParams] = useSearchParams();
  const next = safeNextPath(searchParams.get(NEXT_PARAM));

  async function handleSubmit() {
    const address = email.trim();
    try {
      await signUp({
        email: address,
        password,
        fullName: fullName.trim(),
        role,
        redirectTo: verificationRedirect(next),
        ...(role === 'teacher' && policy === 'code' ? { teacherCode: teacherCode.trim() } : {}),
      }).unwrap();
      setSentTo(address);
    } catch (error) {
      toast.error(apiErrorMessage(error, 'Sign up failed'));
    }
  }

  if (sentTo !== null) return <VerificationSent email={sentTo} />;
  // PASSWORD_SIGNIN=off (DESIGN §20): accounts come from the school's sign-in, on the login page.
  if (settings?.passwordSignin === false) return <Navigate to={withNext('/login', next)} replace />;

  return (
    <AuthForm
      title="Create your account"
      subtitle="Join your courses, hand in work and follow your grades as they come in."
      otherScreen={{ question: 'Already have an account?', to: withNext('/login', next), label: 'Sign in' }}
      submitLabel="Create Account"
      submitting={isLoading}
      onSubmit={handleSubmit}
    >
      <Input
        label="Full name"
        name="fullName"
        autoComplete="name"
        placeholder="e.g. Ada Lovelace"
        required
        maxLength={FULL_NAME_MAX_LENGTH}
        icon={<UserRound />}
        value={fullName}
        onChange={(event) => setFullName(event.target.value)}
      />
      <RoleChoice value={role} onChange={setRole} />
      {role === 'teacher' && policy === 'code' && (
        <Input
          label="Teacher invite code"
          name="teacherCode"
          autoComplete="off"
          required
          maxLength={200}
          icon={<KeyRound />}
          hint="Your school gives teachers this code."
          value={teacherCode}
          onChange={(event) => setTeacherCode(event.target.value)}
        />
      )}
      {role === 'teacher' && policy === 'domains' && settings?.domains && (
        <p className="text-muted auth__hint">
          Teacher accounts use a school address ending in {settings.domains.map((d) => `@${d}`).join(' or ')}.
        </p>
      )}
      <EmailInput
        placeholder="you@school.org"
        value={email}
        onChange={(event) => setEmail(event.target.value)}
      />
      <NewPasswordInput value={password} onChange={(event) => setPassword(event.target.value)} />
    </AuthForm>
  );
}

/** The screen after a successful sign-up (spec §2). */
function VerificationSent({ email }: { email: string }) {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const next = safeNextPath(searchParams.get(NEXT_PARAM));
  const { send, sending } = useResendVerification();

  return (
    <AuthLayout title="Verification Email Sent!" icon={<MailCheck size={30} />} focusTitle>
      <div className="auth__confirmation">
        <p className="auth__confirmation-text">
          We sent a verification link to <strong>{email}</strong>. Open it to confirm your address, then sign
          in.
        </p>
        <Button size="lg" fullWidth onClick={() => void navigate(withNext('/login', next))}>
          Back to Sign In
        </Button>
        <p className="text-muted">
          No e-mail after a few minutes? Check your spam folder or{' '}
          <button
            type="button"
            className="auth__text-button"
            disabled={sending}
            onClick={() => void send(email)}
          >
            send it again
          </button>
          .
        </p>
      </div>
    </AuthLayout>
  );
}
