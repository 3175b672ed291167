import { CONVERSATION_TEXT_MAX, type TypingTarget } from '@classwave/shared';
import { Send } from 'lucide-react';
import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Button } from '../../components/Button';
import { Textarea } from '../../components/Textarea';
import { TextCounter } from './TextCounter';
import { useTypingSignal } from './useTyping';

/**
 * The box under a post's comments or a private thread: plain text, counted against the limit,
 * "typing" told to the others as it is typed. Enter makes a new line; Ctrl or ⌘ + Enter sends.
 * The text stays until the server took it, so a refusal (toasted by `onSend`) loses nothing.
 */
export function CommentComposer({
  label,
  target,
  onSend,
  sendLabel = 'Send',
}: {
  label: string;
  target: TypingTarget;
  /** Sends the text; resolves true once the server took it. */
  onSend: (text: string) => Promise<boolean>;
  sendLabel?: string;
}) {
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const counterId = useId();
  const typing = useTypingSignal(target);
  const over = text.length > CONVERSATION_TEXT_MAX;

  async function send(event?: FormEvent) {
    event?.preventDefault();
    if (sending || over || text.trim() === '') return;
    setSending(true);
    const sent = await onSend(text);
    setSending(false);
    if (sent) setText('');
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) void send(event);
  }

  return (
    <form className="comment-composer" onSubmit={(event) => void send(event)}>
      <Textarea
        label={label}
        rows={2}
        value={text}
        aria-describedby={counterId}
        onKeyDown={onKeyDown}
        onChange={(event) => {
          setText(event.target.value);
          typing();
        }}
      />
      <div className="comment-composer__bar">
        <TextCounter id={counterId} length={text.length} />
        <Button
          type="submit"
          size="sm"
          icon={<Send />}
          loading={sending}
          disabled={over || text.trim() === ''}
        >
          {sendLabel}
        </Button>
      </div>
    </form>
  );
}
