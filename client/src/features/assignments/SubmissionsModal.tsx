import type { Assignment } from '@classwave/shared';
import { Inbox } from 'lucide-react';
import { Avatar } from '../../components/Avatar';
import { Badge } from '../../components/Badge';
import { Button } from '../../components/Button';
import { formatListDate } from '../../components/dates';
import { Modal } from '../../components/Modal';
import { Spinner } from '../../components/Spinner';
import { useErrorToast } from '../../components/useErrorToast';
import { useGetSubmissionsQuery } from './assignmentsApi';
import { GradeForm } from './GradeForm';
import '../../components/Input.css';

/** An assignment's submissions for its teacher, newest first, each with a grading form. */
export function SubmissionsModal({
  assignment,
  onClose,
}: {
  assignment: Assignment | null;
  onClose: () => void;
}) {
  const { data, isLoading, error } = useGetSubmissionsQuery(assignment?.id ?? '', { skip: !assignment });
  useErrorToast(error, 'Failed to load submissions.');

  function renderBody() {
    if (!assignment) return null;
    if (isLoading) {
      return (
        <div className="submissions__state">
          <Spinner label="Loading submissions" />
        </div>
      );
    }
    if (!data) {
      return (
        <p className="submissions__state">The submissions could not be loaded. Close this and try again.</p>
      );
    }
    if (data.length === 0) {
      return (
        <div className="submissions__state">
          <span className="submissions__state-icon" aria-hidden="true">
            <Inbox size={24} />
          </span>
          <p>No submissions yet for this assignment.</p>
        </div>
      );
    }
    return (
      <ul className="submissions" aria-label="Submissions">
        {data.map((submission) => (
          <li key={submission.id} className="submission">
            <div className="submission__head">
              <Avatar name={submission.student.fullName} />
              <div className="submission__who">
                <p className="submission__name">{submission.student.fullName}</p>
                <p className="submission__time">Submitted {formatListDate(submission.submittedAt)}</p>
              </div>
              {submission.grade === null ? (
                <Badge tone="neutral">Not graded</Badge>
              ) : (
                <Badge tone="success">
                  Grade: {submission.grade}/{assignment.maxPoints}
                </Badge>
              )}
            </div>
            {/* Plain text in a pre-wrap box: line breaks kept, nothing ever rendered as HTML. */}
            <p className="submission__content">{submission.content}</p>
            <GradeForm key={submission.id} submission={submission} maxPoints={assignment.maxPoints} />
          </li>
        ))}
      </ul>
    );
  }

  return (
    <Modal
      open={assignment !== null}
      onClose={onClose}
      size="lg"
      // Start at the top: with no submissions the only control is Done, at the bottom.
      initialFocus="title"
      title={`Submissions for ${assignment?.title ?? ''}`}
      description={
        assignment && (
          <>
            {assignment.courseTitle} · Due {formatListDate(assignment.dueDate)} · {assignment.maxPoints}{' '}
            points
          </>
        )
      }
      footer={
        <Button variant="secondary" onClick={onClose}>
          Done
        </Button>
      }
    >
      {renderBody()}
    </Modal>
  );
}
