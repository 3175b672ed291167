import type { TypingTarget } from '@classwave/shared';
import { useTypingLine } from './useTyping';

/** "Ada is typing…" under a conversation, announced politely (it comes and goes by itself). */
export function TypingLine({ target }: { target: TypingTarget }) {
  const line = useTypingLine(target);
  return (
    <p className="typing-line" role="status" aria-live="polite">
      {line}
    </p>
  );
}
