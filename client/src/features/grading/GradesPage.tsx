import { WORK_STATUS_LABELS, type StudentGrade } from '@classwave/shared';
import { GraduationCap } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Card } from '../../components/Card';
import { formatListDate } from '../../components/dates';
import { EmptyState } from '../../components/EmptyState';
import { LoadFailed } from '../../components/LoadFailed';
import { PageHeader } from '../../components/PageHeader';
import { Spinner } from '../../components/Spinner';
import { useGetGradesQuery } from './gradingApi';
import './Gradebook.css';

function statusText(item: StudentGrade): string {
  if (item.status === 'returned' && item.grade !== null) return `${item.grade}/${item.maxPoints}`;
  return WORK_STATUS_LABELS[item.status];
}

/** /grades: a student's returned grades, course by course, with each course's total (DESIGN §13). */
export function GradesPage() {
  const { data, isLoading, error, refetch } = useGetGradesQuery();

  function renderBody() {
    if (isLoading) return <Spinner size="lg" label="Loading your grades" />;
    if (!data) {
      return (
        <LoadFailed
          icon={<GraduationCap />}
          title="Your grades could not be loaded"
          error={error}
          onRetry={() => void refetch()}
        />
      );
    }
    if (data.length === 0) {
      return (
        <EmptyState icon={<GraduationCap />} title="No grades yet" headingLevel={2}>
          Once your teachers return graded work, it shows here.
        </EmptyState>
      );
    }
    return data.map(({ course, items, points, possible, percent, categories }) => {
      const headingId = `grades-${course.id}`;
      const categoryName = new Map(categories.map((c) => [c.id, c.name]));
      return (
        <Card key={course.id} as="section" aria-labelledby={headingId} className="grades-course">
          <div className="grades-course__head">
            <h2 id={headingId} className="grades-course__title">
              <Link to={`/courses/${course.id}`}>{course.title}</Link>{' '}
              <span className="grades-course__code">{course.code}</span>
            </h2>
            <p className="grades-course__total">
              {possible === 0 ? (
                'No grades returned yet'
              ) : categories.length > 0 ? (
                <>
                  Total <strong>{percent === null ? '–' : `${percent}%`}</strong>, weighted by category
                </>
              ) : (
                <>
                  Total {points}/{possible}
                  {percent !== null && <strong> · {percent}%</strong>}
                </>
              )}
            </p>
          </div>
          {categories.length > 0 && (
            <ul className="grades-course__categories" aria-label={`${course.title}: categories`}>
              {categories.map((c) => (
                <li key={c.id}>
                  {c.name} ({c.weight}%): {c.percent === null ? 'nothing counted yet' : `${c.percent}%`}
                </li>
              ))}
            </ul>
          )}
          {items.length > 0 && (
            <table className="grades-table">
              <thead>
                <tr>
                  <th scope="col">Assignment</th>
                  <th scope="col">Due</th>
                  <th scope="col">Grade</th>
                </tr>
              </thead>
              <tbody>
                {items.map((item) => (
                  <tr key={item.assignmentId}>
                    <th scope="row">
                      {item.title}
                      {item.categoryId && categoryName.has(item.categoryId) && (
                        <span className="grades-table__category"> · {categoryName.get(item.categoryId)}</span>
                      )}
                      {item.feedback && <p className="grades-table__feedback">{item.feedback}</p>}
                    </th>
                    <td>{formatListDate(item.dueDate)}</td>
                    <td className={`grades-table__grade grades-table__grade--${item.status}`}>
                      {statusText(item)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </Card>
      );
    });
  }

  return (
    <>
      <PageHeader title="Grades" subtitle="Your returned grades, by course" />
      <div className="grades">{renderBody()}</div>
    </>
  );
}
