import clsx from 'clsx';
import type { ReactNode } from 'react';
import './Badge.css';

export type BadgeTone = 'neutral' | 'primary' | 'success' | 'warning' | 'danger';

export interface BadgeProps {
  tone?: BadgeTone;
  /** A small icon before the text; the text alone carries the meaning. */
  icon?: ReactNode;
  children: ReactNode;
  className?: string;
}

/** A small pill with a short label, such as a status. Its colours meet WCAG AA on their backgrounds. */
export function Badge({ tone = 'neutral', icon, children, className }: BadgeProps) {
  return (
    <span className={clsx('badge', `badge--${tone}`, className)}>
      {icon != null && (
        <span className="badge__icon" aria-hidden="true">
          {icon}
        </span>
      )}
      {children}
    </span>
  );
}
