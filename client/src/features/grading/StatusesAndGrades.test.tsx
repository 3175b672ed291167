import type { AssignmentPanel, LiveEvent, StudentCourseGrades } from '@classwave/shared';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyLiveEvent } from '../../realtime/applyLiveEvent';
import {
  createAssignment,
  createCourse,
  createOwnSubmission,
  createSubmission,
  daysFromNow,
  nextId,
} from '../../test/factories';
import { renderAssignments, renderRoute } from '../../test/renderRoute';
import { studentWorkStatus, workStatusText } from './WorkStatusBadge';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('student status badges', () => {
  it('reads late with how late, returned with the grade, excused and missing (the spec’s words kept)', async () => {
    const due = '2026-03-01T12:00:00.000Z';
    renderAssignments('student', {
      'GET /api/assignments': {
        body: [
          createAssignment({
            title: 'Late one',
            dueDate: due,
            status: 'late',
            submission: createOwnSubmission({ submittedAt: '2026-03-01T14:14:00.000Z', late: 134 }),
          }),
          createAssignment({
            title: 'Returned one',
            maxPoints: 20,
            dueDate: due,
            status: 'returned',
            submission: createOwnSubmission({ grade: 18, returnedAt: '2026-03-02T09:00:00.000Z' }),
          }),
          createAssignment({ title: 'Excused one', dueDate: due, status: 'excused' }),
          createAssignment({ title: 'Missing one', dueDate: due, status: 'missing' }),
        ],
      },
    });
    expect(await screen.findByRole('article', { name: 'Late one' })).toHaveTextContent(
      'Submitted · 2 h 14 min late',
    );
    expect(screen.getByRole('article', { name: 'Returned one' })).toHaveTextContent('Graded · 18/20');
    expect(screen.getByRole('article', { name: 'Excused one' })).toHaveTextContent('Excused');
    expect(screen.getByRole('article', { name: 'Missing one' })).toHaveTextContent('Missing');
  });

  it('turns from not submitted to missing as the due time passes', () => {
    const assignment = createAssignment({ dueDate: '2026-03-01T12:00:00.000Z', status: 'not_submitted' });
    const before = studentWorkStatus(assignment, new Date('2026-03-01T11:59:00.000Z'));
    const after = studentWorkStatus(assignment, new Date('2026-03-01T12:01:00.000Z'));
    expect([before, after]).toEqual(['not_submitted', 'missing']);
    expect(workStatusText(assignment, after)).toBe('Missing');
  });
});

describe("a teacher's edit, sent to the whole class", () => {
  it('leaves a student’s Excused and Graded badges as they were', async () => {
    const due = daysFromNow(-1);
    const excused = createAssignment({ title: 'Poem', dueDate: due, status: 'excused' });
    const returned = createAssignment({
      title: 'Essay',
      maxPoints: 20,
      dueDate: due,
      status: 'returned',
      submission: createOwnSubmission({ grade: 18, returnedAt: daysFromNow(-1) }),
    });
    const { store } = renderAssignments('student', { 'GET /api/assignments': { body: [excused, returned] } });
    await screen.findByRole('article', { name: 'Poem' });
    // What the server sends the course's members: nobody's own work, no status.
    let id = 100;
    for (const assignment of [excused, returned]) {
      const edited: LiveEvent<'assignment:updated'> = {
        id: ++id,
        type: 'assignment:updated',
        at: new Date().toISOString(),
        data: { ...assignment, title: `${assignment.title}, edited`, status: null, submission: null },
      };
      act(() => {
        store.dispatch(applyLiveEvent(edited));
      });
    }
    const badge = async (title: string) =>
      (await screen.findByRole('article', { name: title })).querySelector('.work-status')?.textContent;
    expect(await badge('Poem, edited')).toBe('Excused');
    expect(await badge('Essay, edited')).toBe('Graded · 18/20');
  });
});

describe('an assignment that closes at its due time', () => {
  it('offers a student no Submit once the due time has passed', async () => {
    renderAssignments('student', {
      'GET /api/assignments': {
        body: [
          createAssignment({
            title: 'Closed one',
            dueDate: daysFromNow(-1),
            closesAtDue: true,
            status: 'missing',
          }),
          createAssignment({
            title: 'Open one',
            dueDate: daysFromNow(1),
            closesAtDue: true,
            status: 'not_submitted',
          }),
        ],
      },
    });
    const closed = await screen.findByRole('article', { name: 'Closed one' });
    expect(within(closed).getByRole('button', { name: 'Closed' })).toBeDisabled();
    expect(within(closed).queryByRole('button', { name: 'Submit' })).not.toBeInTheDocument();
    const open = screen.getByRole('article', { name: 'Open one' });
    expect(within(open).getByRole('button', { name: 'Submit' })).toBeEnabled();
    expect(open).toHaveTextContent('Closes at the due time');
  });
});

describe('teacher cards', () => {
  it('show "N to grade", one more as a submission arrives live', async () => {
    const assignment = createAssignment({ title: 'Essay', submissionCount: 1, needsGrading: 1 });
    const { store } = renderAssignments('teacher', { 'GET /api/assignments': { body: [assignment] } });
    const card = await screen.findByRole('article', { name: 'Essay' });
    expect(card).toHaveTextContent('1 to grade');
    const event: LiveEvent<'submission:created'> = {
      id: 1,
      type: 'submission:created',
      at: new Date().toISOString(),
      data: createSubmission({ assignmentId: assignment.id }),
    };
    act(() => {
      store.dispatch(applyLiveEvent(event));
    });
    await waitFor(() => expect(card).toHaveTextContent('2 to grade'));
  });
});

describe('the live assignment panel', () => {
  it('counts who is where, with names, and follows assignment:panel', async () => {
    const assignment = createAssignment({ title: 'Essay', submissionCount: 0 });
    const ada = { id: nextId(), fullName: 'Ada Lovelace' };
    const alan = { id: nextId(), fullName: 'Alan Turing' };
    const panel = (adaState: 'viewing' | 'writing'): AssignmentPanel => ({
      assignmentId: assignment.id,
      counts: {
        not_opened: 1,
        viewing: adaState === 'viewing' ? 1 : 0,
        writing: adaState === 'writing' ? 1 : 0,
        submitted: 0,
        late: 0,
        missing: 0,
      },
      students: [
        { ...ada, state: adaState },
        { ...alan, state: 'not_opened' },
      ],
    });
    const { user, store } = renderAssignments('teacher', {
      'GET /api/assignments': { body: [assignment] },
      [`GET /api/assignments/${assignment.id}/submissions`]: { body: [] },
      [`GET /api/assignments/${assignment.id}/panel`]: { body: panel('viewing') },
    });
    await user.click(
      within(await screen.findByRole('article', { name: 'Essay' })).getByRole('button', {
        name: /View Submissions/,
      }),
    );
    const region = await screen.findByRole('region', { name: 'Who is working on it' });
    const viewing = () => region.querySelector('[data-state="viewing"]')!;
    const writing = () => region.querySelector('[data-state="writing"]')!;
    await waitFor(() => expect(viewing()).toHaveTextContent('1Viewing now'));
    // The names show once their count is opened.
    expect(viewing()).not.toHaveTextContent('Ada Lovelace');
    await user.click(within(viewing() as HTMLElement).getByText('Viewing now'));
    expect(viewing()).toHaveTextContent('Ada Lovelace');
    act(() => {
      store.dispatch(
        applyLiveEvent({
          id: 1,
          type: 'assignment:panel',
          at: new Date().toISOString(),
          data: panel('writing'),
        }),
      );
    });
    await waitFor(() => expect(writing()).toHaveTextContent('1Writing'));
    expect(viewing()).toHaveTextContent('0Viewing now');
  });
});

describe('GradesPage', () => {
  it('lists returned grades by course with totals, and is in the sidebar for students only', async () => {
    const course = createCourse({ title: 'Biology', code: 'BIO1' });
    const grades: StudentCourseGrades[] = [
      {
        course: { id: course.id, title: course.title, code: course.code },
        points: 18,
        possible: 20,
        percent: 90,
        categories: [],
        items: [
          {
            assignmentId: nextId(),
            title: 'Essay',
            dueDate: daysFromNow(-3),
            maxPoints: 20,
            status: 'returned',
            grade: 18,
            feedback: 'Well argued.',
            returnedAt: daysFromNow(-1),
            categoryId: null,
          },
          {
            assignmentId: nextId(),
            title: 'Quiz',
            dueDate: daysFromNow(-2),
            maxPoints: 10,
            status: 'submitted',
            grade: null,
            feedback: null,
            returnedAt: null,
            categoryId: null,
          },
        ],
      },
    ];
    renderRoute('/grades', 'student', {
      'GET /api/grades': { body: grades },
      'GET /api/courses': { body: [] },
    });
    const section = await screen.findByRole('region', { name: /Biology/ });
    expect(section).toHaveTextContent('Total 18/20 · 90%');
    expect(within(section).getByRole('row', { name: /Essay/ })).toHaveTextContent('18/20');
    expect(within(section).getByRole('row', { name: /Essay/ })).toHaveTextContent('Well argued.');
    expect(within(section).getByRole('row', { name: /Quiz/ })).toHaveTextContent('Submitted');
    expect(screen.getByRole('link', { name: 'Grades' })).toHaveAttribute('href', '/grades');
  });

  it('is not in a teacher’s sidebar', async () => {
    renderRoute('/dashboard', 'teacher', () => ({
      'GET /api/dashboard': 'pending',
      'GET /api/courses': { body: [] },
    }));
    await screen.findByRole('link', { name: 'Assignments' });
    expect(screen.queryByRole('link', { name: 'Grades' })).not.toBeInTheDocument();
  });
});
