import clsx from 'clsx';
import type { TextareaHTMLAttributes } from 'react';
import { Field, type FieldOptions } from './Field';
import { usePasteCut } from './pasteCut';
import './Textarea.css';

export interface TextareaProps extends TextareaHTMLAttributes<HTMLTextAreaElement>, FieldOptions {}

/**
 * A labelled multi-line text field, styled and described like `Input`. Direction follows what is
 * typed (`dir="auto"`): an Arabic or Hebrew answer reads from the right.
 */
export function Textarea({ rows = 4, className, hint, onPaste, ...props }: TextareaProps) {
  const cut = usePasteCut(props.maxLength, hint, onPaste);
  return (
    <Field props={{ ...props, ...cut }}>
      {(control) => (
        <textarea
          dir="auto"
          {...control}
          rows={rows}
          className={clsx('field__input', 'field__input--textarea', className)}
        />
      )}
    </Field>
  );
}
