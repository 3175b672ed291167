import { EMAIL_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@classwave/shared';
import { LockKeyhole, Mail } from 'lucide-react';
import { Input, type InputProps } from '../../components/Input';

type AuthInputProps = Omit<InputProps, 'type' | 'icon' | 'label'> & Partial<Pick<InputProps, 'label'>>;

/** A required e-mail address field with the mail icon, labelled "Email" unless told otherwise. */
export function EmailInput({ label = 'Email', ...props }: AuthInputProps) {
  return (
    <Input
      label={label}
      type="email"
      name="email"
      autoComplete="email"
      required
      maxLength={EMAIL_MAX_LENGTH}
      icon={<Mail />}
      {...props}
    />
  );
}

/**
 * A required password field with the lock icon and the show/hide toggle. `autoComplete` says
 * whether it asks for the current password or sets a new one, for password managers.
 */
export function PasswordInput(props: AuthInputProps & { autoComplete: 'current-password' | 'new-password' }) {
  return (
    <Input
      label="Password"
      type="password"
      name="password"
      required
      maxLength={PASSWORD_MAX_LENGTH}
      icon={<LockKeyhole />}
      {...props}
    />
  );
}

/** A password being chosen (sign-up, reset, change): the length rule is enforced and said under the field. */
export function NewPasswordInput(props: Omit<AuthInputProps, 'minLength' | 'hint' | 'autoComplete'>) {
  return (
    <PasswordInput
      autoComplete="new-password"
      minLength={PASSWORD_MIN_LENGTH}
      hint={`${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters.`}
      {...props}
    />
  );
}
