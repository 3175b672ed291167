import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '../../components/Button';
import { AuthLayout } from './AuthLayout';

export interface AuthFormProps {
  title: string;
  subtitle: string;
  /** Messages above the form, e.g. that the address is now verified. */
  notices?: ReactNode;
  /** The link under the card to the other screen, e.g. "New to Classwave? Create an account". */
  otherScreen?: { question: string; to: string; label: string } | undefined;
  /** Above the form, under the notices: the school's sign-in button (DESIGN §20). */
  before?: ReactNode;
  /** No form at all (PASSWORD_SIGNIN=off: only the school's sign-in). */
  hideForm?: boolean;
  /** The submit button's label, e.g. "Sign In". */
  submitLabel: string;
  /** While true the submit button shows that it is busy and ignores clicks. */
  submitting: boolean;
  /** Called on submit (the browser's required-field checks passed; the page does not reload). */
  onSubmit: () => void | Promise<void>;
  /** The form's fields. */
  children: ReactNode;
}

/** The sign-in and sign-up screens: the auth frame around a form of fields and a wide submit button. */
export function AuthForm({
  title,
  subtitle,
  notices,
  otherScreen,
  before,
  hideForm = false,
  submitLabel,
  submitting,
  onSubmit,
  children,
}: AuthFormProps) {
  return (
    <AuthLayout
      title={title}
      subtitle={subtitle}
      footer={
        otherScreen && (
          <>
            {otherScreen.question} <Link to={otherScreen.to}>{otherScreen.label}</Link>
          </>
        )
      }
    >
      {notices}
      {before}
      {!hideForm && (
        <form
          className="auth__form"
          onSubmit={(event) => {
            event.preventDefault();
            void onSubmit();
          }}
        >
          {children}
          <Button type="submit" size="lg" fullWidth loading={submitting}>
            {submitLabel}
          </Button>
        </form>
      )}
    </AuthLayout>
  );
}
