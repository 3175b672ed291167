import clsx from 'clsx';
import type { ButtonHTMLAttributes, ReactNode } from 'react';
import './Button.css';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: 'primary' | 'secondary' | 'ghost' | 'danger';
  size?: 'sm' | 'md' | 'lg';
  /** While true the button is disabled, shows a spinner and reports aria-busy. */
  loading?: boolean;
  /** An icon before the label; replaced by the spinner while loading. */
  icon?: ReactNode;
  fullWidth?: boolean;
}

/**
 * The one button of the app. While loading, the spinner is decorative: aria-busy and the disabled
 * state carry the meaning, and the label stays so the button keeps its name.
 * `type` defaults to "button" so that only submit buttons submit.
 */
export function Button({
  variant = 'primary',
  size = 'md',
  loading = false,
  icon,
  fullWidth = false,
  type = 'button',
  disabled,
  className,
  children,
  ...rest
}: ButtonProps) {
  return (
    <button
      {...rest}
      type={type}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      className={clsx(
        'button',
        `button--${variant}`,
        `button--${size}`,
        fullWidth && 'button--full',
        loading && 'button--loading',
        className,
      )}
    >
      {loading ? (
        <span className="button__icon" aria-hidden="true">
          <span className="button__spinner" />
        </span>
      ) : (
        icon && (
          <span className="button__icon" aria-hidden="true">
            {icon}
          </span>
        )
      )}
      {children}
    </button>
  );
}
