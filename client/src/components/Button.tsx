import clsx from 'clsx';
import type { ButtonHTMLAttributes, MouseEvent, ReactNode } from 'react';
import './Button.css';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: 'primary' | 'secondary' | 'ghost' | 'danger';
  size?: 'sm' | 'md' | 'lg';
  /** While true the button ignores clicks, shows a spinner and reports aria-busy and aria-disabled. */
  loading?: boolean;
  /** An icon before the label; replaced by the spinner while loading. */
  icon?: ReactNode;
  fullWidth?: boolean;
}

/**
 * The one button of the app. While loading it is aria-disabled rather than disabled: a browser
 * moves focus off a disabled button to <body>, and a keyboard user who pressed Enter on it would
 * be dropped out of the form or dialog. So it stays focusable and ignores clicks instead (which
 * also stops a submit button from submitting again). The spinner is decorative: aria-busy carries
 * the meaning, and the label stays so the button keeps its name.
 * `type` defaults to "button" so that only submit buttons submit.
 */
export function Button({
  variant = 'primary',
  size = 'md',
  loading = false,
  icon,
  fullWidth = false,
  type = 'button',
  className,
  children,
  onClick,
  ...rest
}: ButtonProps) {
  function handleClick(event: MouseEvent<HTMLButtonElement>) {
    if (loading) {
      // Cancels the default action too: a form's submission, also the implicit one on Enter.
      event.preventDefault();
      return;
    }
    onClick?.(event);
  }

  return (
    <button
      {...rest}
      type={type}
      aria-disabled={loading || rest['aria-disabled']}
      aria-busy={loading || undefined}
      onClick={handleClick}
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
