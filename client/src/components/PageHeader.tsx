import type { ReactNode } from 'react';
import './PageHeader.css';

export interface PageHeaderProps {
  title: ReactNode;
  subtitle?: ReactNode;
  /** Buttons on the right, e.g. "Create Course". */
  actions?: ReactNode;
}

/** A page's title (its one h1), an optional line under it and its main actions. */
export function PageHeader({ title, subtitle, actions }: PageHeaderProps) {
  return (
    <header className="page-header">
      <div className="page-header__text">
        <h1 className="page-header__title">{title}</h1>
        {subtitle != null && <p className="page-header__subtitle">{subtitle}</p>}
      </div>
      {actions != null && <div className="page-header__actions">{actions}</div>}
    </header>
  );
}
