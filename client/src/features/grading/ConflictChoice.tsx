import type { CurrentGrade } from '@classwave/shared';
import { Button } from '../../components/Button';
import { formatListDate } from '../../components/dates';

/**
 * What a 409 grade_conflict found (DESIGN §13): who graded what and when, with the grader's two
 * ways out. Shown in place, where the grade was being written.
 */
export function ConflictChoice({
  current,
  maxPoints,
  mine,
  onKeepMine,
  onUseTheirs,
  busy = false,
}: {
  current: CurrentGrade;
  maxPoints: number;
  /** The grade the grader tried to save. */
  mine: string;
  onKeepMine: () => void;
  onUseTheirs: () => void;
  busy?: boolean;
}) {
  const who = current.gradedBy?.fullName ?? 'Someone else';
  const when = current.gradedAt ? ` on ${formatListDate(current.gradedAt)}` : '';
  const what = current.grade === null ? 'removed the grade' : `gave ${current.grade}/${maxPoints}`;
  return (
    <div className="grade-conflict" role="alert">
      <p className="grade-conflict__what">
        <strong>{who}</strong> {what}
        {when} while you were grading.
      </p>
      {current.feedback && <p className="grade-conflict__feedback">Their feedback: “{current.feedback}”</p>}
      <div className="grade-conflict__actions">
        <Button size="sm" onClick={onKeepMine} loading={busy}>
          Keep mine{mine !== '' ? ` (${mine})` : ''}
        </Button>
        <Button size="sm" variant="secondary" onClick={onUseTheirs} disabled={busy}>
          Use theirs
        </Button>
      </div>
    </div>
  );
}
