import { act, screen } from '@testing-library/react';
import { useLocation } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '../../test/appRoutes';
import { sessionExpired, sessionReceived, signedIn } from './authSlice';
import { createSession, loadingAuth, signedInAuth, signedOutAuth } from '../../test/factories';
import { renderWithProviders } from '../../test/renderWithProviders';

function LocationProbe() {
  return <output data-testid="location">{useLocation().pathname}</output>;
}

function renderAt(route: string, auth: ReturnType<typeof signedInAuth>) {
  return renderWithProviders(
    <>
      <AppRoutes />
      <LocationProbe />
    </>,
    { route, preloadedState: { auth } },
  );
}

const currentPath = () => screen.getByTestId('location').textContent;

describe('route guards', () => {
  it('shows a spinner, and neither page nor redirect, while the session loads', () => {
    renderAt('/dashboard', loadingAuth());
    expect(screen.getByRole('status', { name: 'Loading your session' })).toBeInTheDocument();
    expect(currentPath()).toBe('/dashboard');
    expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();
  });

  it('sends a signed-out visitor of a protected page to /login', () => {
    renderAt('/courses', signedOutAuth());
    expect(currentPath()).toBe('/login');
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeInTheDocument();
  });

  it('sends a signed-in user without a loaded profile to /login', () => {
    renderAt('/dashboard', { status: 'signedIn', session: createSession(), profile: null });
    expect(currentPath()).toBe('/login');
  });

  it('lets a signed-in user with a profile see a protected page inside the layout', () => {
    renderAt('/assignments', signedInAuth({ role: 'teacher' }));
    expect(currentPath()).toBe('/assignments');
    expect(screen.getByRole('heading', { level: 1, name: 'Assignments' })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();
  });

  // Issue 25 (item 10) looks for what re-mounted the Assignments page around a token refresh: not
  // the guard, which keeps the page (the same nodes) while a session expires and comes back.
  it('keeps the same page, never built again, while a session expires and comes back', async () => {
    const { store } = renderAt('/assignments', signedInAuth({ role: 'student' }));
    const heading = screen.getByRole('heading', { level: 1, name: 'Assignments' });
    const profile = store.getState().auth.profile!;
    act(() => void store.dispatch(sessionExpired()));
    expect(await screen.findByRole('dialog')).toBeInTheDocument();
    expect(heading).toBeInTheDocument();
    act(() => {
      store.dispatch(sessionReceived(createSession()));
      store.dispatch(signedIn(profile));
    });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(heading).toBeInTheDocument();
  });

  it.each(['/login', '/signup'])('sends a signed-in user away from %s to /dashboard', (route) => {
    renderAt(route, signedInAuth({ fullName: 'Ada Lovelace' }));
    expect(currentPath()).toBe('/dashboard');
    expect(screen.getByRole('heading', { level: 1, name: /Ada!$/ })).toBeInTheDocument();
  });

  it('redirects / to /dashboard', () => {
    renderAt('/', signedInAuth());
    expect(currentPath()).toBe('/dashboard');
  });

  it('redirects an unknown path to /dashboard', () => {
    renderAt('/no/such/page', signedInAuth());
    expect(currentPath()).toBe('/dashboard');
  });

  it('sends a signed-out visitor of an unknown path to /login', () => {
    renderAt('/no/such/page', signedOutAuth());
    expect(currentPath()).toBe('/login');
  });

  it.each([
    ['/live-classes', 'Live Classes'],
    ['/teams', 'Teams'],
    ['/messages', 'Messages'],
  ])('shows %s as a coming-soon placeholder', (route, title) => {
    renderAt(route, signedInAuth());
    expect(screen.getByRole('heading', { level: 1, name: title })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Coming soon' })).toBeInTheDocument();
  });
});
