import type { Gradebook } from '@classwave/shared';
import { Download, Scale, SearchX, Table2 } from 'lucide-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { toast } from 'sonner';
import { httpStatus } from '../../api/errors';
import { useAppSelector } from '../../app/hooks';
import { Button } from '../../components/Button';
import { EmptyState } from '../../components/EmptyState';
import { LoadFailed } from '../../components/LoadFailed';
import { BackLink } from '../../components/BackLink';
import { PageHeader } from '../../components/PageHeader';
import { usePageTitle } from '../layout/usePageFocus';
import { Spinner } from '../../components/Spinner';
import { selectAccessToken } from '../auth/authSlice';
import { csvFileName, downloadGradebookCsv } from './downloadCsv';
import { CategoriesModal } from './CategoriesModal';
import { GradebookGrid } from './GradebookGrid';
import { GradebookLegend } from './GradebookLegend';
import { useGetGradebookQuery } from './gradingApi';
import { useGradebookGrid, type GradebookGridState } from './useGradebookGrid';
import './Gradebook.css';

/** /courses/:courseId/gradebook: the course's teacher grades everyone in one grid (DESIGN §13). */
export function GradebookPage() {
  const { courseId = '' } = useParams();
  const { data, isLoading, error, refetch } = useGetGradebookQuery(courseId);
  const status = httpStatus(error);

  if (isLoading) return <Spinner size="lg" label="Loading the gradebook" />;
  if (status === 404 || status === 403 || status === 400) {
    return (
      <>
        <PageHeader title="Gradebook" />
        <EmptyState icon={<SearchX />} title="Gradebook not found" headingLevel={2}>
          Only a course's teacher sees its gradebook. <Link to="/courses">Back to courses</Link>
        </EmptyState>
      </>
    );
  }
  if (!data) {
    return (
      <LoadFailed
        icon={<Table2 />}
        title="The gradebook could not be loaded"
        error={error}
        onRetry={() => void refetch()}
      />
    );
  }
  return <GradebookView gradebook={data} />;
}

function GradebookView({ gradebook }: { gradebook: Gradebook }) {
  const { course, students, assignments } = gradebook;
  const token = useAppSelector(selectAccessToken);
  const grid = useGradebookGrid(gradebook);
  usePageTitle(`Gradebook · ${course.title}`);
  const [downloading, setDownloading] = useState(false);
  const [editingCategories, setEditingCategories] = useState(false);

  async function handleDownload() {
    setDownloading(true);
    try {
      await downloadGradebookCsv(course.id, token, csvFileName(course.code));
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'The gradebook could not be downloaded.');
    } finally {
      setDownloading(false);
    }
  }

  return (
    <>
      <BackLink to={`/courses/${course.id}`}>Back to {course.title}</BackLink>
      <PageHeader
        title="Gradebook"
        subtitle={`${course.code} · ${course.title}`}
        actions={
          <>
            <Button variant="secondary" icon={<Scale />} onClick={() => setEditingCategories(true)}>
              Categories &amp; weights
            </Button>
            <Button
              variant="secondary"
              icon={<Download />}
              loading={downloading}
              onClick={() => void handleDownload()}
            >
              Download CSV
            </Button>
          </>
        }
      />
      <CategoriesModal
        key={editingCategories ? 'open' : 'closed'}
        gradebook={gradebook}
        open={editingCategories}
        onClose={() => setEditingCategories(false)}
      />
      <WeightsLine gradebook={gradebook} />
      {students.length === 0 || assignments.length === 0 ? (
        <EmptyState icon={<Table2 />} title="Nothing to grade yet" headingLevel={2}>
          {students.length === 0
            ? 'No students have joined this course yet.'
            : 'This course has no assignments yet.'}
        </EmptyState>
      ) : (
        <>
          <p className="gradebook__help" id="gradebook-help">
            Arrow keys move; Enter or a digit edits a grade, Enter saves, Tab saves and moves right, Escape
            cancels; E excuses a student who has not submitted.
          </p>
          <ActiveCellBar gradebook={gradebook} grid={grid} />
          <GradebookGrid gradebook={gradebook} grid={grid} />
          <GradebookLegend />
        </>
      )}
    </>
  );
}

/** Whether totals are weighted, and how: one line above the grid (DESIGN §17). */
function WeightsLine({ gradebook }: { gradebook: Gradebook }) {
  if (gradebook.categories.length === 0) return null;
  return (
    <p className="gradebook__weights">
      Totals weighted by category: {gradebook.categories.map((c) => `${c.name} ${c.weight}%`).join(' · ')}
    </p>
  );
}

/**
 * The active cell in words, with what can be done to it: always there, so moving does not shift
 * the grid.
 */
function ActiveCellBar({ gradebook, grid }: { gradebook: Gradebook; grid: GradebookGridState }) {
  const { active, activeCell } = grid;
  const assignment = gradebook.assignments[active.col];
  return (
    <div className="gradebook__toolbar">
      <p className="gradebook__where">
        {gradebook.students[active.row]?.fullName} · {assignment?.title}:{' '}
        {activeCell?.submissionId
          ? activeCell.grade === null
            ? 'submitted, not graded'
            : `${activeCell.grade}/${assignment?.maxPoints}`
          : activeCell?.assigned === false
            ? 'not assigned'
            : activeCell?.status === 'excused'
              ? 'excused'
              : 'no submission'}
      </p>
      {assignment && gradebook.students[active.row] && (
        <Link
          className="gradebook__open"
          to={`/assignments/${assignment.id}/grading?student=${gradebook.students[active.row]!.id}`}
        >
          Open in grading view
        </Link>
      )}
      {activeCell && !activeCell.submissionId && activeCell.assigned !== false && (
        <Button size="sm" variant="secondary" onClick={() => grid.toggleExcuse(active.row, active.col)}>
          {activeCell.status === 'excused' ? 'Remove excuse' : 'Excuse'}
        </Button>
      )}
    </div>
  );
}
