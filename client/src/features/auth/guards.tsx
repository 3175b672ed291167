import { Navigate, Outlet } from 'react-router-dom';
import { FullPageSpinner } from '../../components/Spinner';
import { useAppSelector } from '../../app/hooks';
import { selectAuthStatus, selectIsAuthenticated } from './authSlice';

/** Protected routes: a signed-in user with a loaded profile, else /login (spec §2). */
export function RequireAuth() {
  const status = useAppSelector(selectAuthStatus);
  const authenticated = useAppSelector(selectIsAuthenticated);

  if (status === 'loading') return <FullPageSpinner label="Loading your session" />;
  if (!authenticated) return <Navigate to="/login" replace />;
  return <Outlet />;
}

/** /login and /signup: a signed-in user is sent to /dashboard. */
export function PublicOnly() {
  const status = useAppSelector(selectAuthStatus);
  const authenticated = useAppSelector(selectIsAuthenticated);

  if (status === 'loading') return <FullPageSpinner label="Loading your session" />;
  if (authenticated) return <Navigate to="/dashboard" replace />;
  return <Outlet />;
}
