import type { Assignment } from '@classwave/shared';
import { ClipboardList, KeyRound, SearchX } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { toast } from 'sonner';
import { httpStatus } from '../../api/errors';
import { useAppSelector } from '../../app/hooks';
import { EmptyState } from '../../components/EmptyState';
import { ListPage } from '../../components/ListPage';
import { LoadFailed } from '../../components/LoadFailed';
import { Skeleton } from '../../components/Skeleton';
import { useErrorToast } from '../../components/useErrorToast';
import { useNavigationFlag } from '../../components/useNavigationFlag';
import { selectProfile } from '../auth/authSlice';
import { useGetCoursesQuery } from '../courses/coursesApi';
import { OPEN_JOIN_CLASS } from '../classes/JoinClassDialog';
import { ButtonLink } from '../../components/ButtonLink';
import { AssignmentCard } from './AssignmentCard';
import { useCreateSampleAssignmentsMutation, useGetAssignmentsQuery } from './assignmentsApi';
import { CreateAssignmentModal } from './CreateAssignmentModal';
import { filterAssignments } from './filterAssignments';
import { SubmissionsModal } from './SubmissionsModal';
import { SubmitAssignmentModal } from './SubmitAssignmentModal';
import { useNow } from './useNow';
import './AssignmentsPage.css';

/** The router state a link sends to open the create-assignment dialog on arrival (spec §2). */
export const OPEN_CREATE_ASSIGNMENT = 'openCreateAssignment';

const SKELETON_COUNT = 3;

/** /assignments: teachers create, generate, delete and grade; students submit and see their grades. */
export function AssignmentsPage() {
  const profile = useAppSelector(selectProfile);
  const role = profile?.role ?? 'student';
  const isTeacher = role === 'teacher';
  const now = useNow();
  const [query, setQuery] = useState('');
  const [createOpen, setCreateOpen] = useState(false);
  const [submitting, setSubmitting] = useState<Assignment | null>(null);
  const [reviewing, setReviewing] = useState<Assignment | null>(null);
  // The assignment just submitted, whose card takes focus once it shows the submission.
  const [justSubmitted, setJustSubmitted] = useState<string | null>(null);

  const { data: assignments, isLoading, error, refetch } = useGetAssignmentsQuery();
  // Teachers pick one of their own courses when creating an assignment; a student without any is
  // told how to join one.
  const courses = useGetCoursesQuery();
  const ownCourses = useMemo(
    () => (courses.data ?? []).filter((course) => course.teacherId === profile?.id),
    [courses.data, profile?.id],
  );
  const [createSamples, { isLoading: creatingSamples }] = useCreateSampleAssignmentsMutation();
  const visible = useMemo(() => filterAssignments(assignments ?? [], query), [assignments, query]);
  const searching = query.trim() !== '';
  const notInAnyClass = !isTeacher && courses.data?.length === 0;

  useErrorToast(error ?? courses.error, 'Failed to load data.');
  useNavigationFlag(OPEN_CREATE_ASSIGNMENT, () => setCreateOpen(true), isTeacher);

  async function handleGenerateSamples() {
    try {
      await createSamples().unwrap();
      toast.success('Sample assignments created!');
    } catch (failure) {
      toast.error(
        httpStatus(failure) === 409 ? 'Please create a course first.' : 'Failed to create samples.',
      );
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

  // The open dialogs follow the cached assignment, so a grade or a deletion shows at once.
  const reviewed = reviewing && (assignments?.find((a) => a.id === reviewing.id) ?? reviewing);

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
              onSubmit={setSubmitting}
              onViewSubmissions={setReviewing}
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
        </>
      )}
      {!isTeacher && (
        <SubmitAssignmentModal
          assignment={submitting}
          onClose={() => setSubmitting(null)}
          onSubmitted={setJustSubmitted}
        />
      )}
    </ListPage>
  );
}
