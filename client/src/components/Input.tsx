import clsx from 'clsx';
import { Eye, EyeOff } from 'lucide-react';
import { useState, type InputHTMLAttributes, type ReactNode } from 'react';
import { Field, type FieldOptions } from './Field';
import { usePasteCut } from './pasteCut';
import './Input.css';

export interface InputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'size'>, FieldOptions {
  /** An icon shown inside the field, before the text. */
  icon?: ReactNode;
}

/**
 * A labelled text input with an optional hint and error line, both tied to the input with
 * aria-describedby. `type="password"` adds a show/hide toggle.
 */
export function Input({ icon, type = 'text', className, hint, onPaste, ...props }: InputProps) {
  const [revealed, setRevealed] = useState(false);
  const isPassword = type === 'password';
  const cut = usePasteCut(props.maxLength, hint, onPaste);

  return (
    <Field props={{ ...props, ...cut }}>
      {(control) => (
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
            // Free text follows the direction of what is typed (Arabic, Hebrew); addresses and numbers do not.
            dir={type === 'text' || type === 'search' ? 'auto' : undefined}
            {...control}
            type={isPassword && revealed ? 'text' : type}
            className={clsx('field__input', className)}
          />
          {isPassword && (
            <button
              type="button"
              className="field__toggle"
              aria-label={revealed ? 'Hide password' : 'Show password'}
              aria-controls={control.id}
              onClick={() => setRevealed((value) => !value)}
            >
              {revealed ? <EyeOff aria-hidden="true" size={18} /> : <Eye aria-hidden="true" size={18} />}
            </button>
          )}
        </div>
      )}
    </Field>
  );
}
