import { ErrorCode, PASSWORD_MAX_LENGTH } from '@classwave/shared';
import { Download, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { apiErrorCode, apiErrorMessage } from '../../api/errors';
import { useAppDispatch } from '../../app/hooks';
import { Button } from '../../components/Button';
import { Modal } from '../../components/Modal';
import { Notice } from '../../components/Notice';
import { saveFile } from '../../components/saveFile';
import { broadcastAuth } from '../auth/authChannel';
import { downloadMyFiles } from '../files/fileAccess';
import { PasswordInput } from '../auth/AuthFields';
import { signedOut } from '../auth/authSlice';
import { SettingsSection } from './SettingsSection';
import { useDeleteAccountMutation, useExportDataMutation } from './settingsApi';

/** Download my data, and delete my account (asks the password). */
export function DataSection() {
  const [exportData, { isLoading: exporting }] = useExportDataMutation();
  const [confirming, setConfirming] = useState(false);
  const [zipping, setZipping] = useState(false);
  const dispatch = useAppDispatch();

  async function handleFiles() {
    setZipping(true);
    try {
      await downloadMyFiles(dispatch);
    } catch {
      toast.error('We could not prepare your files.');
    } finally {
      setZipping(false);
    }
  }

  async function handleExport() {
    try {
      saveFile(
        new Blob([JSON.stringify(await exportData().unwrap(), null, 2)], { type: 'application/json' }),
        'classwave-my-data.json',
      );
    } catch (error) {
      toast.error(apiErrorMessage(error, 'We could not prepare your data.'));
    }
  }

  return (
    <SettingsSection
      id="data"
      title="Your data"
      description="Download everything Classwave keeps about you, or delete your account."
    >
      <div className="settings-data">
        <div className="settings-data__row">
          <p>
            Your profile, courses, submissions with grades and feedback, and assistant chats, as a JSON file.
          </p>
          <Button
            variant="secondary"
            icon={<Download size={16} />}
            loading={exporting}
            onClick={() => void handleExport()}
          >
            Download my data
          </Button>
        </div>
        <div className="settings-data__row">
          <p>The files you uploaded (your work, materials, feedback files), as one zip.</p>
          <Button
            variant="secondary"
            icon={<Download size={16} />}
            loading={zipping}
            onClick={() => void handleFiles()}
          >
            Download my files
          </Button>
        </div>
        <div className="settings-data__row">
          <p>
            Deleting your account removes your profile, sessions and chats, and a student&apos;s submissions
            and grades. It cannot be undone.
          </p>
          <Button variant="danger" icon={<Trash2 size={16} />} onClick={() => setConfirming(true)}>
            Delete my account
          </Button>
        </div>
      </div>
      <DeleteAccountModal open={confirming} onClose={() => setConfirming(false)} />
    </SettingsSection>
  );
}

function DeleteAccountModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [blocked, setBlocked] = useState<string | null>(null);
  const [remove, { isLoading }] = useDeleteAccountMutation();

  async function handleDelete() {
    setBlocked(null);
    try {
      await remove({ password }).unwrap();
      dispatch(signedOut());
      broadcastAuth({ type: 'signed-out' });
      toast.success('Your account has been deleted.');
      await navigate('/login', { replace: true });
    } catch (error) {
      const message = apiErrorMessage(error, 'We could not delete your account.');
      if (apiErrorCode(error) === ErrorCode.ownsCourses) setBlocked(message);
      else toast.error(message);
    }
  }

  const formId = 'delete-account-form';
  return (
    <Modal
      open={open}
      onClose={onClose}
      title="Delete your account?"
      description="Enter your password to confirm. This cannot be undone."
      size="sm"
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="danger" type="submit" form={formId} loading={isLoading}>
            Delete my account
          </Button>
        </>
      }
    >
      <form
        id={formId}
        className="settings-form"
        onSubmit={(event) => {
          event.preventDefault();
          void handleDelete();
        }}
      >
        {blocked && <Notice tone="warning">{blocked}</Notice>}
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          maxLength={PASSWORD_MAX_LENGTH}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
      </form>
    </Modal>
  );
}
