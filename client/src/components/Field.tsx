import clsx from 'clsx';
import { useId, type AriaAttributes, type ReactNode } from 'react';
import './Field.css';

/** What every labelled control (`Input`, `Select`, `Textarea`) takes besides its own attributes. */
export interface FieldOptions {
  /** The visible label, bound to the control. */
  label: ReactNode;
  /** A standing hint under the field, such as a password rule. */
  hint?: ReactNode;
  /** An error for this field; marks the control invalid and is announced with it. */
  error?: ReactNode;
  /** The wrapper's class; `className` styles the control itself. */
  containerClassName?: string;
}

/** A control's own attributes that the field combines with its label, hint and error. */
interface ControlAttributes {
  id?: string;
  'aria-invalid'?: AriaAttributes['aria-invalid'];
  'aria-describedby'?: string;
}

export interface FieldProps<P extends FieldOptions & ControlAttributes> {
  /** The control's props, field options included. */
  props: P;
  /** Renders the control (and whatever sits around it) from its props, now tied to the field. */
  children: (control: Omit<P, keyof FieldOptions> & { id: string }) => ReactNode;
}

/**
 * The label, hint and error line around one form control, tied to it with `htmlFor`,
 * aria-describedby (hint, then error, then the control's own) and aria-invalid.
 */
export function Field<P extends FieldOptions & ControlAttributes>({ props, children }: FieldProps<P>) {
  const { label, hint, error, containerClassName, ...control } = props;
  const generatedId = useId();
  const id = control.id ?? generatedId;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;

  return (
    <div className={clsx('field', error != null && 'field--invalid', containerClassName)}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {children({
        ...control,
        id,
        'aria-invalid': error != null ? true : control['aria-invalid'],
        'aria-describedby':
          clsx(hint != null && hintId, error != null && errorId, control['aria-describedby']) || undefined,
      })}
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
