import clsx from 'clsx';
import { useId, type ReactNode, type TextareaHTMLAttributes } from 'react';
import './Input.css';
import './Textarea.css';

export interface TextareaProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  /** The visible label, bound to the text area. */
  label: ReactNode;
  /** A standing hint under the field. */
  hint?: ReactNode;
  /** An error for this field; marks it invalid and is announced with it. */
  error?: ReactNode;
  /** The wrapper's class; `className` styles the text area itself. */
  containerClassName?: string;
}

/** A labelled multi-line text field, styled and described like `Input`. */
export function Textarea({
  label,
  hint,
  error,
  id,
  rows = 4,
  className,
  containerClassName,
  ...rest
}: TextareaProps) {
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
      <textarea
        {...rest}
        id={fieldId}
        rows={rows}
        className={clsx('field__input', 'field__input--textarea', className)}
        aria-invalid={error != null ? true : rest['aria-invalid']}
        aria-describedby={describedBy}
      />
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
