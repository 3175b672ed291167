import clsx from 'clsx';
import { useEffect, useRef, type ReactNode } from 'react';
import { Card } from '../../components/Card';
import { Logo } from '../../components/Logo';
import { useDocumentTitle } from '../layout/usePageFocus';
import './AuthLayout.css';

export interface AuthLayoutProps {
  title: ReactNode;
  subtitle?: ReactNode;
  children: ReactNode;
  /** A line under the card, e.g. the link between sign-in and sign-up. */
  footer?: ReactNode;
  /** A picture above the title; the heading is then centred. */
  icon?: ReactNode;
  /** Move focus to the title on mount, for a screen that replaces a form (so it is announced). */
  focusTitle?: boolean;
}

/** The frame of the sign-in and sign-up screens: the product name, a tagline and a centred card. */
export function AuthLayout({ title, subtitle, children, footer, icon, focusTitle = false }: AuthLayoutProps) {
  const titleRef = useRef<HTMLHeadingElement>(null);
  // Here rather than in each page: every sign-in and sign-up screen is framed by this layout.
  useDocumentTitle();
  useEffect(() => {
    if (focusTitle) titleRef.current?.focus();
  }, [focusTitle]);

  return (
    <div className="auth">
      <main className="auth__main">
        <header className="auth__brand">
          <Logo className="auth__logo" />
          <p className="auth__tagline">Courses, assignments and grades, live for the whole class.</p>
        </header>
        <Card padding="lg" className="auth__card">
          <div className={clsx('auth__heading', icon != null && 'auth__heading--centered')}>
            {icon != null && (
              <span className="auth__heading-icon" aria-hidden="true">
                {icon}
              </span>
            )}
            <h1 ref={titleRef} className="auth__title" tabIndex={focusTitle ? -1 : undefined}>
              {title}
            </h1>
            {subtitle != null && <p className="auth__subtitle">{subtitle}</p>}
          </div>
          {children}
        </Card>
        {footer != null && <p className="auth__footer">{footer}</p>}
      </main>
    </div>
  );
}
