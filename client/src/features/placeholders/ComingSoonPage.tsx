import { MessageSquare, Settings, Users, Video, type LucideIcon } from 'lucide-react';
import { Card } from '../../components/Card';
import { PageHeader } from '../../components/PageHeader';
import './placeholders.css';

const sections = {
  liveClasses: {
    title: 'Live Classes',
    icon: Video,
    description: 'Scheduling and joining classes in real time.',
  },
  teams: {
    title: 'Teams',
    icon: Users,
    description: 'Study groups and project teams for your courses.',
  },
  messages: {
    title: 'Messages',
    icon: MessageSquare,
    description: 'Conversations between teachers and students.',
  },
  settings: {
    title: 'Settings',
    icon: Settings,
    description: 'Your profile, notifications and preferences.',
  },
} satisfies Record<string, { title: string; icon: LucideIcon; description: string }>;

export type ComingSoonSection = keyof typeof sections;

/** The placeholder of spec §1 for sections that are not built yet. */
export function ComingSoonPage({ section }: { section: ComingSoonSection }) {
  const { title, icon: Icon, description } = sections[section];
  return (
    <>
      <PageHeader title={title} />
      <Card as="section" padding="lg" className="coming-soon" aria-labelledby={`coming-soon-${section}`}>
        <span className="coming-soon__icon" aria-hidden="true">
          <Icon size={28} />
        </span>
        <h2 id={`coming-soon-${section}`} className="coming-soon__title">
          Coming soon
        </h2>
        <p className="coming-soon__text">
          {description} We are working on it, and it will appear here as soon as it is ready.
        </p>
      </Card>
    </>
  );
}
