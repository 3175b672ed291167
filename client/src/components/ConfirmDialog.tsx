import { useCallback, useRef, useState, type ReactNode } from 'react';
import { Button } from './Button';
import { Modal } from './Modal';

export interface ConfirmDialogProps {
  open: boolean;
  title: ReactNode;
  /** What will happen, read before the buttons (the dialog's accessible description). */
  description?: ReactNode;
  /** More detail under the description (e.g. what a delete moves to the bin). */
  children?: ReactNode;
  /** The confirming button, named by the action ("Delete assignment", "Reset code"), never "OK". */
  confirmLabel: string;
  cancelLabel?: string;
  /** `danger` for what takes something away (the default), `primary` for the rest. */
  tone?: 'danger' | 'primary';
  /** Shows the confirming button busy while the action runs. */
  busy?: boolean;
  onConfirm: () => void;
  /** Cancel, the X, Escape and a backdrop click. */
  onCancel: () => void;
}

/**
 * The app's own "Are you sure?" (DESIGN §17), in place of the browser's `confirm`: a Modal, so
 * focus is trapped inside and returns where it was, and Escape cancels. Focus starts on Cancel,
 * so a stray Enter never destroys anything.
 */
export function ConfirmDialog({
  open,
  title,
  description,
  children,
  confirmLabel,
  cancelLabel = 'Cancel',
  tone = 'danger',
  busy = false,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  return (
    <Modal
      open={open}
      onClose={onCancel}
      title={title}
      description={description}
      size="sm"
      role="alertdialog"
      className="confirm-dialog"
      footer={
        <>
          <Button variant="secondary" onClick={onCancel}>
            {cancelLabel}
          </Button>
          <Button variant={tone} loading={busy} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      {children}
    </Modal>
  );
}

export type ConfirmOptions = Omit<ConfirmDialogProps, 'open' | 'onConfirm' | 'onCancel' | 'busy'>;

/**
 * `await confirm({ title, confirmLabel })` → true when confirmed, false when cancelled: the
 * browser's `confirm` as a promise over the app's dialog. Render `dialog` once in the component.
 */
export function useConfirm(): [(options: ConfirmOptions) => Promise<boolean>, ReactNode] {
  const [asked, setAsked] = useState<ConfirmOptions | null>(null);
  const answer = useRef<(confirmed: boolean) => void>(() => {});
  const confirm = useCallback(
    (options: ConfirmOptions) =>
      new Promise<boolean>((resolve) => {
        answer.current(false);
        answer.current = resolve;
        setAsked(options);
      }),
    [],
  );
  const close = (confirmed: boolean) => {
    setAsked(null);
    answer.current(confirmed);
    answer.current = () => {};
  };
  const dialog = (
    <ConfirmDialog
      {...(asked ?? { title: '', confirmLabel: '' })}
      open={asked !== null}
      onConfirm={() => close(true)}
      onCancel={() => close(false)}
    />
  );
  return [confirm, dialog];
}
