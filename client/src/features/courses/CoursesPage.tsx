import { COURSE_SKELETON_COUNT } from '@classwave/shared';
import { BookOpen, KeyRound, Plus, SearchX } from 'lucide-react';
import { useMemo, useState } from 'react';
import { toast } from 'sonner';
import { useAppSelector } from '../../app/hooks';
import { Button } from '../../components/Button';
import { useConfirm } from '../../components/ConfirmDialog';
import { EmptyState } from '../../components/EmptyState';
import { ListPage } from '../../components/ListPage';
import { LoadFailed } from '../../components/LoadFailed';
import { useErrorToast } from '../../components/useErrorToast';
import { useNavigationFlag } from '../../components/useNavigationFlag';
import { selectProfile } from '../auth/authSlice';
import { TeacherBin } from '../bin/BinSection';
import { PastClasses } from '../archive/PastClasses';
import { JoinClassDialog, OPEN_JOIN_CLASS } from '../classes/JoinClassDialog';
import { CourseCard, CourseCardSkeleton } from './CourseCard';
import { useCreateSampleCoursesMutation, useGetCoursesQuery } from './coursesApi';
import { CreateCourseModal } from './CreateCourseModal';
import { SAMPLE_CONFIRMATION, SAMPLE_CREATED } from './sampleConfirmation';
import { filterCourses } from './filterCourses';
import './CoursesPage.css';

/** The router state a link sends to open the create-course dialog on arrival (spec §2). */
export const OPEN_CREATE_COURSE = 'openCreateCourse';

/**
 * /courses: a teacher's own courses or a student's classes, searchable; teachers create, generate and
 * delete theirs, students join one by its code.
 */
export function CoursesPage() {
  const profile = useAppSelector(selectProfile);
  const isTeacher = profile?.role === 'teacher';
  const [query, setQuery] = useState('');
  const [createOpen, setCreateOpen] = useState(false);
  const [joinOpen, setJoinOpen] = useState(false);
  const { data: courses, isLoading, error, refetch } = useGetCoursesQuery();
  const [createSamples, { isLoading: creatingSamples }] = useCreateSampleCoursesMutation();
  const [confirm, confirmDialog] = useConfirm();
  const visible = useMemo(() => filterCourses(courses ?? [], query), [courses, query]);
  const searching = query.trim() !== '';

  useErrorToast(error, 'Failed to load courses');
  useNavigationFlag(OPEN_CREATE_COURSE, () => setCreateOpen(true), isTeacher);
  useNavigationFlag(OPEN_JOIN_CLASS, () => setJoinOpen(true), profile?.role === 'student');

  async function handleGenerateSamples() {
    if (!(await confirm(SAMPLE_CONFIRMATION))) return;
    try {
      await createSamples().unwrap();
      toast.success(SAMPLE_CREATED);
    } catch {
      toast.error('Failed to create sample courses');
    }
  }

  function renderList() {
    if (isLoading) {
      return (
        <div className="course-grid" aria-busy="true">
          <span className="sr-only" role="status">
            Loading courses
          </span>
          {Array.from({ length: COURSE_SKELETON_COUNT }, (_, index) => (
            <CourseCardSkeleton key={index} />
          ))}
        </div>
      );
    }
    if (!courses) {
      return (
        <LoadFailed
          icon={<BookOpen />}
          title="Courses could not be loaded"
          error={error}
          onRetry={() => void refetch()}
        />
      );
    }
    if (visible.length === 0) {
      return searching ? (
        <EmptyState icon={<SearchX />} title="No courses found">
          Try adjusting your search
        </EmptyState>
      ) : (
        <EmptyState
          icon={<BookOpen />}
          title="No courses available"
          action={
            isTeacher ? (
              <Button icon={<Plus />} onClick={() => setCreateOpen(true)}>
                Create First Course
              </Button>
            ) : (
              <Button icon={<KeyRound />} onClick={() => setJoinOpen(true)}>
                Join a class
              </Button>
            )
          }
        >
          {isTeacher
            ? 'Create your first course to get started'
            : 'You are not in any class yet. Ask your teacher for the class code or join link, then join here.'}
        </EmptyState>
      );
    }
    return (
      <ul className="course-grid" aria-label="Courses">
        {visible.map((course) => (
          <li key={course.id}>
            <CourseCard
              course={course}
              teaches={isTeacher}
              isOwner={isTeacher && course.teacherId === profile?.id}
            />
          </li>
        ))}
      </ul>
    );
  }

  return (
    <ListPage
      title="Courses"
      subtitle={isTeacher ? 'Manage your courses and content' : 'Browse and access your enrolled courses'}
      searchLabel="Search courses"
      searchPlaceholder="Search courses by title or code..."
      query={query}
      onQueryChange={setQuery}
      count={courses && { shown: visible.length, total: courses.length, noun: ['course', 'courses'] }}
      extraActions={
        !isTeacher && (
          <Button icon={<KeyRound />} onClick={() => setJoinOpen(true)}>
            Join a class
          </Button>
        )
      }
      actions={
        isTeacher && {
          createLabel: 'Create Course',
          onCreate: () => setCreateOpen(true),
          onGenerateSamples: () => void handleGenerateSamples(),
          generatingSamples: creatingSamples,
          samplesDesktopOnly: true,
        }
      }
    >
      {renderList()}
      <PastClasses teaches={isTeacher} userId={profile?.id} />
      {isTeacher && <TeacherBin />}
      {confirmDialog}
      {isTeacher ? (
        <CreateCourseModal open={createOpen} onClose={() => setCreateOpen(false)} />
      ) : (
        <JoinClassDialog open={joinOpen} onClose={() => setJoinOpen(false)} />
      )}
    </ListPage>
  );
}
