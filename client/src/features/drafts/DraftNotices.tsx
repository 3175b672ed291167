import { ClipboardCopy, Copy, RotateCcw, Trash2 } from 'lucide-react';
import { toast } from 'sonner';
import { useConfirm } from '../../components/ConfirmDialog';
import { Button } from '../../components/Button';
import { Notice } from '../../components/Notice';
import type { WaitReason } from './submitQueue';

export const DISCARD_DISPLACED_CONFIRMATION = 'It is not saved anywhere else.';

/** Copies text for the student, saying whether it worked. */
export async function copyToClipboard(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast.success('Copied your answer.');
  } catch {
    toast.error('Could not copy: select the text and copy it yourself.');
  }
}

/**
 * The text this tab had when another tab's newer save won (DESIGN §12): kept on the device and
 * offered back. Restoring puts it on screen and saves it over the newer version.
 */
export function DisplacedText({
  text,
  onRestore,
  onDiscard,
}: {
  text: string;
  onRestore: () => void;
  onDiscard: () => void;
}) {
  const [confirm, dialog] = useConfirm();
  return (
    <Notice tone="info" title="Your text from this tab" className="displaced">
      <p>Another tab saved over it. It is kept on this device: restore it, or copy what you need.</p>
      <blockquote className="displaced__text" data-testid="displaced-text">
        {text}
      </blockquote>
      <div className="displaced__actions">
        <Button size="sm" icon={<RotateCcw />} onClick={onRestore}>
          Restore
        </Button>
        <Button variant="secondary" size="sm" icon={<Copy />} onClick={() => void copyToClipboard(text)}>
          Copy
        </Button>
        <Button
          variant="secondary"
          size="sm"
          icon={<Trash2 />}
          onClick={() => {
            void confirm({
              title: 'Discard your text from this tab?',
              description: DISCARD_DISPLACED_CONFIRMATION,
              confirmLabel: 'Discard text',
            }).then((sure) => sure && onDiscard());
          }}
        >
          Discard
        </Button>
      </div>
      {dialog}
    </Notice>
  );
}

const WAITING: Record<WaitReason | 'unknown', { title: string; body: string }> = {
  unknown: {
    title: 'Waiting to submit',
    body: 'Your answer is queued on this device and is being sent. It will be submitted once, however often it is tried.',
  },
  connection: {
    title: 'Waiting for the connection',
    body: 'Your answer is kept on this device and will be submitted as soon as you are back online.',
  },
  server: {
    title: 'The server is busy — trying again',
    body: 'Your answer is kept on this device and is sent again shortly, by itself. It will be submitted once.',
  },
  signedOut: {
    title: 'Waiting for you to sign in',
    body: 'Your answer is kept on this device and will be submitted once you sign in again.',
  },
};

/** A pressed submit still on its way, and the true reason it waits. */
export function QueuedNotice({ reason }: { reason: WaitReason | null }) {
  const { title, body } = WAITING[reason ?? 'unknown'];
  return (
    <Notice tone="info" title={title}>
      {body}
    </Notice>
  );
}

/**
 * Asked before closing when the text on screen exists nowhere else (the assignment is gone, or it
 * was submitted in another tab without this text): it stays on this device, and can be copied first.
 */
export function CloseGuard({
  text,
  onClose,
  onStay,
}: {
  text: string;
  onClose: () => void;
  onStay: () => void;
}) {
  return (
    <Notice tone="warning" title="This text is only on this device">
      <p>
        It cannot be saved to this assignment any more. A copy stays on this device; copy it to keep it
        elsewhere.
      </p>
      <div className="displaced__actions">
        <Button size="sm" icon={<ClipboardCopy />} onClick={() => void copyToClipboard(text)}>
          Copy your answer
        </Button>
        <Button variant="secondary" size="sm" onClick={onClose}>
          Close anyway
        </Button>
        <Button variant="secondary" size="sm" onClick={onStay}>
          Keep it open
        </Button>
      </div>
    </Notice>
  );
}
