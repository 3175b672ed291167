import { Archive } from 'lucide-react';
import { useId } from 'react';
import { CourseCard } from '../courses/CourseCard';
import { useGetPastCoursesQuery } from './archiveApi';
import './archive.css';

/**
 * "Past classes" on the Courses page (DESIGN §20): the archived courses the caller teaches or was a
 * member of, read-only, last archived first. Nothing shows until there is one.
 */
export function PastClasses({ teaches, userId }: { teaches: boolean; userId: string | undefined }) {
  const { data } = useGetPastCoursesQuery();
  const headingId = useId();
  const past = data?.filter((course) => course.archivedAt !== null) ?? [];
  if (past.length === 0) return null;
  return (
    <section className="past-classes" aria-labelledby={headingId}>
      <h2 id={headingId} className="past-classes__title">
        <Archive aria-hidden="true" size={18} />
        Past classes
      </h2>
      <p className="past-classes__hint">Archived: read-only, with their work, grades and stream kept.</p>
      <ul className="course-grid" aria-label="Past classes">
        {past.map((course) => (
          <li key={course.id}>
            <CourseCard course={course} teaches={teaches} isOwner={teaches && course.teacherId === userId} />
          </li>
        ))}
      </ul>
    </section>
  );
}
