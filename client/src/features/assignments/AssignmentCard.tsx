import { assignmentStatus, type Assignment, type Role } from '@classwave/shared';
import {
  Award,
  BookOpen,
  CalendarClock,
  CircleCheck,
  Clock,
  EyeOff,
  ListChecks,
  Lock,
  Pencil,
  Send,
  Trash2,
  Users,
} from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { toast } from 'sonner';
import { Badge } from '../../components/Badge';
import { Button } from '../../components/Button';
import { formatListDate } from '../../components/dates';
import { IconButton } from '../../components/IconButton';
import { useDeleteToBin } from '../bin/useDeleteToBin';
import { canUnsubmit, UnsubmitButton } from '../drafts/UnsubmitButton';
import { RubricEditorModal } from '../rubrics/RubricEditorModal';
import { SubmissionViewModal } from '../submissions/SubmissionViewModal';
import { PrivateCommentsButton } from '../conversations/PrivateCommentsButton';
import { useDeleteAssignmentMutation } from './assignmentsApi';
import { WorkStatusBadge } from '../grading/WorkStatusBadge';
import { StatusBadge } from './StatusBadge';

export interface AssignmentCardProps {
  assignment: Assignment;
  role: Role;
  now: Date;
  /** A submit of it waits on this device (pressed offline, or before a reload): never offered twice. */
  queued?: boolean;
  onSubmit: (assignment: Assignment) => void;
  onViewSubmissions: (assignment: Assignment) => void;
  /** Teachers: opens the edit dialog. */
  onEdit: (assignment: Assignment) => void;
  /** Students: whether its private comments are open (a notification's link opens them). */
  threadOpen?: boolean;
  onThreadOpenChange?: (assignmentId: string | null) => void;
  /** Students: their own id, naming their private thread. */
  studentId?: string;
}

/** One assignment: its status, course, due date and points, and what the user can do with it. */
export function AssignmentCard({
  assignment,
  role,
  now,
  queued = false,
  onSubmit,
  onViewSubmissions,
  onEdit,
  threadOpen = false,
  onThreadOpenChange,
  studentId,
}: AssignmentCardProps) {
  const titleId = useId();
  const [deleteAssignment, { isLoading: deleting }] = useDeleteAssignmentMutation();
  const [viewing, setViewing] = useState(false);
  const [editingRubric, setEditingRubric] = useState(false);
  const status = assignmentStatus(assignment, role, now);
  const graded = role === 'student' ? assignment.submission : null;
  // A grade for missing work (DESIGN §17) is no submission: the student may still hand the work in.
  const submission = graded?.submittedAt ? graded : null;
  // Past its due time an assignment that closes then takes no more work (the server says 409 too).
  const closed = assignment.closesAtDue && new Date(assignment.dueDate).getTime() < now.getTime();

  const { confirmDelete, deleted, dialog } = useDeleteToBin();

  async function handleDelete() {
    if (!(await confirmDelete('assignment', assignment.id, assignment.title))) return;
    try {
      await deleteAssignment(assignment.id).unwrap();
      deleted('assignment', assignment.id);
    } catch {
      toast.error('Failed to delete assignment.');
    }
  }

  return (
    <article
      className={`card assignment-card assignment-card--${status}`}
      aria-labelledby={titleId}
      data-assignment={assignment.id}
      tabIndex={-1}
    >
      <div className="assignment-card__body">
        <div className="assignment-card__head">
          <h2 id={titleId} className="assignment-card__title" title={assignment.title}>
            {assignment.title}
          </h2>
          {role === 'student' ? (
            <WorkStatusBadge assignment={assignment} now={now} />
          ) : (
            <StatusBadge status={status} />
          )}
          {role === 'teacher' && assignment.publishAt && (
            <Badge tone="warning">Scheduled for {formatListDate(assignment.publishAt)}</Badge>
          )}
          {role === 'teacher' && Array.isArray(assignment.assignees) && (
            <Badge tone="neutral">
              {assignment.assignees.length} {assignment.assignees.length === 1 ? 'student' : 'students'}
            </Badge>
          )}
        </div>
        <p>
          <Link
            to={`/courses/${assignment.courseId}`}
            className="assignment-card__course"
            title={assignment.courseTitle}
          >
            <BookOpen aria-hidden="true" size={16} />
            <span className="assignment-card__course-title">{assignment.courseTitle}</span>
          </Link>
        </p>
        {assignment.description.trim() !== '' && (
          <p className="assignment-card__description">{assignment.description}</p>
        )}
        <p className="assignment-card__meta">
          <span>
            <CalendarClock aria-hidden="true" size={16} />
            {/* Their own due date (DESIGN §20): the class's is said beside it. */}
            {role === 'student' && assignment.extendedFrom
              ? `Extended to ${formatListDate(assignment.dueDate)} (class: ${formatListDate(assignment.extendedFrom)})`
              : `Due ${formatListDate(assignment.dueDate)}`}
          </span>
          <span>
            <Award aria-hidden="true" size={16} />
            {assignment.maxPoints} points
          </span>
          {role === 'teacher' && assignment.gradeRelease === 'manual' && (
            <span>
              <EyeOff aria-hidden="true" size={16} />
              Grades held until returned
            </span>
          )}
          {assignment.closesAtDue && (
            <span>
              <Lock aria-hidden="true" size={16} />
              Closes at the due time
            </span>
          )}
        </p>
        {graded && (
          // Focusable from script only: after a keyboard user submits, focus lands here, on the
          // card's new state, instead of on <body> where the removed Submit button left it.
          <div className="assignment-card__submission" tabIndex={-1} data-submission-of={assignment.id}>
            <p className="assignment-card__submitted">
              <CircleCheck aria-hidden="true" size={16} />
              {graded.submittedAt
                ? `Submitted ${formatListDate(graded.submittedAt)}`
                : 'Not submitted: graded as missing work'}
            </p>
            {graded.grade !== null && (
              <p className="assignment-card__grade">
                Grade: {graded.grade}/{assignment.maxPoints}
              </p>
            )}
            {graded.grade !== null && graded.feedback && (
              <blockquote className="assignment-card__feedback">
                <span className="assignment-card__feedback-label">Teacher feedback</span>
                {graded.feedback}
              </blockquote>
            )}
          </div>
        )}
      </div>

      <div className="assignment-card__actions">
        {role === 'teacher' ? (
          <>
            <Button
              variant="secondary"
              size="sm"
              icon={<Users />}
              aria-describedby={titleId}
              onClick={() => onViewSubmissions(assignment)}
            >
              View Submissions
              <span className="count-pill">
                {assignment.submissionCount ?? 0}
                <span className="sr-only"> submitted</span>
              </span>
            </Button>
            {(assignment.needsGrading ?? 0) > 0 && (
              <Badge tone="warning" className="to-grade">
                {assignment.needsGrading} to grade
              </Badge>
            )}
            <div className="assignment-card__tools">
              <IconButton
                label="Rubric"
                icon={<ListChecks />}
                aria-haspopup="dialog"
                onClick={() => setEditingRubric(true)}
              />
              <IconButton label="Edit assignment" icon={<Pencil />} onClick={() => onEdit(assignment)} />
              <IconButton
                label="Delete assignment"
                tone="danger"
                icon={<Trash2 />}
                loading={deleting}
                onClick={() => void handleDelete()}
              />
            </div>
            {editingRubric && (
              <RubricEditorModal assignment={assignment} onClose={() => setEditingRubric(false)} />
            )}
          </>
        ) : submission ? (
          <>
            <Button
              variant="secondary"
              size="sm"
              icon={<CircleCheck />}
              aria-describedby={titleId}
              aria-haspopup="dialog"
              onClick={() => setViewing(true)}
            >
              View Submission
            </Button>
            {viewing && <SubmissionViewModal assignment={assignment} onClose={() => setViewing(false)} />}
            {canUnsubmit(assignment, submission, now) && (
              <UnsubmitButton assignment={assignment} submission={submission} describedBy={titleId} />
            )}
          </>
        ) : queued ? (
          <Button
            variant="secondary"
            size="sm"
            icon={<Clock />}
            aria-describedby={titleId}
            onClick={() => onSubmit(assignment)}
          >
            Waiting to submit
          </Button>
        ) : closed ? (
          <Button variant="secondary" size="sm" icon={<Lock />} disabled aria-describedby={titleId}>
            Closed
          </Button>
        ) : (
          <Button size="sm" icon={<Send />} aria-describedby={titleId} onClick={() => onSubmit(assignment)}>
            Submit
          </Button>
        )}
        {role === 'student' && studentId && onThreadOpenChange && (
          <PrivateCommentsButton
            assignment={assignment}
            studentId={studentId}
            open={threadOpen}
            onOpenChange={(open) => onThreadOpenChange(open ? assignment.id : null)}
            describedBy={titleId}
          />
        )}
      </div>
      {dialog}
    </article>
  );
}
