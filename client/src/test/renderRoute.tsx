import type { Profile, Role } from '@classwave/shared';
import { AppRoutes } from './appRoutes';
import { answerApi, type Route } from './api';
import { signedInAuth } from './factories';
import { renderWithProviders } from './renderWithProviders';

type Routes = Record<string, Route>;

/**
 * Renders the app at `route` for a signed-in user of `role` named Grace Hopper, with the API
 * answering `routes`; pass a function to build them from the user's profile (e.g. to give them
 * courses of their own). Returns the render result, the API calls made and the user's profile.
 */
export function renderRoute(
  route: string,
  role: Role,
  routes: Routes | ((me: Profile) => Routes),
  profile: Partial<Profile> = {},
) {
  const auth = signedInAuth({ fullName: 'Grace Hopper', role, ...profile });
  const me = auth.profile!;
  const calls = answerApi(typeof routes === 'function' ? routes(me) : routes);
  const view = renderWithProviders(<AppRoutes />, { route, preloadedState: { auth } });
  return { ...view, calls, me };
}

/** Renders /assignments as `renderRoute` does, with no courses unless `routes` answers for them. */
export function renderAssignments(
  role: Role,
  routes: Routes | ((me: Profile) => Routes),
  profile: Partial<Profile> = {},
) {
  return renderRoute(
    '/assignments',
    role,
    (me) => ({
      'GET /api/courses': { body: [] },
      ...(typeof routes === 'function' ? routes(me) : routes),
    }),
    profile,
  );
}
