import { CONVERSATION_TEXT_MAX } from '@classwave/shared';
import clsx from 'clsx';

const count = (n: number) => n.toLocaleString('en-US');
/** From here on the counter warns, as the answer dialog's does near its limit. */
const WARN_REMAINING = 500;

/** "120 / 10,000 characters" under a post or comment box, warned near the limit and over it. */
export function TextCounter({ id, length }: { id: string; length: number }) {
  const remaining = CONVERSATION_TEXT_MAX - length;
  return (
    <p
      id={id}
      className={clsx(
        'text-counter',
        remaining < 0 && 'text-counter--over',
        remaining >= 0 && remaining <= WARN_REMAINING && 'text-counter--near',
      )}
    >
      {count(length)} / {count(CONVERSATION_TEXT_MAX)} characters
      {remaining < 0
        ? ` — ${count(-remaining)} over the limit: shorten it to send it.`
        : remaining <= WARN_REMAINING
          ? ` — ${count(remaining)} left before the limit.`
          : ''}
    </p>
  );
}
