import { ArrowLeft } from 'lucide-react';
import { Link } from 'react-router-dom';
import { useAppSelector } from '../../app/hooks';
import { PageHeader } from '../../components/PageHeader';
import { selectProfile } from '../auth/authSlice';
import './placeholders.css';

// The titles and subtitles of spec §2. The lists, searches and dialogs of these pages arrive with
// their own features; until then each page shows its heading and nothing invented.

export function CoursesPage() {
  const isTeacher = useAppSelector(selectProfile)?.role === 'teacher';
  return (
    <PageHeader
      title="Courses"
      subtitle={isTeacher ? 'Manage your courses and content' : 'Browse and access your enrolled courses'}
    />
  );
}

export function CourseDetailPage() {
  return (
    <>
      <Link to="/courses" className="back-link">
        <ArrowLeft aria-hidden="true" size={18} />
        Back to courses
      </Link>
      <PageHeader title="Course details" />
    </>
  );
}

export function AssignmentsPage() {
  const isTeacher = useAppSelector(selectProfile)?.role === 'teacher';
  return (
    <PageHeader
      title="Assignments"
      subtitle={isTeacher ? 'Create and manage assignments' : 'View and submit your assignments'}
    />
  );
}

export function ChatbotPage() {
  return <PageHeader title="AI Learning Assistant" />;
}
