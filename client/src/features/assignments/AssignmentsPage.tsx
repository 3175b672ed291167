import type { Assignment } from '@classwave/shared';
import { ClipboardList, KeyRound, SearchX } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { toast } from 'sonner';
import { useAppSelector } from '../../app/hooks';
import { EmptyState } from '../../components/EmptyState';
import { ListPage } from '../../components/ListPage';
import { LoadFailed } from '../../components/LoadFailed';
import { Skeleton } from '../../components/Skeleton';
import { useConfirm } from '../../components/ConfirmDialog';
import { useErrorToast } from '../../components/useErrorToast';
import { useNavigationFlag } from '../../components/useNavigationFlag';
import { selectProfile } from '../auth/authSlice';
import { useQueuedAssignments } from '../drafts/useQueuedSubmit';
import { useGetCoursesQuery } from '../courses/coursesApi';
import { OPEN_JOIN_CLASS } from '../classes/JoinClassDialog';
import { ButtonLink } from '../../components/ButtonLink';
import { AssignmentCard } from './AssignmentCard';
import { useCreateSampleAssignmentsMutation, useGetAssignmentsQuery } from './assignmentsApi';
import { EditAssignmentModal } from './EditAssignmentModal';
import { CreateAssignmentModal } from './CreateAssignmentModal';
import { filterAssignments } from './filterAssignments';
import { SubmissionsModal } from './SubmissionsModal';
import { SubmitAssignmentModal } from './SubmitAssignmentModal';
import { useAnswerOpen } from './useAnswerOpen';
import { useNow } from './useNow';
import { SAMPLE_CONFIRMATION, SAMPLE_CREATED } from '../courses/sampleConfirmation';
import './AssignmentsPage.css';

/** The router state a link sends to open the create-assignment dialog on arrival (spec §2). */
export const OPEN_CREATE_ASSIGNMENT = 'openCreateAssignment';

const SKELETON_COUNT = 3;

/** /assignments: teachers create, generate, delete and grade; students submit and see their grades. */
export function AssignmentsPage() {
  const profile = useAppSelector(selectProfile);
  const role = profile?.role ?? 'student';
  const queuedIds = useQueuedAssignments(role === 'student' ? (profile?.id ?? null) : null);
  const isTeacher = role === 'teacher';
  const now = useNow();
  const [query, setQuery] = useState('');
  const [createOpen, setCreateOpen] = useState(false);
  const [submitting, setSubmitting] = useAnswerOpen(role === 'student' ? (profile?.id ?? null) : null);
  const [reviewing, setReviewing] = useState<Assignment | null>(null);
  const [editing, setEditing] = useState<Assignment | null>(null);
  // The assignment whose private comments are open (students).
  const [threadOf, setThreadOf] = useState<string | null>(null);
  // The assignment just submitted, whose card takes focus once it shows the submission.
  const [justSubmitted, setJustSubmitted] = useState<string | null>(null);

  const { data: assignments, isLoading, error, refetch } = useGetAssignmentsQuery();
  // Teachers pick one of their own courses when creating an assignment; a student without any is
  // told how to join one.
  const courses = useGetCoursesQuery();
  const ownCourses = useMemo(
    // A teacher's list holds the courses they teach, owned or co-taught (DESIGN §20).
    () => (isTeacher ? (courses.data ?? []) : []),
    [courses.data, isTeacher],
  );
  const [createSamples, { isLoading: creatingSamples }] = useCreateSampleAssignmentsMutation();
  const [confirm, confirmDialog] = useConfirm();
  const visible = useMemo(() => filterAssignments(assignments ?? [], query), [assignments, query]);
  const searching = query.trim() !== '';
  const notInAnyClass = !isTeacher && courses.data?.length === 0;

  useErrorToast(error ?? courses.error, 'Failed to load data.');
  useNavigationFlag(OPEN_CREATE_ASSIGNMENT, () => setCreateOpen(true), isTeacher);

  async function handleGenerateSamples() {
    if (!(await confirm(SAMPLE_CONFIRMATION))) return;
    try {
      await createSamples().unwrap();
      toast.success(SAMPLE_CREATED);
    } catch {
      toast.error('Failed to create samples.');
    }
  }

  // The Submit button that opened the dialog is gone once the card shows the submission, so the
  // dialog cannot give focus back to it; the card's new status takes it instead of <body>.
  useEffect(() => {
    if (!justSubmitted) return;
    const status = document.querySelector<HTMLElement>(`[data-submission-of="${justSubmitted}"]`);
    if (!status) return;
    status.focus();
    setJustSubmitted(null);
  }, [justSubmitted, assignments]);

  // `?open=<id>` (a notification, the to-do list, the calendar): a teacher gets its submissions,
  // a student its card, scrolled to and focused. The parameter is used up, so a reload does not repeat it.
  const [searchParams, setSearchParams] = useSearchParams();
  const navigate = useNavigate();
  const openId = searchParams.get('open');
  useEffect(() => {
    if (!openId || !assignments) return;
    setSearchParams(
      (params) => {
        params.delete('open');
        params.delete('thread');
        return params;
      },
      { replace: true },
    );
    const target = assignments.find((a) => a.id === openId);
    if (!target) {
      toast.error('That assignment is no longer available.', { id: 'open-assignment' });
      return;
    }
    // A private comment's notification names its thread: the teacher answers it where they grade.
    const threadStudent = searchParams.get('thread');
    if (isTeacher && threadStudent) {
      void navigate(`/assignments/${openId}/grading?student=${encodeURIComponent(threadStudent)}`);
      return;
    }
    if (isTeacher) {
      setReviewing(target);
      return;
    }
    if (threadStudent) setThreadOf(openId);
    // After the layout has focused the new page's heading (it waits for the heading to appear).
    // Not cancelled on re-run: using up the parameter re-runs this effect at once.
    requestAnimationFrame(() => {
      const card = document.querySelector<HTMLElement>(`[data-assignment="${CSS.escape(openId)}"]`);
      card?.scrollIntoView?.({ block: 'center' });
      card?.focus({ preventScroll: true });
    });
  }, [openId, assignments, isTeacher, setSearchParams, searchParams, navigate]);

  // The open dialogs follow the cached assignment, so a grade or a deletion shows at once.
  const reviewed = reviewing && (assignments?.find((a) => a.id === reviewing.id) ?? reviewing);
  const answering = submitting && (assignments?.find((a) => a.id === submitting.id) ?? submitting);

  function renderList() {
    if (isLoading) {
      return (
        <div className="assignment-list" aria-busy="true">
          <span className="sr-only" role="status">
            Loading assignments
          </span>
          {Array.from({ length: SKELETON_COUNT }, (_, index) => (
            <div
              key={index}
              className="card assignment-card"
              data-testid="assignment-skeleton"
              aria-hidden="true"
            >
              <div className="assignment-card__body">
                <Skeleton width="45%" height="1.25rem" />
                <Skeleton width="30%" />
                <Skeleton width="55%" />
              </div>
              <Skeleton width="7rem" height="2rem" />
            </div>
          ))}
        </div>
      );
    }
    if (!assignments) {
      return (
        <LoadFailed
          icon={<ClipboardList />}
          title="Assignments could not be loaded"
          error={error}
          onRetry={() => void refetch()}
        />
      );
    }
    if (visible.length === 0) {
      return searching ? (
        <EmptyState icon={<SearchX />} title="No assignments found">
          Try a different search.
        </EmptyState>
      ) : (
        <EmptyState
          icon={<ClipboardList />}
          title="No assignments yet"
          action={
            notInAnyClass && (
              <ButtonLink to="/courses" state={{ [OPEN_JOIN_CLASS]: true }} icon={<KeyRound />}>
                Join a class
              </ButtonLink>
            )
          }
        >
          {isTeacher
            ? 'Create an assignment for one of your courses, or generate samples to try things out.'
            : notInAnyClass
              ? 'You are not in any class yet. Join one with the code from your teacher to see its assignments.'
              : 'Check back later for new assignments.'}
        </EmptyState>
      );
    }
    return (
      <ul className="assignment-list" aria-label="Assignments">
        {visible.map((assignment) => (
          <li key={assignment.id}>
            <AssignmentCard
              assignment={assignment}
              role={role}
              now={now}
              queued={queuedIds.has(assignment.id)}
              onSubmit={setSubmitting}
              onViewSubmissions={setReviewing}
              onEdit={setEditing}
              studentId={profile?.id}
              threadOpen={threadOf === assignment.id}
              onThreadOpenChange={setThreadOf}
            />
          </li>
        ))}
      </ul>
    );
  }

  return (
    <ListPage
      title="Assignments"
      subtitle={isTeacher ? 'Create and manage assignments' : 'View and submit your assignments'}
      searchLabel="Search assignments"
      searchPlaceholder="Search assignments..."
      query={query}
      onQueryChange={setQuery}
      count={
        assignments && {
          shown: visible.length,
          total: assignments.length,
          noun: ['assignment', 'assignments'],
        }
      }
      actions={
        isTeacher && {
          createLabel: 'Create Assignment',
          onCreate: () => setCreateOpen(true),
          onGenerateSamples: () => void handleGenerateSamples(),
          generatingSamples: creatingSamples,
        }
      }
    >
      {renderList()}
      {isTeacher && (
        <>
          <CreateAssignmentModal
            open={createOpen}
            onClose={() => setCreateOpen(false)}
            courses={ownCourses}
            coursesLoading={courses.isLoading}
          />
          <SubmissionsModal assignment={reviewed} onClose={() => setReviewing(null)} />
          <EditAssignmentModal assignment={editing} onClose={() => setEditing(null)} />
        </>
      )}
      {!isTeacher && (
        <SubmitAssignmentModal
          assignment={answering}
          openedWith={submitting}
          onClose={() => setSubmitting(null)}
          onSubmitted={setJustSubmitted}
        />
      )}
      {confirmDialog}
    </ListPage>
  );
}
