import type { Role, Todo, TodoItem } from '@classwave/shared';
import { act, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyLiveEvent } from '../../realtime/applyLiveEvent';
import { createPost as createPostFor, createSubmission, liveEvent, nextId } from '../../test/factories';
import { renderRoute } from '../../test/renderRoute';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const HOUR = 3_600_000;
const item = (title: string, dueInHours: number, count = 1): TodoItem => ({
  assignmentId: nextId(),
  title,
  courseId: nextId(),
  courseTitle: 'Biology',
  dueDate: new Date(Date.now() + dueInHours * HOUR).toISOString(),
  count,
});

const emptyDashboard = {
  stats: { totalCourses: 0, activeAssignments: 0, upcomingClasses: 0, teamMembers: 0 },
  upcomingEvents: [],
};

function renderDashboard(role: Role, todo: () => Todo) {
  return renderRoute('/dashboard', role, {
    'GET /api/dashboard': { body: emptyDashboard },
    'GET /api/todo': () => ({ body: todo() }),
  });
}

const group = (name: string) => screen.getByRole('region', { name: new RegExp(`^${name}`) });

describe('TodoPanel', () => {
  it("groups a student's work into Overdue, Today, This week and Later", async () => {
    // Midday-safe offsets: an hour from now may cross midnight, so "today" is checked by bucket only when it cannot.
    const now = new Date();
    const hoursToMidnight = (new Date(now).setHours(24, 0, 0, 0) - now.getTime()) / HOUR;
    const work = [
      item('Late essay', -2),
      ...(hoursToMidnight > 0.5 ? [item('Quiz tonight', hoursToMidnight / 2)] : []),
      item('Lab report', hoursToMidnight + 48),
      item('Term paper', 24 * 30),
    ];
    renderDashboard('student', () => ({ work, toGrade: [], toReturn: [] }));
    expect(await screen.findByRole('link', { name: /Late essay/ })).toBeInTheDocument();
    expect(within(group('Overdue')).getByRole('link', { name: /Late essay/ })).toBeInTheDocument();
    // The server leaves out older and closed work (TODO_OVERDUE_DAYS): the list says so.
    expect(
      within(group('Overdue')).getByText(
        /^Still open, due in the last 14 days\. Older or closed work is on the Assignments page\.$/,
      ),
    ).toBeInTheDocument();
    expect(within(group('This week')).getByRole('link', { name: /Lab report/ })).toBeInTheDocument();
    expect(within(group('Later')).getByRole('link', { name: /Term paper/ })).toHaveAttribute(
      'href',
      `/assignments?open=${work.at(-1)!.assignmentId}`,
    );
    if (hoursToMidnight > 0.5) {
      expect(within(group('Today')).getByRole('link', { name: /Quiz tonight/ })).toBeInTheDocument();
    }
  });

  it("shows a teacher's To grade and To return with their counts", async () => {
    renderDashboard('teacher', () => ({
      work: [],
      toGrade: [item('Essay', -1, 3)],
      toReturn: [item('Quiz', -5, 1)],
    }));
    expect(await screen.findByRole('link', { name: /Essay.*3 submissions/ })).toBeInTheDocument();
    expect(within(group('To grade')).getByRole('link', { name: /Essay/ })).toBeInTheDocument();
    expect(within(group('To return')).getByRole('link', { name: /Quiz.*1 submission/ })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: /^Overdue/ })).not.toBeInTheDocument();
  });

  it('refetches when the student submits in another tab, so the item leaves the list', async () => {
    const essay = item('Essay', 30);
    let work = [essay];
    const { store } = renderDashboard('student', () => ({ work, toGrade: [], toReturn: [] }));
    expect(await screen.findByRole('link', { name: /Essay/ })).toBeInTheDocument();
    work = [];
    act(() => {
      store.dispatch(
        applyLiveEvent({
          id: 1,
          type: 'submission:created',
          at: new Date().toISOString(),
          data: createSubmission({ assignmentId: essay.assignmentId }),
        }),
      );
    });
    expect(await screen.findByText('Nothing to do right now')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Essay/ })).not.toBeInTheDocument();
  });

  it('refetches on an event name the shared type does not carry yet (submission:withdrawn)', async () => {
    const essay = item('Essay', 30);
    let work: TodoItem[] = [];
    const { store } = renderDashboard('student', () => ({ work, toGrade: [], toReturn: [] }));
    expect(await screen.findByText('Nothing to do right now')).toBeInTheDocument();
    work = [essay];
    act(() => {
      store.dispatch(
        applyLiveEvent({
          id: 2,
          type: 'submission:withdrawn',
          at: new Date().toISOString(),
          data: {},
        } as never),
      );
    });
    expect(await screen.findByRole('link', { name: /Essay/ })).toBeInTheDocument();
  });

  it("shows what is new in the student's classes, and asks again when someone else posts", async () => {
    const courseId = nextId();
    let news = [
      {
        courseId,
        courseTitle: 'Biology',
        newPosts: 2,
        newComments: 1,
        latest: { postId: nextId(), title: 'Quiz on Friday', publishedAt: new Date().toISOString() },
      },
    ];
    const { store, calls } = renderRoute('/dashboard', 'student', {
      'GET /api/dashboard': { body: emptyDashboard },
      'GET /api/todo': { body: { work: [], toGrade: [], toReturn: [] } },
      'GET /api/stream/news': () => ({ body: news }),
    });
    const link = await screen.findByRole('link', { name: /Quiz on Friday/ });
    expect(link).toHaveTextContent('Biology, 2 new posts, 1 new comment');
    expect(link).toHaveAttribute('href', `/courses/${courseId}`);
    expect(within(group('New in your classes')).getAllByRole('listitem')).toHaveLength(1);

    news = [{ ...news[0]!, newPosts: 3 }];
    const post = createPostFor({ courseId, author: { id: nextId(), fullName: 'Grace Teacher' } });
    act(() => void store.dispatch(applyLiveEvent(liveEvent('post:created', post))));
    expect(await screen.findByText('Biology, 3 new posts, 1 new comment')).toBeInTheDocument();
    expect(calls.filter((c) => c.path === '/api/stream/news')).toHaveLength(2);
  });
});
