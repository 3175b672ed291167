import type { CalendarItem, Role } from '@classwave/shared';
import { act, screen, within } from '@testing-library/react';
import { addDays, addMonths, endOfMonth, format, startOfMonth } from 'date-fns';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyLiveEvent } from '../../realtime/applyLiveEvent';
import { createAssignment, nextId } from '../../test/factories';
import { renderRoute } from '../../test/renderRoute';
import { findToast } from '../../test/renderWithProviders';
import type { Route } from '../../test/api';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** Due today at noon (in this zone), so it is in the visible month whatever the time now. */
const todayAt = (hour: number) => {
  const date = new Date();
  date.setHours(hour, 0, 0, 0);
  return date.toISOString();
};

const calendarItem = (overrides: Partial<CalendarItem> = {}): CalendarItem => ({
  assignmentId: nextId(),
  title: 'Lab report',
  courseId: nextId(),
  courseTitle: 'Biology',
  dueDate: todayAt(12),
  maxPoints: 10,
  status: 'submitted',
  needsGrading: null,
  ...overrides,
});

function renderCalendar(role: Role, items: () => CalendarItem[], routes: Record<string, Route> = {}) {
  return renderRoute('/calendar', role, {
    'GET /api/calendar': () => ({ body: { items: items() } }),
    'GET /api/calendar/feed': { body: { url: null } },
    ...routes,
  });
}

const dayName = (date: Date) => format(date, 'EEEE, MMMM d');

describe('CalendarPage', () => {
  it("shows a student's due dates in the month grid with their status, and opens a day with Enter", async () => {
    const { user, calls } = renderCalendar('student', () => [calendarItem()]);
    const grid = await screen.findByRole('grid', { name: format(new Date(), 'MMMM yyyy') });
    const today = await within(grid).findByRole('button', {
      name: new RegExp(`^${dayName(new Date())}.*1 due`),
    });
    const request = calls.find((c) => c.path === '/api/calendar');
    expect(request).toBeDefined();
    expect(today).toHaveAttribute('tabindex', '0');
    today.focus();
    await user.keyboard('{Enter}');
    const heading = screen.getByRole('heading', { level: 3, name: dayName(new Date()) });
    expect(heading).toHaveFocus();
    const link = screen.getByRole('link', { name: /Lab report.*Submitted/ });
    expect(link.getAttribute('href')).toMatch(/^\/assignments\?open=/);
  });

  it('moves between days with the arrow keys, Home/End and PageUp/PageDown', async () => {
    const { user } = renderCalendar('student', () => []);
    const grid = await screen.findByRole('grid');
    const now = new Date();
    within(grid)
      .getByRole('button', { name: new RegExp(`^${dayName(now)}`) })
      .focus();
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toHaveAccessibleName(new RegExp(`^${dayName(addDays(now, 1))}`));
    await user.keyboard('{ArrowUp}');
    expect(document.activeElement).toHaveAccessibleName(new RegExp(`^${dayName(addDays(now, -6))}`));
    await user.keyboard('{Home}');
    expect(document.activeElement).toHaveAccessibleName(/^Sunday,/);
    await user.keyboard('{End}');
    expect(document.activeElement).toHaveAccessibleName(/^Saturday,/);
    const focused = new Date(addDays(now, -6));
    focused.setDate(focused.getDate() + (6 - focused.getDay()));
    await user.keyboard('{PageDown}');
    expect(document.activeElement).toHaveAccessibleName(new RegExp(`^${dayName(addMonths(focused, 1))}`));
    expect(
      screen.getByRole('heading', {
        level: 2,
        name: format(startOfMonth(addMonths(focused, 1)), 'MMMM yyyy'),
      }),
    ).toBeInTheDocument();
  });

  it("lists the month by day in the agenda, with a teacher's to-grade counts", async () => {
    const { user } = renderCalendar('teacher', () => [
      calendarItem({ title: 'Essay', status: null, needsGrading: 3 }),
      calendarItem({ title: 'Quiz', status: null, needsGrading: 0, dueDate: todayAt(9) }),
    ]);
    await screen.findByRole('grid');
    await user.click(screen.getByRole('button', { name: 'Agenda' }));
    expect(screen.getByRole('button', { name: 'Agenda' })).toHaveAttribute('aria-pressed', 'true');
    const day = await screen.findByRole('heading', { level: 3, name: dayName(new Date()) });
    const links = within(day.closest('li')!).getAllByRole('link');
    expect(links.map((l) => l.textContent)).toEqual([
      expect.stringMatching(/^Quiz.*Nothing to grade$/),
      expect.stringMatching(/^Essay.*3 to grade$/),
    ]);
  });

  // Issue 25: on the 27th the agenda showed nothing of next week, in the next month.
  it('lists two weeks past the month in the agenda', async () => {
    const next = addDays(endOfMonth(new Date()), 3);
    next.setHours(10, 0, 0, 0);
    const { user } = renderCalendar('student', () => [
      calendarItem({ title: 'Early next month', status: 'not_submitted', dueDate: next.toISOString() }),
    ]);
    await screen.findByRole('grid');
    await user.click(screen.getByRole('button', { name: 'Agenda' }));
    const day = await screen.findByRole('heading', { level: 3, name: dayName(next) });
    expect(within(day.closest('li')!).getByRole('link')).toHaveTextContent('Early next month');
  });

  it('fetches the visible range again when an assignment is created', async () => {
    let items: CalendarItem[] = [];
    const { store } = renderCalendar('student', () => items);
    await screen.findByRole('grid');
    items = [calendarItem({ title: 'Brand new', status: 'not_submitted' })];
    act(() => {
      store.dispatch(
        applyLiveEvent({
          id: 1,
          type: 'assignment:created',
          at: new Date().toISOString(),
          data: createAssignment(),
        }),
      );
    });
    expect(
      await screen.findByRole('button', { name: new RegExp(`^${dayName(new Date())}.*1 due`) }),
    ).toBeInTheDocument();
  });
});

describe('CalendarFeedBox', () => {
  it('creates the feed URL on request, copies it, and resets it only after confirming', async () => {
    let url = 'https://classwave.test/api/calendar/aaaa.ics';
    const { user, calls } = renderCalendar('student', () => [], {
      'POST /api/calendar/feed': () => ({ body: { url } }),
    });
    await user.click(await screen.findByRole('button', { name: 'Get my feed URL' }));
    expect(await screen.findByLabelText('Feed URL')).toHaveValue(url);

    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith(url);
    expect(await findToast('Feed URL copied')).toBeInTheDocument();

    url = 'https://classwave.test/api/calendar/bbbb.ics';
    await user.click(screen.getByRole('button', { name: 'Reset' }));
    const dialog = screen.getByRole('dialog', { name: 'Reset the feed URL?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Reset' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Reset URL' }));
    expect(await screen.findByDisplayValue(url)).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(2);
  });
});
