import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { toast } from 'sonner';
import { apiErrorMessage } from '../../api/errors';
import { Button } from '../../components/Button';
import { useResendVerificationMutation, verificationRedirect } from './authApi';
import { EmailInput } from './AuthFields';
import { NEXT_PARAM, safeNextPath } from './nextPath';

/**
 * Sends a new verification link, toasts the server's answer and reports whether it was sent. The
 * link returns to the page the visitor was on the way to (`?next=`), like the sign-up's link.
 */
export function useResendVerification() {
  const [resend, { isLoading }] = useResendVerificationMutation();
  const [searchParams] = useSearchParams();
  const next = safeNextPath(searchParams.get(NEXT_PARAM));
  async function send(email: string): Promise<boolean> {
    try {
      const { message } = await resend({ email, redirectTo: verificationRedirect(next) }).unwrap();
      toast.success(message);
      return true;
    } catch (error) {
      toast.error(apiErrorMessage(error, 'Could not send the verification e-mail.'));
      return false;
    }
  }
  return { send, sending: isLoading };
}

/** An e-mail field and a button that asks for a new verification link (after a bad or old link). */
export function ResendVerificationForm({ initialEmail = '' }: { initialEmail?: string }) {
  const [email, setEmail] = useState(initialEmail);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { send, sending } = useResendVerification();

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (await send(email.trim())) setSentTo(email.trim());
  }

  return (
    <form className="auth__inline-form" onSubmit={(event) => void handleSubmit(event)}>
      <EmailInput
        label="Your e-mail address"
        name="resend-email"
        value={email}
        onChange={(event) => setEmail(event.target.value)}
      />
      <Button type="submit" variant="secondary" loading={sending}>
        Resend verification e-mail
      </Button>
      {sentTo && (
        <p className="text-muted">If {sentTo} is waiting for verification, a new link is on its way.</p>
      )}
    </form>
  );
}
