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
}: {
  status: DraftStatus;
  length: number;
  /** The counter's id: the answer box is described by it. */
  counterId: string;
}) {
  const remaining = LIMITS.submissionContent - length;
  return (
    <div className="submit-status">
      <p className="submit-status__line" role="status" aria-live="polite" data-testid="draft-status">
        {draftStatusText(status)}
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
