import { MailCheck } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { toast } from 'sonner';
import { apiErrorMessage } from '../../api/errors';
import { resetRedirect, useRecoverPasswordMutation } from './authApi';
import { EmailInput } from './AuthFields';
import { AuthForm } from './AuthForm';
import { AuthLayout } from './AuthLayout';

/** /forgot-password: ask for a reset link. The answer is the same whether or not the address has an account. */
export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [recover, { isLoading }] = useRecoverPasswordMutation();
  const [sent, setSent] = useState<{ email: string; message: string } | null>(null);

  async function handleSubmit() {
    const address = email.trim();
    try {
      const { message } = await recover({ email: address, redirectTo: resetRedirect() }).unwrap();
      setSent({ email: address, message });
    } catch (error) {
      toast.error(apiErrorMessage(error, 'We could not send the link. Please try again.'));
    }
  }

  if (sent)
    return (
      <AuthLayout
        title="Check your e-mail"
        icon={<MailCheck size={30} />}
        focusTitle
        footer={<Link to="/login">Back to sign in</Link>}
      >
        <p className="auth__confirmation-text">{sent.message}</p>
        <p className="text-muted">
          Sent to <strong>{sent.email}</strong>. Nothing after a few minutes? Check your spam folder.
        </p>
      </AuthLayout>
    );

  return (
    <AuthForm
      title="Forgot your password?"
      subtitle="Enter your e-mail and we will send you a link to choose a new one."
      otherScreen={{ question: 'Remembered it?', to: '/login', label: 'Sign in' }}
      submitLabel="Send reset link"
      submitting={isLoading}
      onSubmit={handleSubmit}
    >
      <EmailInput
        placeholder="you@school.org"
        value={email}
        onChange={(event) => setEmail(event.target.value)}
      />
    </AuthForm>
  );
}
