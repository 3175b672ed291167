import { useState } from 'react';
import { toast } from 'sonner';
import { apiErrorMessage } from '../../api/errors';
import { Button } from '../../components/Button';
import { NewPasswordInput, PasswordInput } from '../auth/AuthFields';
import { SettingsSection } from './SettingsSection';
import { useChangePasswordMutation } from './settingsApi';

/** Change the password: asks for the current one; the server then signs out every other session. */
export function PasswordSection() {
  const [currentPassword, setCurrent] = useState('');
  const [newPassword, setNew] = useState('');
  const [change, { isLoading }] = useChangePasswordMutation();

  async function save() {
    try {
      const { message } = await change({ currentPassword, newPassword }).unwrap();
      setCurrent('');
      setNew('');
      toast.success(message);
    } catch (error) {
      toast.error(apiErrorMessage(error, 'We could not change your password.'));
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
          value={currentPassword}
          onChange={(event) => setCurrent(event.target.value)}
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
