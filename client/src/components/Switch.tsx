import clsx from 'clsx';
import type { ReactNode } from 'react';
import './Switch.css';

export interface SwitchProps {
  checked: boolean;
  onChange: (on: boolean) => void;
  label: ReactNode;
  /** True while the change is being saved. */
  busy?: boolean;
  className?: string;
}

/** An on/off setting: a button with the `switch` role, its label beside the track. */
export function Switch({ checked, onChange, label, busy, className }: SwitchProps) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      aria-busy={busy || undefined}
      className={clsx('switch', className)}
      onClick={() => onChange(!checked)}
    >
      <span className="switch__track" aria-hidden="true">
        <span className="switch__thumb" />
      </span>
      {label}
    </button>
  );
}
