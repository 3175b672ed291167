import { formatLateness, type Assignment, type Submission } from '@classwave/shared';
import { Download, Inbox, ListChecks, Send } from 'lucide-react';
import { toast } from 'sonner';
import { useAppDispatch } from '../../app/hooks';
import { useState } from 'react';
import { Avatar } from '../../components/Avatar';
import { Badge } from '../../components/Badge';
import { Button } from '../../components/Button';
import { ButtonLink } from '../../components/ButtonLink';
import { formatListDate } from '../../components/dates';
import { Modal } from '../../components/Modal';
import { Spinner } from '../../components/Spinner';
import { useErrorToast } from '../../components/useErrorToast';
import { useGetSubmissionsQuery } from './assignmentsApi';
import { useReturnWithUndo } from '../grading/useReturnWithUndo';
import { WorkPanel } from '../grading/WorkPanel';
import { GradeForm } from './GradeForm';
import { MissingWork } from './MissingWork';
import '../../components/Input.css';
import { FileList } from '../files/FileList';
import { useGetThreadsQuery } from '../conversations/conversationsApi';
import { downloadSubmissionsZip } from '../files/fileAccess';

/**
 * An assignment's submissions for its teacher, newest first, each with a grading form; then every
 * active student who has not submitted, so missing work can be graded too (DESIGN §17).
 */
export function SubmissionsModal({
  assignment,
  onClose,
}: {
  assignment: Assignment | null;
  onClose: () => void;
}) {
  const dispatch = useAppDispatch();
  const { data, isLoading, error } = useGetSubmissionsQuery(assignment?.id ?? '', { skip: !assignment });
  useErrorToast(error, 'Failed to load submissions.');
  // Unread private comments per student, one request for the class, kept live by thread:comment.
  const { data: threads } = useGetThreadsQuery(assignment?.id ?? '', { skip: !assignment });
  const unreadOf = (studentId: string) => threads?.find((t) => t.student.id === studentId)?.unreadCount ?? 0;
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const returnWithUndo = useReturnWithUndo();
  const manual = assignment?.gradeRelease === 'manual';
  // Graded and not yet returned, or changed since (DESIGN §17): what Return would send.
  const held = (data ?? []).filter((s) => s.held);
  const chosen = held.filter((s) => selected.has(s.id));
  // Rows with no `submittedAt` are grades for missing work: listed with the students who did not submit.
  const submitted = (data ?? []).filter(
    (s): s is Submission & { submittedAt: string } => s.submittedAt !== null,
  );

  function toggle(id: string, on: boolean) {
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  }

  function handleReturn() {
    if (!assignment) return;
    const ids = chosen.length > 0 ? chosen.map((s) => s.id) : undefined;
    returnWithUndo({
      assignmentId: assignment.id,
      courseId: assignment.courseId,
      // "Return all" names the grades on screen too (the server takes those still held at the click);
      // past the body's limit of 1,000 ids it asks for every grade held at the click.
      ...(ids || held.length <= 1000 ? { submissionIds: ids ?? held.map((s) => s.id) } : {}),
    });
    setSelected(new Set());
  }

  // Only where grades wait for Return: with automatic release every grade is the student's at once.
  function releaseBadge(submission: Submission) {
    if (!manual || submission.grade === null) return null;
    if (!submission.held) return <Badge tone="primary">Returned</Badge>;
    // Changed after it was returned: the student still sees the grade returned before.
    return submission.returnedAt !== null ? (
      <Badge tone="warning">Changed · not returned</Badge>
    ) : (
      <Badge tone="warning">Held</Badge>
    );
  }

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
    return (
      <>
        <ButtonLink
          to={`/assignments/${assignment.id}/grading`}
          variant="secondary"
          size="sm"
          icon={<ListChecks />}
          className="submissions__one-by-one"
        >
          Grade one by one
        </ButtonLink>
        {data.some((submission) => submission.files?.length) && (
          <Button
            variant="ghost"
            size="sm"
            icon={<Download />}
            className="submissions__zip"
            onClick={() =>
              void downloadSubmissionsZip(dispatch, assignment).catch((error: Error) =>
                toast.error(error.message),
              )
            }
          >
            Download all files (zip)
          </Button>
        )}
        {manual && (
          <div className="return-bar">
            <Button size="sm" icon={<Send />} disabled={held.length === 0} onClick={handleReturn}>
              {chosen.length > 0 ? `Return ${chosen.length} selected` : `Return all graded (${held.length})`}
            </Button>
            <p>
              {held.length === 0
                ? // Not "students see every grade": on this assignment a grade given next is held too.
                  'Nothing held: grades you give wait here until you return them.'
                : `${held.length} held: students see them only once returned.`}
            </p>
          </div>
        )}
        {submitted.length === 0 ? (
          <div className="submissions__state">
            <span className="submissions__state-icon" aria-hidden="true">
              <Inbox size={24} />
            </span>
            <p>No submissions yet for this assignment.</p>
          </div>
        ) : (
          <ul className="submissions" aria-label="Submissions">
            {submitted.map((submission) => (
              <li key={submission.id} className="submission">
                <div className="submission__head">
                  <Avatar name={submission.student.fullName} />
                  <div className="submission__who">
                    <p className="submission__name">{submission.student.fullName}</p>
                    <p className="submission__time">
                      Submitted {formatListDate(submission.submittedAt)}
                      {submission.late !== null && <> · {formatLateness(submission.late)}</>}
                    </p>
                  </div>
                  <div className="submission__badges">
                    {submission.grade === null ? (
                      <Badge tone="neutral">Not graded</Badge>
                    ) : (
                      <Badge tone="success">
                        Grade: {submission.grade}/{assignment.maxPoints}
                      </Badge>
                    )}
                    {releaseBadge(submission)}
                    {unreadOf(submission.student.id) > 0 && (
                      <Badge tone="danger">
                        {unreadOf(submission.student.id)} new
                        <span className="sr-only">
                          {unreadOf(submission.student.id) === 1 ? ' private comment' : ' private comments'}
                        </span>
                      </Badge>
                    )}
                  </div>
                </div>
                {/* Plain text in a pre-wrap box: line breaks kept, nothing ever rendered as HTML. */}
                <p className="submission__content" dir="auto">
                  {submission.content}
                </p>
                {submission.files && (
                  <FileList files={submission.files} label={`Files from ${submission.student.fullName}`} />
                )}
                <GradeForm
                  key={submission.id}
                  submission={submission}
                  student={submission.student}
                  assignmentId={assignment.id}
                  maxPoints={assignment.maxPoints}
                />
                {manual && submission.held && (
                  <label className="submission__select">
                    <input
                      type="checkbox"
                      checked={selected.has(submission.id)}
                      onChange={(event) => toggle(submission.id, event.target.checked)}
                    />
                    Select to return
                  </label>
                )}
              </li>
            ))}
          </ul>
        )}
        <MissingWork assignment={assignment} rows={data} />
      </>
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
      {assignment && <WorkPanel assignmentId={assignment.id} />}
      {renderBody()}
    </Modal>
  );
}
