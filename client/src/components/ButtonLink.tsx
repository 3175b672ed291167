import clsx from 'clsx';
import type { ReactNode } from 'react';
import { Link, type LinkProps } from 'react-router-dom';
import './Button.css';
import './ButtonLink.css';

export interface ButtonLinkProps extends LinkProps {
  variant?: 'primary' | 'secondary' | 'ghost';
  size?: 'sm' | 'md' | 'lg';
  /** An icon before the label. */
  icon?: ReactNode;
  fullWidth?: boolean;
}

/** A router link that looks like a `Button`: for actions that go somewhere rather than do something. */
export function ButtonLink({
  variant = 'primary',
  size = 'md',
  icon,
  fullWidth = false,
  className,
  children,
  ...rest
}: ButtonLinkProps) {
  return (
    <Link
      {...rest}
      className={clsx(
        'button',
        `button--${variant}`,
        `button--${size}`,
        fullWidth && 'button--full',
        'button--link',
        className,
      )}
    >
      {icon != null && (
        <span className="button__icon" aria-hidden="true">
          {icon}
        </span>
      )}
      {children}
    </Link>
  );
}
