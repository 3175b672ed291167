import type { Gradebook, GradebookCell, LiveEvent } from '@classwave/shared';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyLiveEvent } from '../../realtime/applyLiveEvent';
import type { Route } from '../../test/api';
import { createSubmission, nextId } from '../../test/factories';
import { findToast } from '../../test/renderWithProviders';
import { renderRoute } from '../../test/renderRoute';
import { gradingApi } from './gradingApi';

afterEach(() => {
  vi.unstubAllGlobals();
});

function buildGradebook(): Gradebook {
  const courseId = nextId();
  const ada = { id: nextId(), fullName: 'Ada Lovelace', email: 'ada@example.org' };
  const alan = { id: nextId(), fullName: 'Alan Turing', email: 'alan@example.org' };
  const essay = {
    id: nextId(),
    title: 'Essay',
    dueDate: '2026-03-01T12:00:00.000Z',
    maxPoints: 20,
    gradeRelease: 'auto' as const,
    categoryId: null,
  };
  const quiz = {
    id: nextId(),
    title: 'Quiz',
    dueDate: '2026-03-08T12:00:00.000Z',
    maxPoints: 10,
    gradeRelease: 'manual' as const,
    categoryId: null,
  };
  const cell = (
    overrides: Partial<GradebookCell> & Pick<GradebookCell, 'assignmentId' | 'studentId'>,
  ): GradebookCell => ({
    submissionId: null,
    grade: null,
    version: null,
    status: 'missing',
    late: null,
    returnedAt: null,
    ...overrides,
  });
  return {
    course: { id: courseId, title: 'Biology', code: 'BIO1', missingCountsAsZero: true },
    students: [ada, alan],
    assignments: [essay, quiz],
    categories: [],
    cells: [
      cell({
        assignmentId: essay.id,
        studentId: ada.id,
        submissionId: nextId(),
        grade: 18,
        version: 1,
        status: 'returned',
        returnedAt: '2026-03-02T12:00:00.000Z',
      }),
      cell({
        assignmentId: essay.id,
        studentId: alan.id,
        submissionId: nextId(),
        grade: 10,
        version: 1,
        status: 'returned',
        returnedAt: '2026-03-02T12:00:00.000Z',
      }),
      cell({
        assignmentId: quiz.id,
        studentId: ada.id,
        submissionId: nextId(),
        version: 0,
        status: 'late',
        late: 134,
      }),
      cell({ assignmentId: quiz.id, studentId: alan.id }),
    ],
  };
}

function renderGradebook(gradebook: Gradebook, routes: Record<string, Route> = {}) {
  return renderRoute(`/courses/${gradebook.course.id}/gradebook`, 'teacher', {
    [`GET /api/courses/${gradebook.course.id}/gradebook`]: { body: gradebook },
    ...routes,
  });
}

describe('GradebookPage', () => {
  it('shows students × assignments in a table with headers, status marks, totals and averages', async () => {
    const gradebook = buildGradebook();
    renderGradebook(gradebook);
    const table = await screen.findByRole('grid', { name: 'Gradebook for Biology' });
    expect(within(table).getByRole('columnheader', { name: 'Essay/20' })).toBeInTheDocument();
    expect(within(table).getByRole('rowheader', { name: /Ada Lovelace/ })).toBeInTheDocument();
    expect(
      within(table).getByRole('gridcell', { name: 'Ada Lovelace, Quiz: not graded, 2 h 14 min late' }),
    ).toBeInTheDocument();
    expect(
      within(table).getByRole('gridcell', { name: 'Alan Turing, Quiz: no submission, Missing' }),
    ).toBeInTheDocument();
    const ada = within(table).getByRole('row', { name: /Ada Lovelace/ });
    expect(ada).toHaveTextContent('18/20 (90%)');
    const average = within(table).getByRole('row', { name: /Average/ });
    expect(average).toHaveTextContent('14/20');
  });

  // Issue 25 (item 8): "no submission" and "submitted, not graded" both read "–", and a late graded
  // answer lost its Late mark.
  it('marks every state apart, keeps Late on a graded answer, and says what the marks mean', async () => {
    const gradebook = buildGradebook();
    const [essay, quiz] = gradebook.assignments;
    const [ada, alan] = gradebook.students;
    const set = (studentId: string, assignmentId: string, patch: Partial<GradebookCell>) => {
      const cell = gradebook.cells.find((c) => c.studentId === studentId && c.assignmentId === assignmentId)!;
      Object.assign(cell, patch);
    };
    // Ada's quiz: graded 7, held, handed in late; Alan's essay: submitted on time, not graded yet.
    set(ada!.id, quiz!.id, { grade: 7, version: 1, status: 'graded' });
    set(alan!.id, essay!.id, { grade: null, version: 0, status: 'submitted', returnedAt: null });
    set(alan!.id, quiz!.id, { status: 'not_submitted' });
    renderGradebook(gradebook);
    const table = await screen.findByRole('grid', { name: 'Gradebook for Biology' });
    const cellOf = (name: string) => within(table).getByRole('gridcell', { name });
    expect(
      cellOf('Ada Lovelace, Quiz: 7 of 10, Graded, not yet returned, 2 h 14 min late'),
    ).toHaveTextContent(/7\s*Held\s*Late/);
    expect(cellOf('Ada Lovelace, Essay: 18 of 20, returned')).toHaveTextContent(/18\s*✓/);
    const toGrade = cellOf('Alan Turing, Essay: not graded');
    const none = cellOf('Alan Turing, Quiz: no submission');
    expect(toGrade).toHaveTextContent('To grade');
    expect(none).toHaveTextContent(/^–$/);
    const legend = screen.getByLabelText('What the marks mean');
    for (const meaning of ['no submission yet', 'submitted, not graded', 'graded, waiting for Return'])
      expect(within(legend).getByText(meaning)).toBeInTheDocument();
  });

  it('moves with the arrow keys, edits with Enter and saves in the background with the cell version', async () => {
    const gradebook = buildGradebook();
    const quizAda = gradebook.cells[2]!;
    const saved = createSubmission({
      id: quizAda.submissionId!,
      assignmentId: quizAda.assignmentId,
      studentId: quizAda.studentId,
      grade: 8,
      version: 1,
      late: 134,
    });
    const { user, calls } = renderGradebook(gradebook, {
      [`PATCH /api/submissions/${quizAda.submissionId}`]: { body: saved },
    });
    const table = await screen.findByRole('grid');
    const first = within(table).getByRole('gridcell', { name: /Ada Lovelace, Essay/ });
    first.focus();
    await user.keyboard('{ArrowRight}');
    const target = within(table).getByRole('gridcell', { name: /Ada Lovelace, Quiz/ });
    await waitFor(() => expect(target).toHaveFocus());
    await user.keyboard('{Enter}');
    const input = within(table).getByRole('textbox', { name: 'Grade for Ada Lovelace, Quiz, out of 10' });
    await user.clear(input);
    await user.type(input, '8{Enter}');

    // The machine may be busy: give the background save a few seconds (it shows "Saved" for two).
    expect(await within(table).findByText('Saved', {}, { timeout: 3000 })).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PATCH').map((c) => c.body)).toEqual([
      // The grade alone: the server keeps feedback a write leaves out (written in the dialog).
      { grade: 8, baseVersion: 0 },
    ]);
    expect(
      await within(table).findByRole('gridcell', { name: /Ada Lovelace, Quiz: 8 of 10/ }),
    ).toBeInTheDocument();
    // Enter saved and moved down, as in a spreadsheet.
    await waitFor(() =>
      expect(within(table).getByRole('gridcell', { name: /Alan Turing, Quiz/ })).toHaveFocus(),
    );
  });

  // Issue 25 (item 2): a Missing cell ignored digits, so no zero could be given.
  it('takes digits in a Missing cell and saves a grade for missing work, which the total then counts', async () => {
    const gradebook = buildGradebook();
    gradebook.course.missingCountsAsZero = false;
    const quizAlan = gradebook.cells[3]!;
    const saved = {
      ...createSubmission({
        assignmentId: quizAlan.assignmentId,
        studentId: quizAlan.studentId,
        student: { id: quizAlan.studentId, fullName: 'Alan Turing' },
        grade: 0,
        version: 1,
      }),
      content: null,
      submittedAt: null,
      held: true,
    };
    const { user, calls } = renderGradebook(gradebook, {
      [`PUT /api/assignments/${quizAlan.assignmentId}/grades/${quizAlan.studentId}`]: { body: saved },
    });
    const table = await screen.findByRole('grid');
    const alan = within(table).getByRole('row', { name: /Alan Turing/ });
    // Only graded work counts in this course: the missing quiz is not in Alan's total yet.
    expect(alan).toHaveTextContent('10/20 (50%)');
    within(table).getByRole('gridcell', { name: 'Alan Turing, Quiz: no submission, Missing' }).focus();
    await user.keyboard('0');
    const input = within(table).getByRole('textbox', { name: 'Grade for Alan Turing, Quiz, out of 10' });
    expect(input).toHaveValue('0');
    await user.keyboard('{Enter}');

    expect(await within(table).findByText('Saved', {}, { timeout: 3000 })).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PUT').map((c) => [c.path, c.body])).toEqual([
      [
        `/api/assignments/${quizAlan.assignmentId}/grades/${quizAlan.studentId}`,
        { grade: 0, baseVersion: 0 },
      ],
    ]);
    expect(
      await within(table).findByRole('gridcell', {
        name: 'Alan Turing, Quiz: 0 of 10, Graded, not yet returned',
      }),
    ).toBeInTheDocument();
    expect(alan).toHaveTextContent('10/30 (33.3%)');
  });

  it('counts missing work as 0 in the totals where the course says so', async () => {
    renderGradebook(buildGradebook());
    const table = await screen.findByRole('grid');
    // Alan: 10/20 on the essay, the quiz missing past due and counted 0 of 10.
    expect(within(table).getByRole('row', { name: /Alan Turing/ })).toHaveTextContent('10/30 (33.3%)');
  });

  it('Escape leaves the cell as it was and sends nothing', async () => {
    const gradebook = buildGradebook();
    const { user, calls } = renderGradebook(gradebook);
    const table = await screen.findByRole('grid');
    within(table)
      .getByRole('gridcell', { name: /Ada Lovelace, Essay/ })
      .focus();
    await user.keyboard('5');
    await user.keyboard('{Escape}');
    expect(within(table).queryByRole('textbox')).not.toBeInTheDocument();
    await waitFor(() =>
      expect(within(table).getByRole('gridcell', { name: /Ada Lovelace, Essay: 18 of 20/ })).toHaveFocus(),
    );
    expect(calls.filter((c) => c.method === 'PATCH')).toEqual([]);
  });

  it('marks a cell refused with 409 grade_conflict and offers keep mine / use theirs', async () => {
    const gradebook = buildGradebook();
    const essayAda = gradebook.cells[0]!;
    const { user, calls } = renderGradebook(gradebook, {
      [`GET /api/assignments/${essayAda.assignmentId}/submissions`]: { body: [] },
      [`PATCH /api/submissions/${essayAda.submissionId}`]: ({ body }) =>
        (body as { baseVersion: number }).baseVersion === 1
          ? {
              status: 409,
              body: {
                statusCode: 409,
                code: 'grade_conflict',
                error: 'Conflict',
                message: 'Graded meanwhile.',
                current: {
                  grade: 15,
                  feedback: null,
                  version: 2,
                  gradedBy: { id: nextId(), fullName: 'Grace Hopper' },
                  gradedAt: null,
                },
              },
            }
          : {
              body: createSubmission({
                id: essayAda.submissionId!,
                assignmentId: essayAda.assignmentId,
                studentId: essayAda.studentId,
                grade: 19,
                version: 3,
                returnedAt: '2026-03-02T12:00:00.000Z',
              }),
            },
    });
    const table = await screen.findByRole('grid');
    within(table)
      .getByRole('gridcell', { name: /Ada Lovelace, Essay/ })
      .focus();
    await user.keyboard('19{Enter}');
    await waitFor(() => expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(1));
    const alert = await within(table).findByRole('alert');
    expect(alert).toHaveTextContent('Grace Hopper gave 15/20');
    await user.click(within(alert).getByRole('button', { name: 'Keep mine (19)' }));
    await waitFor(() =>
      expect(
        within(table).getByRole('gridcell', { name: /Ada Lovelace, Essay: 19 of 20/ }),
      ).toBeInTheDocument(),
    );
    expect(
      calls.filter((c) => c.method === 'PATCH').map((c) => (c.body as { baseVersion: number }).baseVersion),
    ).toEqual([1, 2]);
  });

  it('updates a cell live when a student submits', async () => {
    const gradebook = buildGradebook();
    const quizAlan = gradebook.cells[3]!;
    const { store } = renderGradebook(gradebook);
    const table = await screen.findByRole('grid');
    const event: LiveEvent<'submission:created'> = {
      id: 1,
      type: 'submission:created',
      at: new Date().toISOString(),
      data: createSubmission({ assignmentId: quizAlan.assignmentId, studentId: quizAlan.studentId, late: 5 }),
    };
    act(() => {
      store.dispatch(applyLiveEvent(event));
    });
    expect(
      await within(table).findByRole('gridcell', { name: 'Alan Turing, Quiz: not graded, 5 min late' }),
    ).toBeInTheDocument();
  });

  it("keeps a student's own due date and a not-assigned cell through live submissions and a saved grade", async () => {
    const gradebook = buildGradebook();
    // Alan has an extension on the quiz; the essay was narrowed to others after he handed it in.
    const quizAlan = gradebook.cells[3]!;
    quizAlan.dueDate = '2026-03-15T12:00:00.000Z';
    const essayAlan = gradebook.cells[1]!;
    essayAlan.assigned = false;
    const handedIn = createSubmission({
      assignmentId: quizAlan.assignmentId,
      studentId: quizAlan.studentId,
      student: { id: quizAlan.studentId, fullName: 'Alan Turing' },
    });
    const { store, user } = renderGradebook(gradebook, {
      [`PATCH /api/submissions/${handedIn.id}`]: { body: { ...handedIn, grade: 9, version: 1 } },
    });
    const table = await screen.findByRole('grid');
    const live = <T extends 'submission:created' | 'submission:graded'>(
      id: number,
      type: T,
      data: LiveEvent<T>['data'],
    ) => act(() => void store.dispatch(applyLiveEvent({ id, type, at: new Date().toISOString(), data })));
    live(1, 'submission:created', handedIn);
    live(
      2,
      'submission:graded',
      createSubmission({
        id: essayAlan.submissionId!,
        assignmentId: essayAlan.assignmentId,
        studentId: essayAlan.studentId,
        grade: 12,
        version: 2,
        returnedAt: '2026-03-03T12:00:00.000Z',
      }),
    );
    const cellsOf = () =>
      gradingApi.endpoints.getGradebook.select(gradebook.course.id)(store.getState() as never).data!.cells;
    expect(
      await within(table).findByRole('gridcell', { name: /Alan Turing, Quiz: not graded/ }),
    ).toBeInTheDocument();
    expect(cellsOf()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          studentId: quizAlan.studentId,
          submissionId: handedIn.id,
          dueDate: quizAlan.dueDate,
        }),
        expect.objectContaining({ studentId: essayAlan.studentId, grade: 12, assigned: false }),
      ]),
    );

    // The teacher grades the quiz: the answer's cell keeps the extension too.
    within(table)
      .getByRole('gridcell', { name: /Alan Turing, Quiz/ })
      .focus();
    await user.keyboard('9{Enter}');
    expect(
      await within(table).findByRole('gridcell', { name: /Alan Turing, Quiz: 9 of 10/ }),
    ).toBeInTheDocument();
    expect(cellsOf().find((c) => c.submissionId === handedIn.id)).toMatchObject({
      grade: 9,
      dueDate: quizAlan.dueDate,
    });
  });

  it('excuses a student who has not submitted with the E key', async () => {
    const gradebook = buildGradebook();
    const quizAlan = gradebook.cells[3]!;
    const { user, calls } = renderGradebook(gradebook, {
      [`POST /api/assignments/${quizAlan.assignmentId}/excuse`]: { body: {} },
    });
    const table = await screen.findByRole('grid');
    within(table)
      .getByRole('gridcell', { name: /Alan Turing, Quiz/ })
      .focus();
    await user.keyboard('e');
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
        studentId: quizAlan.studentId,
        excused: true,
      }),
    );
  });

  it('sends no excuse for a student the assignment is not for, and says why', async () => {
    const gradebook = buildGradebook();
    const quizAlan = gradebook.cells[3]!;
    Object.assign(quizAlan, { assigned: false, status: 'excused' });
    const { user, calls } = renderGradebook(gradebook);
    const table = await screen.findByRole('grid');
    within(table)
      .getByRole('gridcell', { name: /Alan Turing, Quiz/ })
      .focus();
    await user.keyboard('e');
    expect(
      await findToast('This assignment is not for this student: there is nothing to excuse.'),
    ).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
    expect(screen.queryByRole('button', { name: /excuse/i })).not.toBeInTheDocument();
  });

  it('downloads the CSV with the bearer token', async () => {
    const gradebook = buildGradebook();
    const createObjectURL = vi.fn(() => 'blob:gradebook');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const { user } = renderGradebook(gradebook, {
      [`GET /api/courses/${gradebook.course.id}/gradebook.csv`]: { body: 'Student Name' },
    });
    await screen.findByRole('grid');
    const fetchMock = vi.mocked(fetch);
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(createObjectURL).toHaveBeenCalled());
    const call = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/gradebook.csv'))!;
    expect(new Headers((call[1] as RequestInit).headers).get('authorization')).toMatch(/^Bearer token-/);
  });
});
