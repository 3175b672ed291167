import { useId, type ReactNode } from 'react';
import { Button } from './Button';
import { Modal, type ModalProps } from './Modal';
import './forms.css';

export interface FormModalProps extends Omit<ModalProps, 'footer' | 'children'> {
  /** The submit button's label, e.g. "Create Course". */
  submitLabel: string;
  /** While true the submit button shows that it is busy and ignores clicks. */
  submitting: boolean;
  /** The submit button is disabled: the form cannot be sent at all (the dialog says why). */
  submitDisabled?: boolean;
  /** Called on submit (the browser's required-field checks passed; the page does not reload). */
  onSubmit: () => void | Promise<void>;
  /** The form's fields. */
  children: ReactNode;
  /** Replaces the Cancel button (a dialog that cannot be dismissed offers another way out). */
  cancel?: ReactNode;
}

/**
 * A dialog around one form: the fields stacked in the body, Cancel (which closes) and the submit
 * button in the footer, tied to the form by its id.
 */
export function FormModal({
  submitLabel,
  submitting,
  submitDisabled = false,
  onSubmit,
  onClose,
  children,
  cancel,
  ...modal
}: FormModalProps) {
  const formId = useId();
  return (
    <Modal
      {...modal}
      onClose={onClose}
      footer={
        <>
          {cancel ?? (
            <Button variant="secondary" onClick={onClose}>
              Cancel
            </Button>
          )}
          <Button
            type="submit"
            form={formId}
            loading={submitting}
            {...(submitDisabled ? { disabled: true } : {})}
          >
            {submitLabel}
          </Button>
        </>
      }
    >
      <form
        id={formId}
        className="form-stack"
        onSubmit={(event) => {
          event.preventDefault();
          void onSubmit();
        }}
      >
        {children}
      </form>
    </Modal>
  );
}
