import { Navigate, Outlet, useLocation, useSearchParams } from 'react-router-dom';
import { FullPageSpinner } from '../../components/Spinner';
import { useAppSelector } from '../../app/hooks';
import { selectAuthStatus, selectIsAuthenticated } from './authSlice';
import { destinationAfterSignIn, NEXT_PARAM, safeNextPath, withNext } from './nextPath';

/**
 * Protected routes: a signed-in user with a loaded profile, else /login (spec §2), which returns
 * here after signing in (a join link, a bookmarked page).
 */
export function RequireAuth() {
  const status = useAppSelector(selectAuthStatus);
  const authenticated = useAppSelector(selectIsAuthenticated);
  const { pathname, search, hash } = useLocation();

  if (status === 'loading') return <FullPageSpinner label="Loading your session" />;
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
