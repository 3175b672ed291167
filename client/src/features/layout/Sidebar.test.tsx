import { SIDEBAR_WIDTH_COLLAPSED, SIDEBAR_WIDTH_EXPANDED } from '@classwave/shared';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '../../test/appRoutes';
import { createSession, signedInAuth } from '../../test/factories';
import { renderWithProviders } from '../../test/renderWithProviders';
import { SIDEBAR_COLLAPSED_KEY } from './layoutSlice';
import { DRAWER_MEDIA_QUERY } from './useMediaQuery';

const renderShell = (
  route = '/dashboard',
  auth = signedInAuth({ fullName: 'Grace Hopper', role: 'teacher' }),
) => renderWithProviders(<AppRoutes />, { route, preloadedState: { auth } });

/** Makes the window report a phone-sized viewport, as matchMedia would in a browser. */
function stubPhoneViewport() {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: query === DRAWER_MEDIA_QUERY,
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
  }));
}

afterEach(() => {
  vi.unstubAllGlobals();
});

const sidebar = () => screen.getByRole('complementary', { name: 'Sidebar' });

describe('Sidebar', () => {
  it('lists the sections of the spec in order, with Settings last', () => {
    renderShell();
    const links = within(screen.getByRole('navigation', { name: 'Main' })).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Dashboard', '/dashboard'],
      ['Courses', '/courses'],
      ['Calendar', '/calendar'],
      ['Assignments', '/assignments'],
      ['Live Classes', '/live-classes'],
      ['Teams', '/teams'],
      ['Messages', '/messages'],
      ['AI Assistant', '/chatbot'],
      ['Settings', '/settings'],
    ]);
  });

  it('highlights the entry of the current route, including its sub-pages', () => {
    renderShell('/courses/42');
    const courses = screen.getByRole('link', { name: 'Courses' });
    expect(courses).toHaveAttribute('aria-current', 'page');
    expect(courses).toHaveClass('nav-link--active');
    expect(screen.getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute('aria-current');
  });

  it("shows the user's initial, full name and role", () => {
    renderShell();
    const header = within(sidebar());
    expect(header.getByText('G')).toHaveClass('sidebar__avatar');
    expect(header.getByText('Grace Hopper')).toBeInTheDocument();
    expect(header.getByText('teacher')).toBeInTheDocument();
  });

  it('moves the highlight when another entry is chosen', async () => {
    const { user } = renderShell();
    await user.click(screen.getByRole('link', { name: 'AI Assistant' }));
    expect(screen.getByRole('heading', { level: 1, name: 'AI Learning Assistant' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'AI Assistant' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute('aria-current');
  });

  it('collapses to icons and back, remembering the choice in localStorage', async () => {
    const { user } = renderShell();
    expect(sidebar()).not.toHaveClass('sidebar--collapsed');

    await user.click(screen.getByRole('button', { name: 'Collapse sidebar' }));
    expect(sidebar()).toHaveClass('sidebar--collapsed');
    expect(window.localStorage.getItem(SIDEBAR_COLLAPSED_KEY)).toBe('true');
    // Icons only, but every entry keeps its name for assistive technology and a tooltip.
    expect(screen.getByRole('link', { name: 'Live Classes' })).toHaveAttribute('title', 'Live Classes');

    await user.click(screen.getByRole('button', { name: 'Expand sidebar' }));
    expect(sidebar()).not.toHaveClass('sidebar--collapsed');
    expect(window.localStorage.getItem(SIDEBAR_COLLAPSED_KEY)).toBe('false');
  });

  it('starts collapsed when that was the last choice', () => {
    window.localStorage.setItem(SIDEBAR_COLLAPSED_KEY, 'true');
    renderShell();
    expect(sidebar()).toHaveClass('sidebar--collapsed');
  });

  it("gives the layout the spec's widths of 280 and 80 pixels", () => {
    renderShell();
    const shell = sidebar().parentElement!;
    expect(shell.style.getPropertyValue('--sidebar-width-expanded')).toBe(`${SIDEBAR_WIDTH_EXPANDED}px`);
    expect(shell.style.getPropertyValue('--sidebar-width-collapsed')).toBe(`${SIDEBAR_WIDTH_COLLAPSED}px`);
    expect([SIDEBAR_WIDTH_EXPANDED, SIDEBAR_WIDTH_COLLAPSED]).toEqual([280, 80]);
  });

  it("shows the role as 'student' when the profile has none", () => {
    const auth = signedInAuth({ fullName: 'Lin' });
    // An older profile row without a role, as the spec allows for.
    const profile = { ...auth.profile!, role: undefined } as unknown as typeof auth.profile;
    renderShell('/dashboard', { status: 'signedIn', session: createSession(), profile });
    expect(within(sidebar()).getByText('student')).toBeInTheDocument();
  });

  it('opens as a drawer from the menu button on a phone and closes with Escape', async () => {
    stubPhoneViewport();
    const { user } = renderShell();
    const menu = screen.getByRole('button', { name: 'Open menu' });
    expect(menu).toHaveAttribute('aria-expanded', 'false');

    await user.click(menu);
    expect(menu).toHaveAttribute('aria-expanded', 'true');
    expect(sidebar()).toHaveClass('sidebar--open');
    expect(screen.getByRole('button', { name: 'Close menu' })).toHaveFocus();
    // The page behind the drawer is out of reach until it closes.
    expect(screen.getByRole('main', { hidden: true }).parentElement).toHaveAttribute('inert');

    await user.keyboard('{Escape}');
    expect(sidebar()).not.toHaveClass('sidebar--open');
    expect(menu).toHaveAttribute('aria-expanded', 'false');
    expect(menu).toHaveFocus();
  });

  it('closes the drawer when an entry is chosen', async () => {
    stubPhoneViewport();
    const { user } = renderShell();
    await user.click(screen.getByRole('button', { name: 'Open menu' }));
    await user.click(screen.getByRole('link', { name: 'Teams' }));
    expect(sidebar()).not.toHaveClass('sidebar--open');
    expect(screen.getByRole('heading', { level: 1, name: 'Teams' })).toBeInTheDocument();
  });
});
