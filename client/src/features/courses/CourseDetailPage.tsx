import { formatDetailDate, type CourseDetail } from '@classwave/shared';
import { formatListDate } from '../../components/dates';
import { ChevronRight, ClipboardList, FolderOpen, Pencil, SearchX, Table2, Video } from 'lucide-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { httpStatus } from '../../api/errors';
import { Avatar } from '../../components/Avatar';
import { Button } from '../../components/Button';
import { ButtonLink } from '../../components/ButtonLink';
import { Card } from '../../components/Card';
import { EmptyState } from '../../components/EmptyState';
import { LoadFailed } from '../../components/LoadFailed';
import { Skeleton } from '../../components/Skeleton';
import { useErrorToast } from '../../components/useErrorToast';
import { useAppSelector } from '../../app/hooks';
import { selectProfile } from '../auth/authSlice';
import { JoinCodePanel } from '../classes/JoinCodePanel';
import { LeaveClassButton } from '../classes/LeaveClassButton';
import { RosterSection } from '../classes/RosterSection';
import { CourseBin } from '../bin/BinSection';
import { EditCourseModal } from './EditCourseModal';
import { TeachersSection } from '../coteachers/TeachersSection';
import { CourseStream } from '../conversations/CourseStream';
import { CourseLessonPanel } from '../lessons/CourseLessonPanel';
import { BackLink } from '../../components/BackLink';
import { Notice } from '../../components/Notice';
import { CourseArchiveActions } from '../archive/CourseArchiveActions';
import { CourseReadOnlyContext } from '../archive/readOnly';
import { LeaveTeachingButton } from '../coteachers/LeaveTeachingButton';
import '../archive/archive.css';
import { useGetCourseQuery } from './coursesApi';
import { usePageTitle } from '../layout/usePageFocus';
import './CourseDetailPage.css';

function BackToCourses() {
  return <BackLink to="/courses">Back to courses</BackLink>;
}

/**
 * /courses/:courseId: a course, opening on its stream (DESIGN §19), with its description, assignments,
 * instructor and (coming) resources beside it, and the teacher's roster and bin under the stream.
 */
export function CourseDetailPage() {
  const { courseId = '' } = useParams();
  const { data, isLoading, error, refetch } = useGetCourseQuery(courseId);
  // A malformed id is refused with 400: for the user that course does not exist either.
  const status = httpStatus(error);
  const notFound = status === 404 || status === 400;
  useErrorToast(error && !notFound ? error : undefined, 'Failed to load course details.');
  usePageTitle(data?.course.title);

  if (isLoading) {
    return (
      <div aria-busy="true">
        <BackToCourses />
        <span className="sr-only" role="status">
          Loading course
        </span>
        <div className="course-detail__header" aria-hidden="true">
          <Skeleton width="5rem" height="1.5rem" />
          <Skeleton width="min(24rem, 80%)" height="2.25rem" />
        </div>
        <div className="course-detail__layout" aria-hidden="true">
          <Card>
            <Skeleton width="40%" height="1.25rem" />
            <div className="course-detail__skeleton-lines">
              <Skeleton />
              <Skeleton />
              <Skeleton width="60%" />
            </div>
          </Card>
          <Card>
            <Skeleton width="50%" height="1.25rem" />
          </Card>
        </div>
      </div>
    );
  }

  if (notFound) {
    return (
      <>
        <BackToCourses />
        <EmptyState
          icon={<SearchX />}
          title="Course not found"
          headingLevel={2}
          action={
            <BackLink to="/courses" standalone>
              Back to courses
            </BackLink>
          }
        >
          It may have been deleted, or the link is not quite right.
        </EmptyState>
      </>
    );
  }

  if (!data) {
    return (
      <>
        <BackToCourses />
        <LoadFailed
          icon={<FolderOpen />}
          title="This course could not be loaded"
          error={error}
          onRetry={() => void refetch()}
        />
      </>
    );
  }

  return <CourseDetailView detail={data} />;
}

function CourseDetailView({ detail: { course, assignments, teachers } }: { detail: CourseDetail }) {
  const profile = useAppSelector(selectProfile);
  // A teacher sees only the courses they teach, owned or co-taught (DESIGN §20); the teachers are
  // sent the code (DESIGN §11). Deleting the course and managing co-teachers stay the owner's.
  const teaches = profile?.role === 'teacher';
  const isOwner = teaches && course.teacherId === profile.id;
  // Nobody joins an archived course (DESIGN §20): its code is not offered.
  const joinCode = teaches && course.archivedAt === null ? course.joinCode : null;
  const [editing, setEditing] = useState(false);
  // Archived (DESIGN §20): read-only for everyone until its owner unarchives it.
  const archived = course.archivedAt !== null;
  // The owner first, then co-teachers (an older cached answer has only the owner).
  const instructors = teachers ?? [
    { id: course.teacherId, fullName: course.teacher.fullName, role: 'owner' },
  ];
  return (
    <CourseReadOnlyContext.Provider value={archived}>
      <BackToCourses />
      <header className="course-detail__header">
        <span className="course-detail__code">{course.code}</span>
        <h1 className="course-detail__title">{course.title}</h1>
        <p className="course-detail__meta">Created {formatDetailDate(course.createdAt)}</p>
        {profile?.role === 'student' && !archived && <LeaveClassButton course={course} />}
        {teaches && (
          <div className="course-detail__owner-actions">
            {!archived && (
              <Button variant="secondary" size="sm" icon={<Pencil />} onClick={() => setEditing(true)}>
                Edit course
              </Button>
            )}
            <ButtonLink to={`/courses/${course.id}/gradebook`} size="sm" icon={<Table2 />}>
              Gradebook
            </ButtonLink>
            <CourseArchiveActions course={course} isOwner={isOwner} />
            {!isOwner && !archived && <LeaveTeachingButton course={course} />}
          </div>
        )}
      </header>
      {archived && (
        <Notice tone="info" title="This class is archived" className="course-archived">
          It is read-only: its work, grades and stream can be read, and nothing can be changed.
          {isOwner ? ' Unarchive it to make changes.' : teaches ? ' Only its owner can unarchive it.' : ''}
        </Notice>
      )}
      {teaches && !archived && (
        <EditCourseModal course={editing ? course : null} onClose={() => setEditing(false)} />
      )}

      <div className="course-detail__layout">
        <div className="course-detail__main">
          {/* A live lesson writes answers: none in an archived course. */}
          {!archived && <CourseLessonPanel courseId={course.id} teaches={teaches} />}
          <CourseStream courseId={course.id} teaches={teaches} />
          {teaches && <TeachersSection courseId={course.id} isOwner={isOwner} />}
          {teaches && <RosterSection courseId={course.id} />}
          {teaches && !archived && <CourseBin courseId={course.id} />}
        </div>

        <aside className="course-detail__side" aria-label="About this course">
          {joinCode !== null && <JoinCodePanel course={{ ...course, joinCode }} />}
          <Card as="section" aria-labelledby="course-description">
            <h2 id="course-description" className="course-detail__section-title">
              Course Description
            </h2>
            <p className="course-detail__description">{course.description}</p>
          </Card>

          <Card as="section" aria-labelledby="course-assignments">
            <div className="course-detail__section-head">
              <h2 id="course-assignments" className="course-detail__section-title">
                Assignments
              </h2>
              {assignments.length > 0 && <span className="course-detail__count">{assignments.length}</span>}
            </div>
            {assignments.length === 0 ? (
              <p className="course-detail__empty">No assignments for this course yet.</p>
            ) : (
              <ul className="course-assignments">
                {assignments.map((assignment) => (
                  <li key={assignment.id}>
                    <Link to="/assignments" className="course-assignment">
                      <span className="course-assignment__icon" aria-hidden="true">
                        <ClipboardList size={18} />
                      </span>
                      <span className="course-assignment__text">
                        <span className="course-assignment__title">{assignment.title}</span>
                        <span className="course-assignment__due">
                          <span>Due {formatListDate(assignment.dueDate)}</span>
                          <span aria-hidden="true"> · </span>
                          <span className="course-assignment__points">{assignment.maxPoints} points</span>
                          {teaches && (assignment.needsGrading ?? 0) > 0 && (
                            <>
                              <span aria-hidden="true"> · </span>
                              <span className="course-assignment__to-grade">
                                {assignment.needsGrading} to grade
                              </span>
                            </>
                          )}
                        </span>
                      </span>
                      <ChevronRight className="course-assignment__chevron" aria-hidden="true" size={18} />
                    </Link>
                  </li>
                ))}
              </ul>
            )}
          </Card>

          <Card as="section" aria-labelledby="course-instructor">
            <h2 id="course-instructor" className="course-detail__section-title">
              {instructors.length > 1 ? 'Instructors' : 'Instructor'}
            </h2>
            <ul className="course-detail__instructors">
              {instructors.map((teacher) => (
                <li key={teacher.id} className="course-detail__instructor">
                  <Avatar name={teacher.fullName} size="lg" />
                  <div>
                    <p className="course-detail__instructor-name">{teacher.fullName}</p>
                    <p className="course-detail__instructor-role">
                      {teacher.role === 'owner' ? 'Owner' : 'Co-teacher'}
                    </p>
                  </div>
                </li>
              ))}
            </ul>
          </Card>

          <Card as="section" aria-labelledby="course-resources">
            <h2 id="course-resources" className="course-detail__section-title">
              Resources
            </h2>
            <ul className="course-resources">
              <li>
                <FolderOpen aria-hidden="true" size={18} />
                Course Materials (Coming Soon)
              </li>
              <li>
                <Video aria-hidden="true" size={18} />
                Live Classes (Coming Soon)
              </li>
            </ul>
          </Card>
        </aside>
      </div>
    </CourseReadOnlyContext.Provider>
  );
}
