import clsx from 'clsx';
import { CircleAlert, CircleCheck, Info, TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import './Notice.css';

export interface NoticeProps {
  tone?: 'info' | 'success' | 'warning' | 'danger';
  title?: ReactNode;
  children?: ReactNode;
  className?: string;
}

const icons = { info: Info, success: CircleCheck, warning: TriangleAlert, danger: CircleAlert };

/** An inline message box. Warnings and errors are announced as alerts, the rest as status. */
export function Notice({ tone = 'info', title, children, className }: NoticeProps) {
  const Icon = icons[tone];
  return (
    <div
      role={tone === 'warning' || tone === 'danger' ? 'alert' : 'status'}
      className={clsx('notice', `notice--${tone}`, className)}
    >
      <Icon className="notice__icon" aria-hidden="true" size={20} />
      <div className="notice__content">
        {title != null && <p className="notice__title">{title}</p>}
        {children}
      </div>
    </div>
  );
}
