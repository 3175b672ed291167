import type { ReactNode } from 'react';
import { Card } from '../../components/Card';

/** One titled card of the settings page. */
export function SettingsSection({
  id,
  title,
  description,
  children,
}: {
  id: string;
  title: string;
  description?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card as="section" padding="lg" className="settings-section" aria-labelledby={`${id}-title`}>
      <header className="settings-section__header">
        <h2 id={`${id}-title`} className="settings-section__title">
          {title}
        </h2>
        {description && <p className="settings-section__description">{description}</p>}
      </header>
      {children}
    </Card>
  );
}
