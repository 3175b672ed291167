import { formatListDate } from '../../components/dates';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answerConfirm } from '../../test/confirm';
import { apiError } from '../../test/api';
import { createAssignment, createCourse, createOwnSubmission, daysFromNow } from '../../test/factories';
import { renderAssignments } from '../../test/renderRoute';
import { SAMPLE_CONFIRMATION, SAMPLE_CREATED } from '../courses/sampleConfirmation';
import { findToast } from '../../test/renderWithProviders';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const card = (title: string) => screen.findByRole('article', { name: title });
const badgeOf = (article: HTMLElement) => article.querySelector('.status-badge');

describe('AssignmentsPage', () => {
  it('shows placeholders while the assignments load', () => {
    renderAssignments('student', { 'GET /api/assignments': 'pending' });
    expect(screen.getByText('Loading assignments')).toHaveAttribute('role', 'status');
    expect(screen.getAllByTestId('assignment-skeleton').length).toBeGreaterThan(0);
  });

  it("toasts 'Failed to load data.' when the assignments cannot be loaded", async () => {
    renderAssignments('student', { 'GET /api/assignments': apiError(500, 'Boom', 'internal_error') });
    expect(await findToast('Failed to load data.')).toBeInTheDocument();
  });

  it("shows 'No assignments yet' when there are none", async () => {
    renderAssignments('student', {
      'GET /api/assignments': { body: [] },
      'GET /api/courses': { body: [createCourse()] },
    });
    expect(await screen.findByRole('heading', { name: 'No assignments yet' })).toBeInTheDocument();
    expect(await screen.findByText('Check back later for new assignments.')).toBeInTheDocument();
  });

  it('tells a student in no class how to join one, and opens "Join a class" on the Courses page', async () => {
    const { user } = renderAssignments('student', { 'GET /api/assignments': { body: [] } });
    expect(await screen.findByText(/You are not in any class yet/)).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Join a class' }));
    expect(await screen.findByRole('dialog', { name: 'Join a class' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Courses' })).toBeInTheDocument();
  });

  it('filters by assignment title or course title, and says when nothing matches', async () => {
    const { user } = renderAssignments('student', {
      'GET /api/assignments': {
        body: [
          createAssignment({ title: 'Cell Lab', courseTitle: 'Biology' }),
          createAssignment({ title: 'Essay', courseTitle: 'World History' }),
        ],
      },
    });
    await card('Cell Lab');
    const search = screen.getByRole('searchbox', { name: 'Search assignments' });
    expect(search).toHaveAttribute('placeholder', 'Search assignments...');

    await user.type(search, 'HISTORY');
    expect(screen.getByRole('article', { name: 'Essay' })).toBeInTheDocument();
    expect(screen.queryByRole('article', { name: 'Cell Lab' })).not.toBeInTheDocument();

    await user.clear(search);
    await user.type(search, 'cell');
    expect(screen.getByRole('article', { name: 'Cell Lab' })).toBeInTheDocument();
    expect(screen.queryByRole('article', { name: 'Essay' })).not.toBeInTheDocument();

    await user.type(search, ' nothing like this');
    expect(screen.getByRole('heading', { name: 'No assignments found' })).toBeInTheDocument();
    expect(screen.getByText('Try a different search.')).toBeInTheDocument();
  });

  describe('status badges', () => {
    it.each([
      ['Active', 'primary', { dueDate: daysFromNow(3), submission: null }],
      // Past due with nothing submitted is Missing (DESIGN §13), not the spec's Overdue.
      ['Missing', 'danger', { dueDate: daysFromNow(-3), submission: null }],
      ['Submitted', 'warning', { dueDate: daysFromNow(3), submission: createOwnSubmission() }],
      ['Submitted · 2 d late', 'warning', { dueDate: daysFromNow(-3), submission: createOwnSubmission() }],
      [
        'Graded · 9/100',
        'success',
        {
          dueDate: daysFromNow(3),
          submission: createOwnSubmission({ grade: 9, returnedAt: daysFromNow(0) }),
        },
      ],
    ] as const)("a student's assignment reads %s in its own colour", async (label, tone, fields) => {
      renderAssignments('student', {
        'GET /api/assignments': { body: [createAssignment({ title: 'Task', ...fields })] },
      });
      const badge = badgeOf(await card('Task'));
      expect(badge).toHaveTextContent(label);
      expect(badge).toHaveClass(`badge--${tone}`);
    });

    it('shows a teacher only Active or Overdue', async () => {
      renderAssignments('teacher', {
        'GET /api/assignments': {
          body: [
            createAssignment({ title: 'Future', dueDate: daysFromNow(2), submissionCount: 4 }),
            createAssignment({ title: 'Past', dueDate: daysFromNow(-2), submissionCount: 4 }),
          ],
        },
      });
      expect(badgeOf(await card('Future'))).toHaveTextContent('Active');
      expect(badgeOf(await card('Past'))).toHaveTextContent('Overdue');
    });
  });

  it('shows each card’s course, due date and points', async () => {
    const assignment = createAssignment({ title: 'Essay', courseTitle: 'World History', maxPoints: 150 });
    renderAssignments('student', { 'GET /api/assignments': { body: [assignment] } });
    const essay = await card('Essay');
    expect(essay).toHaveTextContent('World History');
    expect(essay).toHaveTextContent(`Due ${formatListDate(assignment.dueDate)}`);
    expect(essay).toHaveTextContent('150 points');
  });

  it('shows a student when they submitted, their grade and the teacher’s feedback', async () => {
    const submission = createOwnSubmission({ grade: 42, feedback: 'Great use of sources.' });
    renderAssignments('student', {
      'GET /api/assignments': {
        body: [
          createAssignment({ title: 'Graded one', maxPoints: 50, submission }),
          createAssignment({ title: 'Waiting one', submission: createOwnSubmission() }),
        ],
      },
    });
    const graded = await card('Graded one');
    expect(graded).toHaveTextContent(`Submitted ${formatListDate(submission.submittedAt)}`);
    expect(graded).toHaveTextContent('Grade: 42/50');
    expect(graded).toHaveTextContent('Great use of sources.');
    expect(within(graded).getByRole('button', { name: 'View Submission' })).toBeEnabled();

    const waiting = await card('Waiting one');
    expect(waiting).toHaveTextContent('Submitted');
    expect(waiting).not.toHaveTextContent('Grade:');
  });

  it('shows a student a returned grade for work not handed in, and still offers Submit while open (DESIGN §17)', async () => {
    const graded = {
      ...createOwnSubmission({
        grade: 0,
        feedback: 'Nothing came in.',
        returnedAt: new Date().toISOString(),
      }),
      submittedAt: null,
    };
    renderAssignments('student', {
      'GET /api/assignments': {
        body: [createAssignment({ title: 'Missed', maxPoints: 50, submission: graded, status: 'returned' })],
      },
    });
    const missed = await card('Missed');
    expect(missed).toHaveTextContent('Not submitted: graded as missing work');
    expect(missed).toHaveTextContent('Grade: 0/50');
    expect(missed).toHaveTextContent('Nothing came in.');
    expect(within(missed).getByRole('button', { name: 'Submit' })).toBeEnabled();
    expect(within(missed).queryByRole('button', { name: 'View Submission' })).not.toBeInTheDocument();
  });

  it('gives a student Submit on open work and no teacher controls', async () => {
    renderAssignments('student', { 'GET /api/assignments': { body: [createAssignment({ title: 'Open' })] } });
    const open = await card('Open');
    expect(within(open).getByRole('button', { name: 'Submit' })).toBeEnabled();
    expect(screen.getByText('View and submit your assignments')).toBeInTheDocument();
    for (const name of ['Create Assignment', 'Generate Samples', 'Delete assignment', 'Edit assignment']) {
      expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
    }
    expect(screen.queryByRole('button', { name: /View Submissions/ })).not.toBeInTheDocument();
  });

  it('gives a teacher View Submissions with the count, edit, delete, Create Assignment and Generate Samples', async () => {
    renderAssignments('teacher', {
      'GET /api/assignments': { body: [createAssignment({ title: 'Quiz', submissionCount: 3 })] },
    });
    const quiz = await card('Quiz');
    expect(within(quiz).getByRole('button', { name: /View Submissions/ })).toHaveTextContent(
      'View Submissions3',
    );
    expect(within(quiz).getByRole('button', { name: 'Edit assignment' })).toBeInTheDocument();
    expect(within(quiz).getByRole('button', { name: 'Delete assignment' })).toBeInTheDocument();
    expect(within(quiz).queryByRole('button', { name: 'Submit' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create Assignment' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Generate Samples' })).toBeInTheDocument();
    expect(screen.getByText('Create and manage assignments')).toBeInTheDocument();
  });

  describe('Generate Samples', () => {
    it('says first that a new sample course is made, then adds the samples', async () => {
      const { user } = renderAssignments('teacher', {
        'GET /api/assignments': { body: [] },
        'POST /api/assignments/samples': {
          status: 201,
          body: [createAssignment({ title: 'Sample 1' }), createAssignment({ title: 'Sample 2' })],
        },
        'GET /api/dashboard': 'pending',
      });
      await user.click(await screen.findByRole('button', { name: 'Generate Samples' }));
      expect(screen.getByRole('alertdialog', { name: 'Create a sample course?' })).toBeInTheDocument();
      await answerConfirm(user, 'Create sample course', SAMPLE_CONFIRMATION.description as string);
      expect(await findToast(SAMPLE_CREATED)).toBeInTheDocument();
      // The cards come with the cache update, which may render just after the toast.
      expect(await screen.findByRole('article', { name: 'Sample 1' })).toBeInTheDocument();
      expect(screen.getByRole('article', { name: 'Sample 2' })).toBeInTheDocument();
    });

    it('creates nothing when the teacher cancels', async () => {
      const { user, calls } = renderAssignments('teacher', { 'GET /api/assignments': { body: [] } });
      await user.click(await screen.findByRole('button', { name: 'Generate Samples' }));
      await answerConfirm(user, 'Cancel');
      expect(calls.some((c) => c.method === 'POST')).toBe(false);
    });

    it("toasts 'Failed to create samples.' on any other failure", async () => {
      const { user } = renderAssignments('teacher', {
        'GET /api/assignments': { body: [] },
        'POST /api/assignments/samples': apiError(500, 'Boom', 'internal_error'),
      });
      await user.click(await screen.findByRole('button', { name: 'Generate Samples' }));
      await answerConfirm(user, 'Create sample course');
      expect(await findToast('Failed to create samples.')).toBeInTheDocument();
    });
  });

  describe('deleting an assignment', () => {
    const contents = (a: { id: string }) => ({
      [`GET /api/bin/assignment/${a.id}/contents`]: {
        body: { submissions: 3, grades: 2, drafts: 0, assignments: 0, students: 0 },
      },
    });
    const confirmIn = async (
      user: { click: (element: Element) => Promise<void> },
      title: string,
      button: 'Cancel' | 'Delete assignment',
    ) => {
      const dialog = await screen.findByRole('alertdialog', { name: `Delete the assignment “${title}”?` });
      await user.click(within(dialog).getByRole('button', { name: button }));
    };

    it('names what goes to the bin ("3 submissions, 2 grades") and removes the card once deleted', async () => {
      const doomed = createAssignment({ title: 'Doomed', submissionCount: 3 });
      const { user } = renderAssignments('teacher', {
        'GET /api/assignments': { body: [doomed] },
        ...contents(doomed),
        [`DELETE /api/assignments/${doomed.id}`]: { status: 204 },
        'GET /api/dashboard': 'pending',
      });
      await user.click(within(await card('Doomed')).getByRole('button', { name: 'Delete assignment' }));
      const dialog = await screen.findByRole('alertdialog', { name: 'Delete the assignment “Doomed”?' });
      expect(dialog).toHaveAccessibleDescription('It moves to the bin with 3 submissions, 2 grades.');
      expect(within(dialog).getByText(/restore it from the bin for 30 days/)).toBeInTheDocument();
      await user.click(within(dialog).getByRole('button', { name: 'Delete assignment' }));
      expect(await findToast('Assignment moved to the bin')).toBeInTheDocument();
      // The cache drops the card once the DELETE has answered (the toast may show a render earlier).
      await waitFor(() => expect(screen.queryByRole('article', { name: 'Doomed' })).not.toBeInTheDocument());
    });

    it('does not claim the assignment holds no work when its counts could not be read', async () => {
      const unknown = createAssignment({ title: 'Unknown', submissionCount: 3 });
      const { user } = renderAssignments('teacher', {
        'GET /api/assignments': { body: [unknown] },
        [`GET /api/bin/assignment/${unknown.id}/contents`]: apiError(503, 'Try again', 'unavailable'),
      });
      await user.click(within(await card('Unknown')).getByRole('button', { name: 'Delete assignment' }));
      const dialog = await screen.findByRole('alertdialog', { name: 'Delete the assignment “Unknown”?' });
      expect(dialog).toHaveAccessibleDescription('It moves to the bin with whatever it holds.');
    });

    it('does nothing when the teacher cancels, or presses Escape', async () => {
      const kept = createAssignment({ title: 'Kept', submissionCount: 0 });
      const { user, calls } = renderAssignments('teacher', {
        'GET /api/assignments': { body: [kept] },
        ...contents(kept),
      });
      await user.click(within(await card('Kept')).getByRole('button', { name: 'Delete assignment' }));
      await confirmIn(user, 'Kept', 'Cancel');
      await user.click(within(await card('Kept')).getByRole('button', { name: 'Delete assignment' }));
      await screen.findByRole('alertdialog', { name: 'Delete the assignment “Kept”?' });
      await user.keyboard('{Escape}');
      expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
      expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    });

    it("toasts 'Failed to delete assignment.' when the server refuses", async () => {
      const kept = createAssignment({ title: 'Kept', submissionCount: 0 });
      const { user } = renderAssignments('teacher', {
        'GET /api/assignments': { body: [kept] },
        ...contents(kept),
        [`DELETE /api/assignments/${kept.id}`]: apiError(403, 'Not yours', 'forbidden'),
      });
      await user.click(within(await card('Kept')).getByRole('button', { name: 'Delete assignment' }));
      await confirmIn(user, 'Kept', 'Delete assignment');
      expect(await findToast('Failed to delete assignment.')).toBeInTheDocument();
      expect(screen.getByRole('article', { name: 'Kept' })).toBeInTheDocument();
    });
  });

  it('gives a teacher with no assignments a teacher’s hint, not a student’s', async () => {
    renderAssignments('teacher', { 'GET /api/assignments': { body: [] } });
    expect(await screen.findByRole('heading', { name: 'No assignments yet' })).toBeInTheDocument();
    expect(screen.getByText(/Create an assignment for one of your courses/)).toBeInTheDocument();
    expect(screen.queryByText('Check back later for new assignments.')).not.toBeInTheDocument();
  });

  it('says the server failed when the list gets a 500, and offers to try again', async () => {
    renderAssignments('student', { 'GET /api/assignments': apiError(500, 'Boom', 'internal_error') });
    expect(
      await screen.findByRole('heading', { name: 'Assignments could not be loaded' }),
    ).toBeInTheDocument();
    expect(
      screen.getByText('The server ran into a problem. Please try again in a moment.'),
    ).toBeInTheDocument();
    expect(screen.queryByText(/Check your connection/)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('asks to check the connection only when no answer came at all', async () => {
    renderAssignments('student', {
      'GET /api/assignments': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    expect(
      await screen.findByRole('heading', { name: 'Assignments could not be loaded' }),
    ).toBeInTheDocument();
    expect(screen.getByText('Check your connection, then try again.')).toBeInTheDocument();
  });

  it("links the card's course name to the course", async () => {
    const assignment = createAssignment({ title: 'Essay', courseTitle: 'World History' });
    renderAssignments('student', { 'GET /api/assignments': { body: [assignment] } });
    const essay = await card('Essay');
    expect(within(essay).getByRole('link', { name: 'World History' })).toHaveAttribute(
      'href',
      `/courses/${assignment.courseId}`,
    );
  });
});
