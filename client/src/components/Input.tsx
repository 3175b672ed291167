import clsx from 'clsx';
import { Eye, EyeOff } from 'lucide-react';
import { useId, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import './Input.css';

export interface InputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'size'> {
  /** The visible label, bound to the input. */
  label: ReactNode;
  /** A standing hint under the field, such as a password rule. */
  hint?: ReactNode;
  /** An error for this field; marks it invalid and is announced with it. */
  error?: ReactNode;
  /** An icon shown inside the field, before the text. */
  icon?: ReactNode;
  /** The wrapper's class; `className` styles the input itself. */
  containerClassName?: string;
}

/**
 * A labelled text input with an optional hint and error line, both tied to the input with
 * aria-describedby. `type="password"` adds a show/hide toggle.
 */
export function Input({
  label,
  hint,
  error,
  icon,
  id,
  type = 'text',
  className,
  containerClassName,
  ...rest
}: InputProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const [revealed, setRevealed] = useState(false);
  const isPassword = type === 'password';
  const describedBy =
    clsx(hint != null && hintId, error != null && errorId, rest['aria-describedby']) || undefined;

  return (
    <div className={clsx('field', error != null && 'field--invalid', containerClassName)}>
      <label className="field__label" htmlFor={inputId}>
        {label}
      </label>
      <div
        className={clsx(
          'field__control',
          icon != null && 'field__control--icon',
          isPassword && 'field__control--toggle',
        )}
      >
        {icon != null && (
          <span className="field__icon" aria-hidden="true">
            {icon}
          </span>
        )}
        <input
          {...rest}
          id={inputId}
          type={isPassword && revealed ? 'text' : type}
          className={clsx('field__input', className)}
          aria-invalid={error != null ? true : rest['aria-invalid']}
          aria-describedby={describedBy}
        />
        {isPassword && (
          <button
            type="button"
            className="field__toggle"
            aria-label={revealed ? 'Hide password' : 'Show password'}
            aria-controls={inputId}
            onClick={() => setRevealed((value) => !value)}
          >
            {revealed ? <EyeOff aria-hidden="true" size={18} /> : <Eye aria-hidden="true" size={18} />}
          </button>
        )}
      </div>
      {hint != null && (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      )}
      {error != null && (
        <p id={errorId} className="field__error">
          {error}
        </p>
      )}
    </div>
  );
}
