import { useState } from 'react';
import { toast } from 'sonner';
import { ErrorCode } from '@classwave/shared';
import { apiErrorCode, apiErrorMessage } from '../../api/errors';
import { Button } from '../../components/Button';
import { NewPasswordInput, PasswordInput } from '../auth/AuthFields';
import { SettingsSection } from './SettingsSection';
import { useChangePasswordMutation } from './settingsApi';

const CURRENT_ID = 'settings-current-password';

/** Change the password: asks for the current one; the server then signs out every other session. */
export function PasswordSection() {
  const [currentPassword, setCurrent] = useState('');
  const [newPassword, setNew] = useState('');
  // A wrong current password is said under its field, where the fix is (a toast alone vanished).
  const [currentError, setCurrentError] = useState<string | null>(null);
  const [change, { isLoading }] = useChangePasswordMutation();

  async function save() {
    setCurrentError(null);
    try {
      const { message } = await change({ currentPassword, newPassword }).unwrap();
      setCurrent('');
      setNew('');
      toast.success(message);
    } catch (error) {
      const message = apiErrorMessage(error, 'We could not change your password.');
      if (apiErrorCode(error) === ErrorCode.wrongPassword) {
        setCurrentError(message);
        document.getElementById(CURRENT_ID)?.focus();
      } else toast.error(message);
    }
  }

  return (
    <SettingsSection
      id="password"
      title="Password"
      description="Changing it signs you out on every other device."
    >
      <form
        className="settings-form"
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <PasswordInput
          label="Current password"
          name="currentPassword"
          autoComplete="current-password"
          id={CURRENT_ID}
          value={currentPassword}
          error={currentError ?? undefined}
          onChange={(event) => {
            setCurrent(event.target.value);
            setCurrentError(null);
          }}
        />
        <NewPasswordInput
          label="New password"
          name="newPassword"
          value={newPassword}
          onChange={(event) => setNew(event.target.value)}
        />
        <div className="settings-form__actions">
          <Button type="submit" loading={isLoading}>
            Change password
          </Button>
        </div>
      </form>
    </SettingsSection>
  );
}
