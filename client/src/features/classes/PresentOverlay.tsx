import { X } from 'lucide-react';
import { QRCodeSVG } from 'qrcode.react';
import { useEffect, useRef } from 'react';
import { createPortal } from 'react-dom';
import { toast } from 'sonner';
import { joinLinkOf } from './joinLink';
import './PresentOverlay.css';

export interface PresentOverlayProps {
  title: string;
  joinCode: string;
  joinEnabled: boolean;
  onClose: () => void;
}

/**
 * The class code for a projector: the code large enough to read from the back row, the link, and a
 * QR code of the link for phones. Escape or Close ends it; focus goes back where it was.
 */
export function PresentOverlay({ title, joinCode, joinEnabled, onClose }: PresentOverlayProps) {
  const closeRef = useRef<HTMLButtonElement>(null);
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  });

  useEffect(() => {
    const previouslyFocused = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    closeRef.current?.focus();
    // A projected screen shows the code only; toasts would also cover the Close button.
    toast.dismiss();
    function closeOnEscape(event: KeyboardEvent) {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      onCloseRef.current();
    }
    document.addEventListener('keydown', closeOnEscape);
    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';
    return () => {
      document.removeEventListener('keydown', closeOnEscape);
      document.body.style.overflow = overflow;
      previouslyFocused?.focus();
    };
  }, []);

  const link = joinLinkOf(joinCode);
  // The path stays on one line when the link wraps, so the code is never split.
  const pathStart = link.indexOf('/join/');
  const origin = link.slice(0, pathStart);
  const path = link.slice(pathStart);
  return createPortal(
    <div className="present" role="dialog" aria-modal="true" aria-labelledby="present-title">
      <button ref={closeRef} type="button" className="present__close" onClick={onClose}>
        <X aria-hidden="true" size={22} />
        Close
      </button>
      <p className="present__eyebrow">Join</p>
      <h2 id="present-title" className="present__title">
        {title}
      </h2>
      <div className="present__body">
        <div className="present__text">
          <p className="present__label">Class code</p>
          <p className="present__code" data-testid="present-code">
            {joinCode}
          </p>
          <p className="present__label">or open</p>
          <p className="present__link" data-testid="present-link">
            {origin}
            <span className="present__link-path">{path}</span>
          </p>
          {!joinEnabled && <p className="present__off">Joining is turned off right now.</p>}
        </div>
        <div className="present__qr">
          <QRCodeSVG value={link} size={280} marginSize={2} title={`QR code of ${link}`} />
        </div>
      </div>
    </div>,
    document.body,
  );
}
