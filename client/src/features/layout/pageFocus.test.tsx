import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '../../test/appRoutes';
import { createAssignment, createCourse, signedOutAuth } from '../../test/factories';
import { renderRoute } from '../../test/renderRoute';
import { renderWithProviders } from '../../test/renderWithProviders';
import { documentTitleFor } from './navigation';

afterEach(() => {
  vi.unstubAllGlobals();
});

const followNav = async (user: { click: (element: Element) => Promise<void> }, label: string) =>
  user.click(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: label }));

describe('document titles', () => {
  it('names every section after its navigation label, and other routes by what they are', () => {
    expect(
      [
        '/dashboard',
        '/courses',
        '/courses/0000-1',
        '/assignments',
        '/chatbot',
        '/calendar',
        '/live-classes',
        '/teams',
        '/messages',
        '/settings',
        '/login',
        '/signup',
        '/forgot-password',
        '/reset-password',
        '/join/ABCD-1234',
      ].map(documentTitleFor),
    ).toEqual([
      'Dashboard · Classwave',
      'Courses · Classwave',
      'Course · Classwave',
      'Assignments · Classwave',
      'AI Assistant · Classwave',
      'Calendar · Classwave',
      'Live Classes · Classwave',
      'Teams · Classwave',
      'Messages · Classwave',
      'Settings · Classwave',
      'Sign in · Classwave',
      'Sign up · Classwave',
      'Forgot password · Classwave',
      'Choose a new password · Classwave',
      'Join a class · Classwave',
    ]);
    expect(documentTitleFor('/assignments/')).toBe('Assignments · Classwave');
    expect(documentTitleFor('/nowhere')).toBe('Classwave');
  });

  it('titles the signed-in page being shown, and follows navigation', async () => {
    const { user } = renderRoute('/dashboard', 'teacher', {
      'GET /api/dashboard': 'pending',
      'GET /api/assignments': { body: [] },
      'GET /api/courses': { body: [] },
    });
    expect(document.title).toBe('Dashboard · Classwave');
    await followNav(user, 'Assignments');
    expect(document.title).toBe('Assignments · Classwave');
  });

  // Issue 25: every course's tab read "Course · Classwave".
  it("names a course's page after the course once it has loaded, and the section again after it", async () => {
    const course = createCourse({ title: 'Introduction to Biology' });
    const { user } = renderRoute(`/courses/${course.id}`, 'student', {
      [`GET /api/courses/${course.id}`]: { body: { course, assignments: [] } },
      'GET /api/courses': { body: [course] },
    });
    await waitFor(() => expect(document.title).toBe('Introduction to Biology · Classwave'));
    await followNav(user, 'Courses');
    await waitFor(() => expect(document.title).toBe('Courses · Classwave'));
  });

  it('titles the sign-in and sign-up pages', async () => {
    const { user } = renderWithProviders(<AppRoutes />, {
      route: '/login',
      preloadedState: { auth: signedOutAuth() },
    });
    expect(document.title).toBe('Sign in · Classwave');
    await user.click(screen.getByRole('link', { name: 'Create an account' }));
    expect(await screen.findByRole('button', { name: 'Create Account' })).toBeInTheDocument();
    expect(document.title).toBe('Sign up · Classwave');
  });
});

describe('focus after navigation', () => {
  it('leaves focus alone on the first page, then moves it to each new page’s h1', async () => {
    const { user } = renderRoute('/dashboard', 'teacher', {
      'GET /api/dashboard': 'pending',
      'GET /api/assignments': { body: [] },
      'GET /api/courses': { body: [] },
    });
    expect(document.activeElement).toBe(document.body);

    await followNav(user, 'Assignments');
    const heading = screen.getByRole('heading', { level: 1, name: 'Assignments' });
    expect(heading).toHaveFocus();
    expect(heading).toHaveAttribute('tabindex', '-1');

    await followNav(user, 'Teams');
    expect(screen.getByRole('heading', { level: 1, name: 'Teams' })).toHaveFocus();
  });

  it('waits for a page that renders its heading once its data arrives', async () => {
    const course = createCourse({ title: 'Marine Biology' });
    const lab = createAssignment({ title: 'Tide pools', courseId: course.id, courseTitle: course.title });
    const { user } = renderRoute('/assignments', 'student', {
      'GET /api/assignments': { body: [lab] },
      [`GET /api/courses/${course.id}`]: { body: { course, assignments: [lab] } },
    });
    const card = await screen.findByRole('article', { name: 'Tide pools' });
    // The course page shows a spinner first; its h1 comes with the data, and then takes focus.
    await user.click(within(card).getByRole('link', { name: 'Marine Biology' }));
    const heading = await screen.findByRole('heading', { level: 1, name: 'Marine Biology' });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(document.title).toBe('Marine Biology · Classwave');
  });
});
