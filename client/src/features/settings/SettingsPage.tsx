import { PageHeader } from '../../components/PageHeader';
import { DataSection } from './DataSection';
import { NotificationsSection } from './NotificationsSection';
import { PasswordSection } from './PasswordSection';
import { ProfileSection } from './ProfileSection';
import { SessionsSection } from './SessionsSection';
import './SettingsPage.css';

/** /settings: profile, password, notifications (DESIGN §14), sessions and the user's data (DESIGN §15). */
export function SettingsPage() {
  return (
    <>
      <PageHeader title="Settings" subtitle="Your profile, password, notifications, sessions and data." />
      <div className="settings">
        <ProfileSection />
        <PasswordSection />
        <NotificationsSection />
        <SessionsSection />
        <DataSection />
      </div>
    </>
  );
}
