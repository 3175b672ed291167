import { useEffect, useState } from 'react';
import { onServerClockChange, serverNow } from '../../api/serverClock';

/** A `closesAtDue` assignment warns this long before it closes (DESIGN §17): 10 minutes, then 1. */
export const CLOSING_WARNINGS_MS = [10 * 60_000, 60_000] as const;

/** Where an assignment's due time stands for the answer dialog, by the server's clock. */
export type Deadline =
  /** More than 10 minutes to go, or no deadline that closes anything. */
  | { kind: 'open' }
  /** A closing assignment within a warning: `within` is 10 or 1 (minutes). */
  | { kind: 'closing'; within: 10 | 1 }
  /** Past due on an assignment that closes at its due time: no more submissions. */
  | { kind: 'closed' }
  /** Past due on an assignment that still takes work: it will be marked late. */
  | { kind: 'late' };

/** The deadline as it stands at `now` (ms by the server's clock). */
export function deadlineAt(due: number, closesAtDue: boolean, now: number): Deadline {
  const left = due - now;
  if (left < 0) return { kind: closesAtDue ? 'closed' : 'late' };
  if (!closesAtDue || left > CLOSING_WARNINGS_MS[0]) return { kind: 'open' };
  return { kind: 'closing', within: left > CLOSING_WARNINGS_MS[1] ? 10 : 1 };
}

/** The next moment (ms by the server's clock) at which `deadlineAt` can change, if any. */
function nextChange(due: number, closesAtDue: boolean, now: number): number | null {
  const moments = [...(closesAtDue ? CLOSING_WARNINGS_MS.map((ms) => due - ms) : []), due];
  // "Past due" starts just after the due time (the server refuses only once now > due).
  const upcoming = moments.map((at) => (at === due ? at + 1 : at)).filter((at) => at > now);
  return upcoming.length > 0 ? Math.min(...upcoming) : null;
}

/**
 * The answer dialog's deadline, changing on screen at the moment it does: a timer is set for the
 * next boundary (10 minutes before, 1 minute before, the due time), not a polling tick, and it is
 * set again whenever the estimate of the server's clock moves.
 */
export function useDeadline(dueDate: string | undefined, closesAtDue: boolean): Deadline {
  const due = dueDate ? Date.parse(dueDate) : Number.NaN;
  const [deadline, setDeadline] = useState<Deadline>(() =>
    Number.isNaN(due) ? { kind: 'open' } : deadlineAt(due, closesAtDue, serverNow().getTime()),
  );
  useEffect(() => {
    if (Number.isNaN(due)) {
      setDeadline({ kind: 'open' });
      return;
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const update = () => {
      clearTimeout(timer);
      const now = serverNow().getTime();
      const next = deadlineAt(due, closesAtDue, now);
      setDeadline((current) =>
        current.kind === next.kind &&
        ('within' in current ? current.within : 0) === ('within' in next ? next.within : 0)
          ? current
          : next,
      );
      const at = nextChange(due, closesAtDue, now);
      // A timer longer than ~24.8 days overflows; such a deadline is looked at again after a day.
      if (at !== null) timer = setTimeout(update, Math.min(at - now, 86_400_000));
    };
    update();
    const unsubscribe = onServerClockChange(update);
    return () => {
      clearTimeout(timer);
      unsubscribe();
    };
  }, [due, closesAtDue]);
  return deadline;
}
