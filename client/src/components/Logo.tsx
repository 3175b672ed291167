import clsx from 'clsx';
import './Logo.css';

/** The Classwave mark: a wave in a rounded square. Decorative; the name is written next to it. */
export function LogoMark({ className }: { className?: string }) {
  return (
    <svg className={clsx('logo-mark', className)} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="8" fill="currentColor" />
      <path
        d="M6 19c2.5 0 2.5-6 5-6s2.5 6 5 6 2.5-6 5-6 2.5 6 5 6"
        fill="none"
        stroke="#fff"
        strokeWidth="2.6"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/** The mark with the product name. */
export function Logo({ className, hideName = false }: { className?: string; hideName?: boolean }) {
  return (
    <span className={clsx('logo', className)}>
      <LogoMark />
      <span className={clsx('logo__name', hideName && 'sr-only')}>Classwave</span>
    </span>
  );
}
