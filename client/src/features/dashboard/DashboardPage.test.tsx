import type { Dashboard, Role } from '@classwave/shared';
import { formatEventTime } from '../../components/dates';
import { QUICK_ACTIONS } from './quickActions';
import { screen, waitFor, within } from '@testing-library/react';
import { useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '../../test/appRoutes';
import { answerApi, apiError, type Reply, type Route } from '../../test/api';
import { signedInAuth } from '../../test/factories';
import { findToast, renderWithProviders } from '../../test/renderWithProviders';
import { DashboardPage } from './DashboardPage';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const emptyDashboard = (): Dashboard => ({
  stats: { totalCourses: 0, activeAssignments: 0, upcomingClasses: 0, teamMembers: 0 },
  upcomingEvents: [],
});

/** Shows the router location's state, to check that a navigation flag has been used up. */
function LocationState() {
  return <output data-testid="location-state">{JSON.stringify(useLocation().state ?? null)}</output>;
}

function renderDashboard(role: Role, dashboard: Reply, routes: Record<string, Route> = {}) {
  answerApi({ 'GET /api/dashboard': dashboard, ...routes });
  return renderWithProviders(
    <>
      <AppRoutes />
      <LocationState />
    </>,
    { route: '/dashboard', preloadedState: { auth: signedInAuth({ fullName: 'Grace Hopper', role }) } },
  );
}

describe('DashboardPage', () => {
  describe('greeting', () => {
    beforeEach(() => {
      vi.useFakeTimers({ toFake: ['Date'] });
      answerApi({ 'GET /api/dashboard': { body: emptyDashboard() } });
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    it.each([
      [new Date(2026, 2, 9, 8, 30), 'Good morning, Grace!'],
      [new Date(2026, 2, 9, 12, 0), 'Good afternoon, Grace!'],
      [new Date(2026, 2, 9, 18, 0), 'Good evening, Grace!'],
    ])('at %s greets the teacher with %s', (now, greeting) => {
      vi.setSystemTime(now);
      renderWithProviders(<DashboardPage />, {
        preloadedState: { auth: signedInAuth({ fullName: 'Grace Brewster Hopper', role: 'teacher' }) },
      });
      expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(greeting);
      expect(screen.getByText('Welcome to your teacher dashboard')).toBeInTheDocument();
    });

    it("greets 'there' when the profile has no name, on a student dashboard", () => {
      vi.setSystemTime(new Date(2026, 2, 9, 20, 15));
      renderWithProviders(<DashboardPage />, {
        preloadedState: { auth: signedInAuth({ fullName: '  ', role: 'student' }) },
      });
      expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Good evening, there!');
      expect(screen.getByText('Welcome to your student dashboard')).toBeInTheDocument();
    });
  });

  it("shows '-' for every stat and three placeholders while loading", () => {
    renderDashboard('teacher', 'pending');
    for (const key of ['totalCourses', 'activeAssignments', 'upcomingClasses', 'teamMembers']) {
      expect(screen.getByTestId(`stat-${key}`)).toHaveTextContent(/^-$/);
    }
    expect(screen.getAllByTestId('event-placeholder')).toHaveLength(3);
    expect(screen.queryByText('No upcoming events')).not.toBeInTheDocument();
  });

  it('shows the four stats and the upcoming events with their course and time', async () => {
    const soon = new Date(Date.now() + 3600_000).toISOString();
    const later = new Date(Date.now() + 9 * 24 * 3600_000).toISOString();
    renderDashboard('student', {
      body: {
        stats: { totalCourses: 7, activeAssignments: 3, upcomingClasses: 1, teamMembers: 0 },
        upcomingEvents: [
          {
            id: '40000000-0000-4000-8000-000000000001',
            title: 'Lab report',
            type: 'assignment',
            time: soon,
            courseTitle: 'Biology',
          },
          {
            id: '40000000-0000-4000-8000-000000000002',
            title: 'Review session',
            type: 'class',
            time: later,
            courseTitle: 'Unknown Course',
          },
        ],
      } satisfies Dashboard,
    });

    // The stat is on screen ('-') while the answer is on its way: wait for the figure, not the element.
    await waitFor(() => expect(screen.getByTestId('stat-totalCourses')).toHaveTextContent('7'));
    const stats = screen.getByRole('region', { name: 'Overview' });
    expect(stats).toHaveTextContent('Total Courses7');
    expect(stats).toHaveTextContent('Active Assignments3');
    expect(stats).toHaveTextContent('Upcoming Classes1');
    expect(stats).toHaveTextContent('Team Members0');

    const events = within(screen.getByRole('region', { name: 'Upcoming Events' })).getAllByRole('listitem');
    expect(events).toHaveLength(2);
    expect(events[0]).toHaveTextContent('Lab report');
    expect(events[0]).toHaveTextContent('Biology');
    expect(events[0]).toHaveTextContent(formatEventTime(soon));
    expect(events[1]).toHaveTextContent('Review session');
    expect(events[1]).toHaveTextContent(formatEventTime(later));
  });

  it("says 'No upcoming events' when there are none", async () => {
    renderDashboard('student', { body: emptyDashboard() });
    expect(await screen.findByText('No upcoming events')).toBeInTheDocument();
    expect(screen.queryAllByTestId('event-placeholder')).toHaveLength(0);
  });

  it("toasts 'Failed to load dashboard data' when the dashboard cannot be loaded, and logs it", async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    renderDashboard('student', apiError(500, 'Boom', 'internal_error'));
    expect(await findToast('Failed to load dashboard data')).toBeInTheDocument();
    expect(log).toHaveBeenCalledWith('Failed to load dashboard data', expect.anything());
    expect(screen.getByTestId('stat-totalCourses')).toHaveTextContent('-');
  });

  it('has a notification bell button', () => {
    renderDashboard('student', 'pending');
    expect(screen.getByRole('button', { name: 'Notifications' })).toBeInTheDocument();
  });

  it.each([
    [
      'teacher',
      [
        ['Create New Course', '/courses'],
        ['Add Assignment', '/assignments'],
        ['Schedule Class', '/live-classes'],
        ['Ask AI Assistant', '/chatbot'],
      ],
    ],
    [
      'student',
      [
        ['Browse Courses', '/courses'],
        ['Join a Class', '/courses'],
        ['View Assignments', '/assignments'],
        ['Join Live Class', '/live-classes'],
        ['Ask AI Assistant', '/chatbot'],
      ],
    ],
  ] as const)('gives a %s their quick actions', (role, actions) => {
    renderDashboard(role, 'pending');
    const panel = screen.getByRole('region', { name: 'Quick Actions' });
    for (const [label, href] of actions) {
      // The name is what the link shows, label and description both (not the label alone).
      const link = within(panel).getByRole('link', { name: new RegExp(`^${label},`) });
      expect(link).toHaveAttribute('href', href);
      const { description } = QUICK_ACTIONS[role].find((action) => action.label === label)!;
      expect(link).toHaveAccessibleName(expect.stringContaining(description));
    }
    expect(within(panel).getAllByRole('link')).toHaveLength(actions.length);
  });

  describe('quick actions that open a dialog', () => {
    it('Create New Course goes to /courses and opens the create-course dialog once', async () => {
      const { user } = renderDashboard('teacher', 'pending', { 'GET /api/courses': { body: [] } });
      await user.click(screen.getByRole('link', { name: /^Create New Course/ }));

      expect(await screen.findByRole('dialog', { name: 'Create Course' })).toBeInTheDocument();
      expect(screen.getByRole('heading', { level: 1, name: 'Courses' })).toBeInTheDocument();
      // The flag is used up: the history entry no longer carries it, so a reload will not reopen.
      expect(screen.getByTestId('location-state')).toHaveTextContent('null');

      await user.keyboard('{Escape}');
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
      await user.type(screen.getByRole('searchbox', { name: 'Search courses' }), 'x');
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    });

    it('Add Assignment goes to /assignments and opens the create-assignment dialog once', async () => {
      const { user } = renderDashboard('teacher', 'pending', {
        'GET /api/courses': { body: [] },
        'GET /api/assignments': { body: [] },
      });
      await user.click(screen.getByRole('link', { name: /^Add Assignment/ }));

      expect(await screen.findByRole('dialog', { name: 'Create Assignment' })).toBeInTheDocument();
      expect(screen.getByRole('heading', { level: 1, name: 'Assignments' })).toBeInTheDocument();
      expect(screen.getByTestId('location-state')).toHaveTextContent('null');

      await user.click(screen.getByRole('button', { name: 'Cancel' }));
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
      await user.type(screen.getByRole('searchbox', { name: 'Search assignments' }), 'x');
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    });

    it('Browse Courses takes a student to /courses without any dialog', async () => {
      const { user } = renderDashboard('student', 'pending', { 'GET /api/courses': { body: [] } });
      await user.click(screen.getByRole('link', { name: /^Browse Courses/ }));
      expect(await screen.findByRole('heading', { level: 1, name: 'Courses' })).toBeInTheDocument();
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    });

    // Issue 25: a student's dashboard had no way to join a class.
    it('Join a Class takes a student to /courses with the join dialog open', async () => {
      const { user } = renderDashboard('student', 'pending', { 'GET /api/courses': { body: [] } });
      await user.click(screen.getByRole('link', { name: /^Join a Class/ }));
      expect(await screen.findByRole('dialog', { name: 'Join a class' })).toBeInTheDocument();
      expect(screen.getByRole('heading', { level: 1, name: 'Courses' })).toBeInTheDocument();
      expect(screen.getByTestId('location-state')).toHaveTextContent('null');
    });
  });
});
