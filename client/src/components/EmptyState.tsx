import clsx from 'clsx';
import type { ReactNode } from 'react';
import './EmptyState.css';

export interface EmptyStateProps {
  /** A decorative icon above the title. */
  icon?: ReactNode;
  title: ReactNode;
  children?: ReactNode;
  /** A button or link that gets the user going, e.g. "Create First Course". */
  action?: ReactNode;
  /** The heading level that fits the page outline; h2 by default. */
  headingLevel?: 2 | 3;
  className?: string;
}

/** What a list shows when it has nothing to show: an icon, a title, a hint and maybe an action. */
export function EmptyState({ icon, title, children, action, headingLevel = 2, className }: EmptyStateProps) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <div className={clsx('empty-state', className)}>
      {icon != null && (
        <span className="empty-state__icon" aria-hidden="true">
          {icon}
        </span>
      )}
      <Heading className="empty-state__title">{title}</Heading>
      {children != null && <div className="empty-state__text">{children}</div>}
      {action != null && <div className="empty-state__action">{action}</div>}
    </div>
  );
}
