import { ErrorCode, PASSWORD_MIN_LENGTH } from '@classwave/shared';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { toast } from 'sonner';
import { apiErrorCode, apiErrorMessage } from '../../api/errors';
import { Notice } from '../../components/Notice';
import { useCheckResetLinkMutation, useResetPasswordMutation } from './authApi';
import { useDocumentTitle } from '../layout/usePageFocus';
import { NewPasswordInput, PasswordInput } from './AuthFields';
import { AuthForm } from './AuthForm';

/**
 * /reset-password?token=…: the page the reset e-mail opens. Choosing a new password ends every
 * session of the account (the server closes their tabs), so this tab then signs in afresh.
 */
export function ResetPasswordPage() {
  const navigate = useNavigate();
  // Outside both layouts (it opens signed in or out), so it names the document itself.
  useDocumentTitle();
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const [linkProblem, setLinkProblem] = useState<string | null>(
    token ? null : 'This page needs the link from the password-reset e-mail.',
  );
  const [reset, { isLoading }] = useResetPasswordMutation();
  const [checkLink] = useCheckResetLinkMutation();

  // A used or expired link is said as the page opens, not after the password was typed twice (issue 25).
  useEffect(() => {
    if (!token) return;
    checkLink({ token })
      .unwrap()
      .catch((error: unknown) => {
        if (apiErrorCode(error) === ErrorCode.resetLinkInvalid)
          setLinkProblem(apiErrorMessage(error, 'This password-reset link does not work.'));
      });
  }, [token, checkLink]);

  async function handleSubmit() {
    if (password !== confirm) {
      setMismatch(true);
      return;
    }
    setMismatch(false);
    try {
      const { message } = await reset({ token, password }).unwrap();
      toast.success(message);
      await navigate('/login', { replace: true });
    } catch (error) {
      const message = apiErrorMessage(error, 'We could not change your password. Please try again.');
      if (apiErrorCode(error) === ErrorCode.resetLinkInvalid) setLinkProblem(message);
      else toast.error(message);
    }
  }

  return (
    <AuthForm
      title="Choose a new password"
      subtitle="Every device signed in to your account will be signed out."
      otherScreen={{ question: 'Need a new link?', to: '/forgot-password', label: 'Send another' }}
      submitLabel="Set new password"
      submitting={isLoading}
      onSubmit={handleSubmit}
      notices={
        linkProblem && (
          <Notice tone="warning">
            <p>{linkProblem}</p>
            <p>
              <Link to="/forgot-password">Get a new reset link</Link>
            </p>
          </Notice>
        )
      }
    >
      <NewPasswordInput
        label="New password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
      />
      <PasswordInput
        label="Repeat new password"
        name="confirmPassword"
        autoComplete="new-password"
        minLength={PASSWORD_MIN_LENGTH}
        error={mismatch ? 'The two passwords are not the same.' : undefined}
        value={confirm}
        onChange={(event) => setConfirm(event.target.value)}
      />
    </AuthForm>
  );
}
