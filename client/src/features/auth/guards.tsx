import { useEffect, useState } from 'react';
import { Navigate, Outlet, useLocation, useSearchParams } from 'react-router-dom';
import { FullPageSpinner } from '../../components/Spinner';
import { useAppSelector } from '../../app/hooks';
import { selectAuthStatus, selectIsAuthenticated, selectProfile } from './authSlice';
import { SessionExpiredDialog } from './SessionExpiredDialog';
import { destinationAfterSignIn, NEXT_PARAM, safeNextPath, withNext } from './nextPath';

/**
 * Protected routes: a signed-in user with a loaded profile, else /login (spec §2), which returns
 * here after signing in (a join link, a bookmarked page). An expired session keeps the page.
 */
export function RequireAuth() {
  const status = useAppSelector(selectAuthStatus);
  const authenticated = useAppSelector(selectIsAuthenticated);
  const profile = useAppSelector(selectProfile);
  const { pathname, search, hash } = useLocation();
  // Whose session expired: another account signing in over it starts clean, on the dashboard.
  const [expiredFor, setExpiredFor] = useState<string | null>(null);
  if (status === 'expired' && profile && expiredFor === null) setExpiredFor(profile.id);
  // Forgotten once the session is back (after the redirect below has been made).
  useEffect(() => {
    if (status !== 'expired' && expiredFor !== null) setExpiredFor(null);
  }, [status, expiredFor]);

  if (status === 'loading') return <FullPageSpinner label="Loading your session" />;
  if (status === 'expired' && !profile) return <FullPageSpinner label="Switching account" />;
  if (status !== 'expired' && expiredFor !== null && authenticated && profile?.id !== expiredFor)
    return <Navigate to="/dashboard" replace />;
  // Expired, not signed out: the page stays (and with it any unsaved answer) under a sign-in dialog.
  if (status === 'expired' && profile) {
    return (
      <>
        <Outlet />
        <SessionExpiredDialog />
      </>
    );
  }
  if (!authenticated) {
    return <Navigate to={withNext('/login', safeNextPath(`${pathname}${search}${hash}`))} replace />;
  }
  return <Outlet />;
}

/** /login and /signup: a signed-in user is sent on, to the page they asked for or the dashboard. */
export function PublicOnly() {
  const status = useAppSelector(selectAuthStatus);
  const authenticated = useAppSelector(selectIsAuthenticated);
  const [searchParams] = useSearchParams();

  if (status === 'loading') return <FullPageSpinner label="Loading your session" />;
  if (authenticated) {
    return <Navigate to={destinationAfterSignIn(safeNextPath(searchParams.get(NEXT_PARAM)))} replace />;
  }
  return <Outlet />;
}
