import { Navigate, Route, Routes } from 'react-router-dom';
import { PublicOnly, RequireAuth } from '../features/auth/guards';
import { LoginPage } from '../features/auth/LoginPage';
import { SignupPage } from '../features/auth/SignupPage';
import { AssignmentsPage } from '../features/assignments/AssignmentsPage';
import { CourseDetailPage } from '../features/courses/CourseDetailPage';
import { CoursesPage } from '../features/courses/CoursesPage';
import { DashboardPage } from '../features/dashboard/DashboardPage';
import { AppLayout } from '../features/layout/AppLayout';
import { ChatPage } from '../features/chat/ChatPage';
import { JoinPage } from '../features/classes/JoinPage';
import { ComingSoonPage } from '../features/placeholders/ComingSoonPage';

/** The route table of spec §2. Rendered inside a router: BrowserRouter in the app, MemoryRouter in tests. */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<PublicOnly />}>
        <Route path="/login" element={<LoginPage />} />
        <Route path="/signup" element={<SignupPage />} />
      </Route>
      <Route element={<RequireAuth />}>
        <Route element={<AppLayout />}>
          <Route index element={<Navigate to="/dashboard" replace />} />
          <Route path="/dashboard" element={<DashboardPage />} />
          <Route path="/courses" element={<CoursesPage />} />
          <Route path="/courses/:courseId" element={<CourseDetailPage />} />
          <Route path="/join/:code" element={<JoinPage />} />
          <Route path="/assignments" element={<AssignmentsPage />} />
          <Route path="/chatbot" element={<ChatPage />} />
          <Route path="/calendar" element={<ComingSoonPage section="calendar" />} />
          <Route path="/live-classes" element={<ComingSoonPage section="liveClasses" />} />
          <Route path="/teams" element={<ComingSoonPage section="teams" />} />
          <Route path="/messages" element={<ComingSoonPage section="messages" />} />
          <Route path="/settings" element={<ComingSoonPage section="settings" />} />
          <Route path="*" element={<Navigate to="/dashboard" replace />} />
        </Route>
      </Route>
    </Routes>
  );
}
