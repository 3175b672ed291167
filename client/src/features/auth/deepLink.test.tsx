import { screen, waitFor } from '@testing-library/react';
import { useLocation } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '../../test/appRoutes';
import { answerApi, type Route } from '../../test/api';
import { createProfile, createSession, signedInAuth, signedOutAuth } from '../../test/factories';
import { renderWithProviders } from '../../test/renderWithProviders';
import { safeNextPath } from './nextPath';

function LocationProbe() {
  const { pathname, search } = useLocation();
  return <output data-testid="location">{`${pathname}${search}`}</output>;
}

const location = () => screen.getByTestId('location').textContent;

function visit(route: string, routes: Record<string, Route> = {}, auth = signedOutAuth()) {
  const calls = answerApi(routes);
  const view = renderWithProviders(
    <>
      <AppRoutes />
      <LocationProbe />
    </>,
    { route, preloadedState: { auth } },
  );
  return { ...view, calls };
}

/** The answers a sign-in needs: the session, then the profile. */
function signInRoutes(): Record<string, Route> {
  const session = createSession();
  const profile = createProfile({ id: session.user.id, fullName: 'Ada Lovelace', role: 'student' });
  return {
    'POST /api/auth/signin': { body: { session } },
    'GET /api/me': { body: { profile } },
    'GET /api/assignments': { body: [] },
    'GET /api/courses': { body: [] },
    'GET /api/dashboard': { body: { courses: 0, assignments: 0, submissions: 0, recent: [] } },
  };
}

async function signIn(user: ReturnType<typeof visit>['user']) {
  await user.type(screen.getByLabelText('Email'), 'ada@example.org');
  await user.type(screen.getByLabelText('Password'), 'analytical{Enter}');
}

describe('returning to the page asked for after signing in', () => {
  it('sends a signed-out visit of /assignments to sign-in, then back to /assignments', async () => {
    const { user } = visit('/assignments?course=x', signInRoutes());
    expect(location()).toBe('/login?next=%2Fassignments%3Fcourse%3Dx');

    await signIn(user);
    await waitFor(() => expect(location()).toBe('/assignments?course=x'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Assignments' })).toBeInTheDocument();
  });

  it('continues to a join link after signing in', async () => {
    const { user } = visit('/join/ABCD-EFGH', {
      ...signInRoutes(),
      'GET /api/join/ABCDEFGH': 'pending',
    });
    expect(location()).toBe('/login?next=%2Fjoin%2FABCD-EFGH');
    await signIn(user);
    await waitFor(() => expect(location()).toBe('/join/ABCD-EFGH'));
  });

  it.each(['//evil.example/x', '/\\evil.example', 'https://evil.example/', 'javascript:alert(1)'])(
    'goes to the dashboard, never to %s',
    async (next) => {
      const { user } = visit(`/login?next=${encodeURIComponent(next)}`, signInRoutes());
      await signIn(user);
      await waitFor(() => expect(location()).toBe('/dashboard'));
    },
  );

  it('sends an already signed-in visitor of /login?next= straight on', () => {
    visit(
      '/login?next=%2Fassignments',
      { 'GET /api/assignments': 'pending', 'GET /api/courses': 'pending' },
      signedInAuth(),
    );
    expect(location()).toBe('/assignments');
  });

  it('keeps the destination through sign-up: the links between the screens and the verification link', async () => {
    const { user, calls } = visit('/login?next=%2Fjoin%2FABCD-EFGH', {
      'POST /api/auth/signup': { body: { message: 'Check your e-mail' } },
    });
    await user.click(screen.getByRole('link', { name: 'Create an account' }));
    expect(location()).toBe('/signup?next=%2Fjoin%2FABCD-EFGH');
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute(
      'href',
      '/login?next=%2Fjoin%2FABCD-EFGH',
    );

    await user.type(screen.getByLabelText('Full name'), 'Ada Lovelace');
    await user.type(screen.getByLabelText('Email'), 'ada@example.org');
    await user.type(screen.getByLabelText('Password'), 'analytical engine{Enter}');
    await screen.findByRole('heading', { name: 'Verification Email Sent!' });
    const body = calls.find((c) => c.path === '/api/auth/signup')?.body as { redirectTo: string };
    expect(body.redirectTo).toBe(`${window.location.origin}/login?next=%2Fjoin%2FABCD-EFGH`);
  });
});

describe('safeNextPath', () => {
  it.each([
    ['/join/ABCD-EFGH', '/join/ABCD-EFGH'],
    ['/assignments?x=1#top', '/assignments?x=1#top'],
    ['/courses/../assignments', '/assignments'],
  ])('keeps the app path %s', (raw, expected) => {
    expect(safeNextPath(raw)).toBe(expected);
  });

  it.each([
    null,
    '',
    'assignments',
    '//evil.example',
    '/\\evil.example',
    'https://evil.example',
    '/\tx',
    '/',
    '/login',
    '/dashboard',
  ])('refuses %s', (raw) => {
    expect(safeNextPath(raw)).toBeNull();
  });
});
