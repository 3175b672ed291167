import { firstName, greetingFor } from '@classwave/shared';
import { useAppSelector } from '../../app/hooks';
import { PageHeader } from '../../components/PageHeader';
import { selectProfile } from '../auth/authSlice';

/** The dashboard (spec §2). For now the greeting; the stat cards and upcoming events come next. */
export function DashboardPage() {
  const profile = useAppSelector(selectProfile);
  const role = profile?.role ?? 'student';
  return (
    <PageHeader
      title={`${greetingFor(new Date())}, ${firstName(profile?.fullName)}!`}
      subtitle={`Welcome to your ${role} dashboard`}
    />
  );
}
