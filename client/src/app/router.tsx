import { Suspense, useEffect } from 'react';
import { Navigate, Outlet, Route, Routes } from 'react-router-dom';
import { FullPageSpinner, Spinner } from '../components/Spinner';
import { PublicOnly, RequireAuth } from '../features/auth/guards';
import { LoginPage } from '../features/auth/LoginPage';
import { selectAccessToken, selectAuthStatus } from '../features/auth/authSlice';
import { useAppSelector } from './hooks';
import { lazyPage } from './lazyPage';
import { isSignedOutPath } from './signedOutPaths';

// Every screen but sign-in is a chunk of its own, so a signed-out visitor downloads only the
// sign-in page (issue 15: first-load JS at most 150 KB compressed).
const SignupPage = lazyPage(
  () => import('../features/auth/SignupPage'),
  (m) => m.SignupPage,
);
const AppLayout = lazyPage(
  () => import('../features/layout/AppLayout'),
  (m) => m.AppLayout,
);
const DashboardPage = lazyPage(
  () => import('../features/dashboard/DashboardPage'),
  (m) => m.DashboardPage,
);
const CoursesPage = lazyPage(
  () => import('../features/courses/CoursesPage'),
  (m) => m.CoursesPage,
);
const CourseDetailPage = lazyPage(
  () => import('../features/courses/CourseDetailPage'),
  (m) => m.CourseDetailPage,
);
const AssignmentsPage = lazyPage(
  () => import('../features/assignments/AssignmentsPage'),
  (m) => m.AssignmentsPage,
);
const GradebookPage = lazyPage(
  () => import('../features/grading/GradebookPage'),
  (m) => m.GradebookPage,
);
const GradingPage = lazyPage(
  () => import('../features/grading/GradingPage'),
  (m) => m.GradingPage,
);
const GradesPage = lazyPage(
  () => import('../features/grading/GradesPage'),
  (m) => m.GradesPage,
);
const ChatPage = lazyPage(
  () => import('../features/chat/ChatPage'),
  (m) => m.ChatPage,
);
const ComingSoonPage = lazyPage(
  () => import('../features/placeholders/ComingSoonPage'),
  (m) => m.ComingSoonPage,
);
const ForgotPasswordPage = lazyPage(
  () => import('../features/auth/ForgotPasswordPage'),
  (m) => m.ForgotPasswordPage,
);
const ResetPasswordPage = lazyPage(
  () => import('../features/auth/ResetPasswordPage'),
  (m) => m.ResetPasswordPage,
);
const JoinPage = lazyPage(
  () => import('../features/classes/JoinPage'),
  (m) => m.JoinPage,
);
const TeacherInvitePage = lazyPage(
  () => import('../features/coteachers/TeacherInvitePage'),
  (m) => m.TeacherInvitePage,
);
const CalendarPage = lazyPage(
  () => import('../features/calendar/CalendarPage'),
  (m) => m.CalendarPage,
);
const LessonPage = lazyPage(
  () => import('../features/lessons/LessonPage'),
  (m) => m.LessonPage,
);
const PresentPage = lazyPage(
  () => import('../features/lessons/PresentPage'),
  (m) => m.PresentPage,
);
const SettingsPage = lazyPage(
  () => import('../features/settings/SettingsPage'),
  (m) => m.SettingsPage,
);

/** Loads the signed-in shell and the dashboard (where sign-in lands) while the profile loads. */
export const preloadSignedInShell = () => Promise.all([AppLayout.preload(), DashboardPage.preload()]);

/**
 * At start-up, on any other path (a bookmark, a reload, a link into the app): the visitor is
 * probably signed in, so the shell and the dashboard load alongside the session check instead of
 * after it, which would put their download between the session and the first paint. A visitor who
 * turns out to be signed out has fetched them for nothing, but sign-in is in the first chunk and
 * does not wait for them.
 */
export function preloadForStartPath(pathname: string) {
  if (isSignedOutPath(pathname)) return;
  void preloadSignedInShell();
}

/** Loads the screens a signed-out visitor goes to from sign-in. */
const preloadSignedOutPages = () => Promise.all([SignupPage.preload(), ForgotPasswordPage.preload()]);

/** Loads every page's chunk (tests render routes synchronously after this). */
export const preloadAllPages = () =>
  Promise.all(
    [
      SignupPage,
      AppLayout,
      DashboardPage,
      CoursesPage,
      CourseDetailPage,
      AssignmentsPage,
      GradebookPage,
      GradingPage,
      GradesPage,
      ChatPage,
      ComingSoonPage,
      ForgotPasswordPage,
      ResetPasswordPage,
      SettingsPage,
      CalendarPage,
      JoinPage,
      TeacherInvitePage,
      LessonPage,
      PresentPage,
    ].map((page) => page.preload()),
  );

/** Inside the signed-in layout: the sidebar stays while a page's chunk loads. */
function PageOutlet() {
  return (
    <Suspense fallback={<Spinner size="lg" label="Loading the page" />}>
      <Outlet />
    </Suspense>
  );
}

/** The route table of spec §2. Rendered inside a router: BrowserRouter in the app, MemoryRouter in tests. */
export function AppRoutes() {
  const hasSession = useAppSelector(selectAccessToken) !== null;
  const signedOut = useAppSelector(selectAuthStatus) === 'signedOut';
  useEffect(() => {
    // A session arrives before its profile: fetch the shell's chunks alongside, not after it.
    if (hasSession) {
      void preloadSignedInShell();
      return;
    }
    // Signed out (known, not while the session is still being checked: a slow check is no reason to
    // fetch them for a visitor who turns out signed in), the next screen is sign-up or a forgotten
    // password: fetched once the page is idle, so a click shows it at once instead of keeping
    // sign-in (and its Email field) on screen.
    if (!signedOut) return;
    const idle = window.setTimeout(() => void preloadSignedOutPages(), 1500);
    return () => window.clearTimeout(idle);
  }, [hasSession, signedOut]);

  return (
    <Suspense fallback={<FullPageSpinner label="Loading the page" />}>
      <Routes>
        <Route element={<PublicOnly />}>
          <Route path="/login" element={<LoginPage />} />
          <Route path="/signup" element={<SignupPage />} />
          <Route path="/forgot-password" element={<ForgotPasswordPage />} />
        </Route>
        {/* Open signed in or out: a reset link works whichever tab it lands in. */}
        <Route path="/reset-password" element={<ResetPasswordPage />} />
        <Route element={<RequireAuth />}>
          {/* The classroom projector: the whole screen, no frame around it. */}
          <Route path="/courses/:courseId/lesson/present" element={<PresentPage />} />
          <Route element={<AppLayout />}>
            <Route element={<PageOutlet />}>
              <Route index element={<Navigate to="/dashboard" replace />} />
              <Route path="/dashboard" element={<DashboardPage />} />
              <Route path="/courses" element={<CoursesPage />} />
              <Route path="/courses/:courseId" element={<CourseDetailPage />} />
              <Route path="/courses/:courseId/gradebook" element={<GradebookPage />} />
              <Route path="/courses/:courseId/lesson" element={<LessonPage />} />
              <Route path="/assignments" element={<AssignmentsPage />} />
              <Route path="/assignments/:assignmentId/grading" element={<GradingPage />} />
              <Route path="/grades" element={<GradesPage />} />
              <Route path="/join/:code" element={<JoinPage />} />
              <Route path="/teacher-invites/:token" element={<TeacherInvitePage />} />
              <Route path="/chatbot" element={<ChatPage />} />
              <Route path="/calendar" element={<CalendarPage />} />
              <Route path="/live-classes" element={<ComingSoonPage section="liveClasses" />} />
              <Route path="/teams" element={<ComingSoonPage section="teams" />} />
              <Route path="/messages" element={<ComingSoonPage section="messages" />} />
              <Route path="/settings" element={<SettingsPage />} />
              <Route path="*" element={<Navigate to="/dashboard" replace />} />
            </Route>
          </Route>
        </Route>
      </Routes>
    </Suspense>
  );
}
