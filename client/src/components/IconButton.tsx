import clsx from 'clsx';
import type { ButtonHTMLAttributes, ReactNode } from 'react';
import './IconButton.css';

export interface IconButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'children'> {
  /** The button's accessible name, since it shows only an icon. */
  label: string;
  icon: ReactNode;
  tone?: 'neutral' | 'danger';
  /** While true the button is disabled and reports aria-busy. */
  loading?: boolean;
}

/** A square button that shows only an icon; `label` names it for screen readers and as a tooltip. */
export function IconButton({
  label,
  icon,
  tone = 'neutral',
  loading = false,
  type = 'button',
  disabled,
  className,
  ...rest
}: IconButtonProps) {
  return (
    <button
      title={label}
      {...rest}
      type={type}
      aria-label={label}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      className={clsx('icon-button', `icon-button--${tone}`, className)}
    >
      {loading ? (
        <span className="icon-button__spinner" aria-hidden="true" />
      ) : (
        <span className="icon-button__icon" aria-hidden="true">
          {icon}
        </span>
      )}
    </button>
  );
}
