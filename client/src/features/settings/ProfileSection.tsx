import { FULL_NAME_MAX_LENGTH } from '@classwave/shared';
import { UserRound } from 'lucide-react';
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { apiErrorMessage } from '../../api/errors';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { Button } from '../../components/Button';
import { Input } from '../../components/Input';
import { profileLoaded, selectProfile, selectSession } from '../auth/authSlice';
import { SettingsSection } from './SettingsSection';
import { useUpdateProfileMutation } from './settingsApi';

/** Name (editable), e-mail and role. A rename reaches the user's other tabs as `profile:updated`. */
export function ProfileSection() {
  const dispatch = useAppDispatch();
  const profile = useAppSelector(selectProfile);
  const email = useAppSelector(selectSession)?.user.email;
  const [fullName, setFullName] = useState(profile?.fullName ?? '');
  const [update, { isLoading }] = useUpdateProfileMutation();

  // A rename from another tab shows here too, unless this field is being edited.
  const [editing, setEditing] = useState(false);
  useEffect(() => {
    if (!editing && profile) setFullName(profile.fullName);
  }, [profile, editing]);

  const unchanged = fullName.trim() === profile?.fullName;

  async function save() {
    try {
      const updated = await update({ fullName: fullName.trim() }).unwrap();
      dispatch(profileLoaded(updated));
      setEditing(false);
      toast.success('Your name has been saved.');
    } catch (error) {
      toast.error(apiErrorMessage(error, 'We could not save your name.'));
    }
  }

  return (
    <SettingsSection id="profile" title="Profile" description="How teachers and classmates see you.">
      <form
        className="settings-form"
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <Input
          label="Full name"
          name="fullName"
          autoComplete="name"
          required
          maxLength={FULL_NAME_MAX_LENGTH}
          icon={<UserRound />}
          value={fullName}
          onChange={(event) => {
            setEditing(true);
            setFullName(event.target.value);
          }}
        />
        <dl className="settings-facts">
          <div>
            <dt>E-mail</dt>
            <dd>{email}</dd>
          </div>
          <div>
            <dt>Role</dt>
            <dd>{profile?.role === 'teacher' ? 'Teacher' : 'Student'}</dd>
          </div>
        </dl>
        <div className="settings-form__actions">
          <Button type="submit" loading={isLoading} disabled={unchanged || fullName.trim() === ''}>
            Save name
          </Button>
        </div>
      </form>
    </SettingsSection>
  );
}
