import clsx from 'clsx';
import { X } from 'lucide-react';
import {
  useEffect,
  useId,
  useRef,
  type KeyboardEvent as ReactKeyboardEvent,
  type MouseEvent as ReactMouseEvent,
  type ReactNode,
} from 'react';
import { createPortal } from 'react-dom';
import { focusableWithin } from './focusable';
import './Modal.css';

export interface ModalProps {
  open: boolean;
  /** Called on a backdrop click, the X button or Escape. */
  onClose: () => void;
  title: ReactNode;
  /** A line under the title. */
  description?: ReactNode;
  children?: ReactNode;
  /** Buttons at the bottom, e.g. Cancel and a submit button. */
  footer?: ReactNode;
  size?: 'sm' | 'md' | 'lg';
  className?: string;
  /**
   * Where focus starts: the first control (a form's first field), or the title, for a dialog
   * that is read before it is used, whose first control may be far down or at the very bottom.
   */
  initialFocus?: 'control' | 'title';
  /**
   * False for a dialog that must be answered (signing in again after the session expired): no X,
   * and Escape or a backdrop click do not close it.
   */
  dismissible?: boolean;
  /** `alertdialog` for a question that interrupts (ConfirmDialog). */
  role?: 'dialog' | 'alertdialog';
}

/**
 * The open dialogs, newest last. Only the newest one keeps focus and hears Escape: a dialog opened
 * over another (the sign-in dialog over an answer) would otherwise fight it for focus forever.
 */
const openDialogs: object[] = [];
const isTopmost = (entry: object) => openDialogs[openDialogs.length - 1] === entry;

/**
 * A dialog over the page. It closes on a backdrop click, its X button and Escape (heard anywhere
 * in the document, so it works even when focus has been lost); while open,
 * Tab stays inside it and the page behind does not scroll; on close, focus returns to whatever
 * had it before.
 */
export function Modal({
  open,
  onClose,
  title,
  description,
  children,
  footer,
  size = 'md',
  className,
  initialFocus = 'control',
  dismissible = true,
  role = 'dialog',
}: ModalProps) {
  const titleId = useId();
  const descriptionId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);
  const titleRef = useRef<HTMLHeadingElement>(null);
  const focusTitle = initialFocus === 'title';
  // Only a press that starts and ends on the backdrop closes, so selecting text inside the dialog
  // and releasing outside it does not.
  const pressStartedOnBackdrop = useRef(false);
  const onCloseRef = useRef(dismissible ? onClose : () => {});
  useEffect(() => {
    onCloseRef.current = dismissible ? onClose : () => {};
  });

  useEffect(() => {
    if (!open) return;
    const entry = {};
    openDialogs.push(entry);
    const previouslyFocused = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const dialog = dialogRef.current;
    if (dialog) {
      const [first] = focusableWithin(dialog).filter((element) => !element.dataset.modalClose);
      ((focusTitle ? titleRef.current : first) ?? dialog).focus();
    }
    // Tab is trapped in handleKeyDown; this catches focus that leaves some other way.
    function keepFocusInside(event: FocusEvent) {
      if (!isTopmost(entry)) return;
      if (dialog && event.target instanceof Node && !dialog.contains(event.target)) dialog.focus();
    }
    document.addEventListener('focusin', keepFocusInside);
    // Escape is heard on the whole document: focus can drop to <body> while the dialog is open
    // (e.g. when the focused element is removed or disabled).
    function closeOnEscape(event: KeyboardEvent) {
      if (event.key !== 'Escape' || event.defaultPrevented || !isTopmost(entry)) return;
      event.preventDefault();
      onCloseRef.current();
    }
    document.addEventListener('keydown', closeOnEscape);
    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';
    return () => {
      openDialogs.splice(openDialogs.indexOf(entry), 1);
      document.removeEventListener('focusin', keepFocusInside);
      document.removeEventListener('keydown', closeOnEscape);
      document.body.style.overflow = overflow;
      previouslyFocused?.focus();
    };
  }, [open, focusTitle]);

  if (!open) return null;

  function handleKeyDown(event: ReactKeyboardEvent<HTMLDivElement>) {
    if (event.key !== 'Tab' || !dialogRef.current) return;
    const focusable = focusableWithin(dialogRef.current);
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) {
      event.preventDefault();
      return;
    }
    const active = document.activeElement;
    if (event.shiftKey && (active === first || active === dialogRef.current || active === titleRef.current)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first.focus();
    }
  }

  function handleBackdropMouseDown(event: ReactMouseEvent<HTMLDivElement>) {
    pressStartedOnBackdrop.current = event.target === event.currentTarget;
  }

  function handleBackdropClick(event: ReactMouseEvent<HTMLDivElement>) {
    if (pressStartedOnBackdrop.current && event.target === event.currentTarget) onCloseRef.current();
    pressStartedOnBackdrop.current = false;
  }

  return createPortal(
    <div
      className="modal-backdrop"
      data-testid="modal-backdrop"
      onMouseDown={handleBackdropMouseDown}
      onClick={handleBackdropClick}
    >
      <div
        ref={dialogRef}
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description != null ? descriptionId : undefined}
        tabIndex={-1}
        className={clsx('modal', `modal--${size}`, className)}
        onKeyDown={handleKeyDown}
      >
        <header className="modal__header">
          <div>
            <h2 ref={titleRef} id={titleId} className="modal__title" tabIndex={focusTitle ? -1 : undefined}>
              {title}
            </h2>
            {description != null && (
              <p id={descriptionId} className="modal__description">
                {description}
              </p>
            )}
          </div>
          {dismissible && (
            <button
              type="button"
              className="modal__close"
              aria-label="Close"
              data-modal-close="true"
              onClick={onClose}
            >
              <X aria-hidden="true" size={20} />
            </button>
          )}
        </header>
        {children != null && <div className="modal__body">{children}</div>}
        {footer != null && <footer className="modal__footer">{footer}</footer>}
      </div>
    </div>,
    document.body,
  );
}
