import { LIMITS, SUBMISSION_WARN_REMAINING } from '@classwave/shared';
import { draftStatusText, type DraftStatus } from '../drafts/draftStatus';

const count = (n: number) => n.toLocaleString('en-US');

/**
 * Under the answer box: where the text is saved (the draft's status line, announced as it changes)
 * and how many characters it has against the limit, warned before the limit and over it.
 */
export function AnswerStatus({
  status,
  length,
  counterId,
  refused = false,
}: {
  status: DraftStatus;
  /**
   * The last submit was refused: the line leads with it (never "waiting to submit"), then says
   * where the text is now.
   */
  refused?: boolean;
  length: number;
  /** The counter's id: the answer box is described by it. */
  counterId: string;
}) {
  const remaining = LIMITS.submissionContent - length;
  const line = draftStatusText(status);
  const shown = refused && status.kind !== 'refused' ? `Not submitted${line ? ` · ${line}` : ''}` : line;
  return (
    <div className="submit-status">
      <p className="submit-status__line" role="status" aria-live="polite" data-testid="draft-status">
        {shown}
      </p>
      <p
        id={counterId}
        className={
          remaining < 0
            ? 'submit-status__count submit-status__count--over'
            : remaining <= SUBMISSION_WARN_REMAINING
              ? 'submit-status__count submit-status__count--near'
              : 'submit-status__count'
        }
      >
        {count(length)} / {count(LIMITS.submissionContent)} characters
        {remaining < 0
          ? ` — ${count(-remaining)} over the limit: shorten your answer to submit it.`
          : remaining <= SUBMISSION_WARN_REMAINING
            ? ` — ${count(remaining)} left before the limit.`
            : ''}
      </p>
    </div>
  );
}
