import clsx from 'clsx';
import { ChevronDown } from 'lucide-react';
import { useId, type ComponentProps, type ReactNode } from 'react';
import './Input.css';
import './Select.css';

export interface SelectProps extends ComponentProps<'select'> {
  /** The visible label, bound to the select. */
  label: ReactNode;
  /** A standing hint under the field. */
  hint?: ReactNode;
  /** An error for this field; marks it invalid and is announced with it. */
  error?: ReactNode;
  /** The wrapper's class; `className` styles the select itself. */
  containerClassName?: string;
}

/** A labelled native select (keyboard and screen-reader friendly on every platform), styled like `Input`. */
export function Select({
  label,
  hint,
  error,
  id,
  className,
  containerClassName,
  children,
  ...rest
}: SelectProps) {
  const generatedId = useId();
  const fieldId = id ?? generatedId;
  const hintId = `${fieldId}-hint`;
  const errorId = `${fieldId}-error`;
  const describedBy =
    clsx(hint != null && hintId, error != null && errorId, rest['aria-describedby']) || undefined;

  return (
    <div className={clsx('field', error != null && 'field--invalid', containerClassName)}>
      <label className="field__label" htmlFor={fieldId}>
        {label}
      </label>
      <div className="field__control">
        <select
          {...rest}
          id={fieldId}
          className={clsx('field__input', 'field__input--select', className)}
          aria-invalid={error != null ? true : rest['aria-invalid']}
          aria-describedby={describedBy}
        >
          {children}
        </select>
        <ChevronDown className="field__chevron" aria-hidden="true" size={18} />
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
