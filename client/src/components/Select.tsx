import clsx from 'clsx';
import { ChevronDown } from 'lucide-react';
import type { ComponentProps } from 'react';
import { Field, type FieldOptions } from './Field';
import './Select.css';

export interface SelectProps extends ComponentProps<'select'>, FieldOptions {}

/** A labelled native select (keyboard and screen-reader friendly on every platform), styled like `Input`. */
export function Select({ className, children, ...props }: SelectProps) {
  return (
    <Field props={props}>
      {(control) => (
        <div className="field__control">
          <select {...control} className={clsx('field__input', 'field__input--select', className)}>
            {children}
          </select>
          <ChevronDown className="field__chevron" aria-hidden="true" size={18} />
        </div>
      )}
    </Field>
  );
}
