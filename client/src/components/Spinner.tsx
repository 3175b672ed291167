import clsx from 'clsx';
import './Spinner.css';

export interface SpinnerProps {
  /** What is loading, read by screen readers. */
  label?: string;
  size?: 'sm' | 'md' | 'lg';
  className?: string;
}

/** A spinning ring announced as a status with an accessible label. */
export function Spinner({ label = 'Loading', size = 'md', className }: SpinnerProps) {
  return (
    <span role="status" aria-label={label} className={clsx('spinner', `spinner--${size}`, className)}>
      <span className="spinner__ring" aria-hidden="true" />
    </span>
  );
}

/** The spinner centred in the viewport, for whole-page waits such as restoring the session. */
export function FullPageSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="spinner-page">
      <Spinner size="lg" label={label} />
    </div>
  );
}
