import {
  formatLateness,
  WORK_STATUS_LABELS,
  type Assignment,
  type GradebookStudent,
  type Submission,
  type WorkStatus,
} from '@classwave/shared';
import { ChevronLeft, ChevronRight, SearchX, UserCheck } from 'lucide-react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { BackLink } from '../../components/BackLink';
import { Badge } from '../../components/Badge';
import { Button } from '../../components/Button';
import { formatListDate } from '../../components/dates';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { Spinner } from '../../components/Spinner';
import { useGetAssignmentsQuery, useGetSubmissionsQuery } from '../assignments/assignmentsApi';
import { GradeForm } from '../assignments/GradeForm';
import { usePageTitle } from '../layout/usePageFocus';
import { useGetGradebookQuery } from './gradingApi';
import './GradingPage.css';
import { FileList } from '../files/FileList';
import { TeacherFiles } from '../files/TeacherFiles';
import { useGetThreadsQuery } from '../conversations/conversationsApi';
import { PrivateThread } from '../conversations/PrivateThread';

/** How a student's work on the assignment reads in the list (the teacher's words). */
const STATUS_TEXT: Record<WorkStatus, string> = {
  ...WORK_STATUS_LABELS,
  submitted: 'To grade',
  late: 'Late · to grade',
  graded: 'Held',
};
const STATUS_TONE: Partial<Record<WorkStatus, 'primary' | 'warning' | 'danger' | 'success'>> = {
  submitted: 'primary',
  late: 'warning',
  missing: 'danger',
  graded: 'warning',
  returned: 'success',
};

/** Whether a key press came from a place that takes text (where J and K are letters, not moves). */
const typing = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

/**
 * /assignments/:assignmentId/grading: one student at a time (DESIGN §17), their work, grade and
 * feedback side by side, the class in a list beside them; J and K (or the buttons) move to the next
 * and previous student. Everything is live: a submission arriving or a grade given in another tab
 * shows at once. A grade being typed is kept when moving away and back, and the list marks it.
 */
export function GradingPage() {
  const { assignmentId = '' } = useParams();
  const { data: assignments, isLoading } = useGetAssignmentsQuery();
  const assignment = assignments?.find((a) => a.id === assignmentId);
  if (isLoading) return <Spinner size="lg" label="Loading the assignment" />;
  if (!assignment || assignment.submissionCount === null) {
    return (
      <>
        <PageHeader title="Grading" />
        <EmptyState icon={<SearchX />} title="Assignment not found" headingLevel={2}>
          Only an assignment's teacher grades it here. <Link to="/assignments">Back to assignments</Link>
        </EmptyState>
      </>
    );
  }
  return <GradingView assignment={assignment} />;
}

function GradingView({ assignment }: { assignment: Assignment }) {
  usePageTitle(`Grading · ${assignment.title}`);
  const { data: gradebook } = useGetGradebookQuery(assignment.courseId);
  const { data: submissions } = useGetSubmissionsQuery(assignment.id);
  // Unread private comments per student, in one request for the class (kept live by thread:comment).
  const { data: threads } = useGetThreadsQuery(assignment.id);
  const unreadOf = (studentId: string) => threads?.find((t) => t.student.id === studentId)?.unreadCount ?? 0;
  const [params, setParams] = useSearchParams();
  const [unsaved, setUnsaved] = useState<ReadonlySet<string>>(new Set());
  // Every student opened so far keeps their form (and what is typed in it) until the page closes.
  const [visited, setVisited] = useState<ReadonlySet<string>>(new Set());
  // The students the assignment is for (DESIGN §20); one left out who handed work in is still theirs.
  const students = useMemo(
    () =>
      (gradebook?.students ?? []).filter(
        (student) =>
          !gradebook?.cells.some(
            (c) =>
              c.assignmentId === assignment.id &&
              c.studentId === student.id &&
              c.assigned === false &&
              !c.submissionId,
          ),
      ),
    [gradebook, assignment.id],
  );
  const index = Math.max(
    0,
    students.findIndex((s) => s.id === params.get('student')),
  );
  const current = students[index];

  const go = useCallback(
    (to: number) => {
      const next = students[to];
      if (next) setParams({ student: next.id }, { replace: true });
    },
    [students, setParams],
  );

  useEffect(() => {
    if (current && !visited.has(current.id)) setVisited((v) => new Set(v).add(current.id));
  }, [current, visited]);

  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (event.altKey || event.ctrlKey || event.metaKey || typing(event.target)) return;
      if (event.key === 'j' || event.key === 'J') go(index + 1);
      else if (event.key === 'k' || event.key === 'K') go(index - 1);
      else return;
      event.preventDefault();
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [go, index]);

  const markUnsaved = useCallback((studentId: string, edited: boolean) => {
    setUnsaved((current) => {
      if (current.has(studentId) === edited) return current;
      const next = new Set(current);
      if (edited) next.add(studentId);
      else next.delete(studentId);
      return next;
    });
  }, []);

  if (!gradebook || !submissions) return <Spinner size="lg" label="Loading the class's work" />;
  const byStudent = new Map(submissions.map((s) => [s.studentId, s]));
  const statuses = new Map(
    gradebook.cells.filter((c) => c.assignmentId === assignment.id).map((c) => [c.studentId, c.status]),
  );
  const statusOf = (student: GradebookStudent) => statuses.get(student.id) ?? 'not_submitted';

  return (
    <>
      <BackLink to="/assignments">Back to assignments</BackLink>
      <PageHeader
        title={`Grading: ${assignment.title}`}
        subtitle={`${assignment.courseTitle} · Due ${formatListDate(assignment.dueDate)} · ${assignment.maxPoints} points`}
      />
      {students.length === 0 ? (
        <EmptyState icon={<UserCheck />} title="No students yet" headingLevel={2}>
          Once students join the course, their work is graded here.
        </EmptyState>
      ) : (
        <div className="grading">
          <nav className="grading__students" aria-label="Students">
            <ol>
              {students.map((student, i) => (
                <li key={student.id}>
                  <button
                    type="button"
                    className="grading__student"
                    aria-current={i === index ? 'true' : undefined}
                    onClick={() => go(i)}
                  >
                    <span className="grading__student-name">{student.fullName}</span>
                    <span className="grading__student-status">
                      <StatusBadge status={statusOf(student)} />
                      {unsaved.has(student.id) && <Badge tone="warning">Unsaved</Badge>}
                      {unreadOf(student.id) > 0 && i !== index && (
                        <Badge tone="danger" className="grading__unread">
                          {unreadOf(student.id)} new
                          <span className="sr-only">
                            {unreadOf(student.id) === 1 ? ' private comment' : ' private comments'}
                          </span>
                        </Badge>
                      )}
                    </span>
                  </button>
                </li>
              ))}
            </ol>
          </nav>
          <section className="grading__work" aria-labelledby="grading-student">
            <div className="grading__bar">
              <Button
                variant="secondary"
                size="sm"
                icon={<ChevronLeft />}
                aria-keyshortcuts="k"
                disabled={index === 0}
                onClick={() => go(index - 1)}
              >
                Previous
              </Button>
              <p className="grading__position">
                <strong id="grading-student">{current?.fullName}</strong>
                <span>
                  {' '}
                  · {index + 1} of {students.length}
                </span>
              </p>
              <Button
                variant="secondary"
                size="sm"
                icon={<ChevronRight />}
                aria-keyshortcuts="j"
                disabled={index === students.length - 1}
                onClick={() => go(index + 1)}
              >
                Next
              </Button>
            </div>
            <p className="grading__keys">J and K move to the next and previous student.</p>
            {current && <Work submission={byStudent.get(current.id)} status={statusOf(current)} />}
            {students
              .filter((s) => visited.has(s.id) || s.id === current?.id)
              .map((student) => (
                <div key={student.id} hidden={student.id !== current?.id}>
                  {/* Excused work takes no grade (the server says 409): take the excuse back in the gradebook first. */}
                  {statusOf(student) === 'excused' && !byStudent.has(student.id) ? null : (
                    <GradeForm
                      submission={byStudent.get(student.id) ?? null}
                      student={student}
                      assignmentId={assignment.id}
                      maxPoints={assignment.maxPoints}
                      onEditedChange={(edited) => markUnsaved(student.id, edited)}
                    />
                  )}
                  {student.id === current?.id && (
                    <TeacherFiles
                      assignmentId={assignment.id}
                      purpose="feedback"
                      studentId={student.id}
                      title="Feedback files"
                    />
                  )}
                  {student.id === current?.id && (
                    <section className="grading__thread" aria-labelledby="grading-thread">
                      <h3 id="grading-thread" className="grading__thread-title">
                        Private comments
                      </h3>
                      <PrivateThread
                        thread={{ assignmentId: assignment.id, studentId: student.id }}
                        writeTo={student.fullName}
                      />
                    </section>
                  )}
                </div>
              ))}
          </section>
        </div>
      )}
    </>
  );
}

function StatusBadge({ status }: { status: WorkStatus }) {
  const tone = STATUS_TONE[status];
  return <Badge tone={tone ?? 'neutral'}>{STATUS_TEXT[status]}</Badge>;
}

/** The student's work as handed in: plain text, never HTML; or what stands in for it. */
function Work({ submission, status }: { submission: Submission | undefined; status: WorkStatus }) {
  if (!submission?.submittedAt) {
    return (
      <p className="grading__nothing">
        {status === 'excused'
          ? 'Excused from this assignment: it counts nowhere.'
          : status === 'missing'
            ? 'Nothing handed in, and the due time has passed. A grade given here counts for missing work.'
            : 'Nothing handed in yet. A grade given here counts for missing work.'}
      </p>
    );
  }
  return (
    <>
      <p className="grading__when">
        Submitted {formatListDate(submission.submittedAt)}
        {submission.late !== null && <> · {formatLateness(submission.late)}</>}
      </p>
      <p className="grading__content" dir="auto">
        {submission.content}
      </p>
      {submission.files && <FileList files={submission.files} label="Files handed in" />}
    </>
  );
}
