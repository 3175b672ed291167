import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { signedInAuth } from '../../test/factories';
import { renderWithProviders } from '../../test/renderWithProviders';
import { DashboardPage } from './DashboardPage';

describe('DashboardPage', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
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
