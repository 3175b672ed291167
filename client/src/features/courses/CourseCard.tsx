import type { Course } from '@classwave/shared';
import { BookOpen, Pencil, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { apiErrorBody, httpStatus } from '../../api/errors';
import { useDeleteToBin } from '../bin/useDeleteToBin';
import { Avatar } from '../../components/Avatar';
import { Badge } from '../../components/Badge';
import { ButtonLink } from '../../components/ButtonLink';
import { IconButton } from '../../components/IconButton';
import { Skeleton } from '../../components/Skeleton';
import { EditCourseModal } from './EditCourseModal';
import { useDeleteCourseMutation } from './coursesApi';

/** Six soft accents, picked by course id so a course keeps its colour. */
const ACCENTS = 6;
function accentOf(id: string): number {
  let hash = 0;
  for (const char of id) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return hash % ACCENTS;
}

/**
 * One course in the grid. Its teachers also get edit; its owner delete (DESIGN §20). A course the
 * viewer co-teaches says so.
 */
export function CourseCard({
  course,
  isOwner,
  teaches = isOwner,
}: {
  course: Course;
  isOwner: boolean;
  /** The viewer teaches it, owned or co-taught. */
  teaches?: boolean;
}) {
  const titleId = useId();
  const [deleteCourse, { isLoading: deleting }] = useDeleteCourseMutation();
  // Archived (DESIGN §20): read-only, so neither edited nor deleted from its card.
  const archived = course.archivedAt !== null;
  const [editing, setEditing] = useState(false);
  const { confirmDelete, deleted, dialog } = useDeleteToBin();

  async function handleDelete() {
    if (!(await confirmDelete('course', course.id, course.title))) return;
    try {
      await deleteCourse(course.id).unwrap();
      deleted('course', course.id);
    } catch (error) {
      // The spec's toast, with the server's reason beneath it ("It has 3 assignments. Delete them first.").
      const reason = httpStatus(error) === 409 ? apiErrorBody(error)?.message : undefined;
      toast.error('Failed to delete course. It might have associated assignments.', {
        ...(reason ? { description: reason } : {}),
      });
    }
  }

  return (
    <article
      className={`card course-card course-card--accent-${accentOf(course.id)}`}
      aria-labelledby={titleId}
    >
      <div className="course-card__top">
        <span className="course-card__icon" aria-hidden="true">
          <BookOpen />
        </span>
        <span className="course-card__code">{course.code}</span>
        {teaches && !isOwner && <Badge tone="primary">Co-teaching</Badge>}
        {archived && <Badge>Archived</Badge>}
        {teaches && !archived && (
          <div className="course-card__tools">
            <IconButton label="Edit course" icon={<Pencil />} onClick={() => setEditing(true)} />
            {isOwner && (
              <IconButton
                label="Delete course"
                tone="danger"
                icon={<Trash2 />}
                loading={deleting}
                onClick={() => void handleDelete()}
              />
            )}
          </div>
        )}
      </div>
      <h2 id={titleId} className="course-card__title" title={course.title}>
        {course.title}
      </h2>
      <p className="course-card__description">{course.description}</p>
      <div className="course-card__footer">
        <div className="course-card__teacher">
          <Avatar name={course.teacher.fullName} size="sm" />
          <span className="course-card__teacher-name">{course.teacher.fullName}</span>
        </div>
        <ButtonLink to={`/courses/${course.id}`} variant="secondary" size="sm" aria-describedby={titleId}>
          View Course
        </ButtonLink>
      </div>
      {teaches && !archived && (
        <EditCourseModal course={editing ? course : null} onClose={() => setEditing(false)} />
      )}
      {dialog}
    </article>
  );
}

/** A course card's shape while the list loads. */
export function CourseCardSkeleton() {
  return (
    <div className="card course-card course-card--skeleton" data-testid="course-skeleton" aria-hidden="true">
      <div className="course-card__top">
        <Skeleton width="2.5rem" height="2.5rem" className="course-card__icon-skeleton" />
        <Skeleton width="4rem" height="1.25rem" />
      </div>
      <Skeleton width="70%" height="1.25rem" />
      <div className="course-card__description">
        <Skeleton />
        <Skeleton width="85%" />
      </div>
      <div className="course-card__footer">
        <div className="course-card__teacher">
          <Skeleton circle width="1.75rem" height="1.75rem" />
          <Skeleton width="6rem" />
        </div>
        <Skeleton width="6.5rem" height="2rem" />
      </div>
    </div>
  );
}
