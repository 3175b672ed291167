import type { Lesson, LessonQuestion } from '@classwave/shared';
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { applyLiveEvent } from '../../realtime/applyLiveEvent';
import { createCourse, liveEvent, nextId } from '../../test/factories';
import { renderRoute } from '../../test/renderRoute';

const at = '2026-11-27T10:00:00.000Z';

function lessonOf(courseId: string, overrides: Partial<Lesson> = {}): Lesson {
  return {
    id: nextId(),
    courseId,
    startedAt: at,
    endedAt: null,
    assignmentId: null,
    questions: [],
    students: null,
    ...overrides,
  };
}
function questionOf(lesson: Lesson, overrides: Partial<LessonQuestion> = {}): LessonQuestion {
  return {
    id: nextId(),
    lessonId: lesson.id,
    courseId: lesson.courseId,
    position: 1,
    kind: 'multiple_choice',
    prompt: 'Which planet is largest?',
    options: ['Mars', 'Jupiter', 'Venus'],
    anonymous: false,
    openedAt: at,
    closedAt: null,
    correct: null,
    results: null,
    mine: null,
    answers: null,
    ...overrides,
  };
}

describe('a student during a live lesson', () => {
  it('sees a pushed question at once on any page, answers it, and sees the reveal with whether they were right', async () => {
    const course = createCourse();
    const lesson = lessonOf(course.id);
    const q = questionOf(lesson);
    let answered: unknown;
    const { store, user } = renderRoute('/chatbot', 'student', {
      'GET /api/lessons/live': { body: [lesson] },
      [`PUT /api/lessons/${lesson.id}/questions/${q.id}/answer`]: ({ body }) => {
        answered = body;
        return { body: { lessonId: lesson.id, questionId: q.id, answer: 1, answeredAt: at } };
      },
    });
    await waitFor(() =>
      expect(store.getState().api.queries['getLiveLessons(undefined)']?.status).toBe('fulfilled'),
    );
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    act(() => void store.dispatch(applyLiveEvent(liveEvent('lesson:question', q))));
    const dialog = await screen.findByRole('dialog', { name: 'Which planet is largest?' });
    await user.click(within(dialog).getByRole('button', { name: 'Jupiter' }));
    expect(answered).toEqual({ answer: 1 });
    await waitFor(() =>
      expect(within(dialog).getByRole('button', { name: 'Jupiter' })).toHaveAttribute('aria-pressed', 'true'),
    );
    expect(within(dialog).getByRole('status')).toHaveTextContent('Your answer: Jupiter');
    // Not yet told whether it is right.
    expect(dialog).not.toHaveTextContent('Right answer');

    act(
      () =>
        void store.dispatch(
          applyLiveEvent(
            liveEvent('lesson:closed', {
              ...q,
              closedAt: at,
              correct: 1,
              results: {
                answered: 3,
                correctCount: 2,
                counts: [
                  { answer: 0, count: 1 },
                  { answer: 1, count: 2 },
                  { answer: 2, count: 0 },
                ],
              },
            }),
          ),
        ),
    );
    await waitFor(() => expect(screen.getByRole('dialog')).toHaveTextContent('Right answer: Jupiter'));
    expect(screen.getByRole('dialog')).toHaveTextContent('Your answer: Jupiter — right!');
    expect(screen.getByRole('list', { name: 'Answers so far' })).toHaveTextContent('Jupiter (right answer)2');
  });

  it('shows an answer given in another tab (lesson:answer)', async () => {
    const course = createCourse();
    const base = lessonOf(course.id);
    const q = questionOf(base, { kind: 'true_false', options: [], prompt: 'The sun is a star.' });
    const { store } = renderRoute('/chatbot', 'student', {
      'GET /api/lessons/live': { body: [{ ...base, questions: [q] }] },
    });
    const dialog = await screen.findByRole('dialog', { name: 'The sun is a star.' });
    act(
      () =>
        void store.dispatch(
          applyLiveEvent(
            liveEvent('lesson:answer', {
              lessonId: base.id,
              courseId: course.id,
              questionId: q.id,
              answer: true,
              answeredAt: at,
            }),
          ),
        ),
    );
    await waitFor(() =>
      expect(within(dialog).getByRole('button', { name: 'True' })).toHaveAttribute('aria-pressed', 'true'),
    );
  });
});

describe('the teacher’s live results', () => {
  it('count answers as they stream in and list who has not answered yet', async () => {
    const course = createCourse();
    const students = [
      { id: nextId(), fullName: 'Ada' },
      { id: nextId(), fullName: 'Ben' },
    ];
    const base = lessonOf(course.id, { students });
    const q = questionOf(base, {
      correct: 1,
      results: { answered: 0, correctCount: 0, counts: [0, 1, 2].map((answer) => ({ answer, count: 0 })) },
      answers: [],
    });
    const { store } = renderRoute(`/courses/${course.id}/lesson`, 'teacher', {
      [`GET /api/courses/${course.id}`]: { body: { course, assignments: [] } },
      [`GET /api/courses/${course.id}/lessons/current`]: { body: { lesson: { ...base, questions: [q] } } },
    });
    expect(await screen.findByText('Not answered yet (2)')).toBeInTheDocument();
    act(
      () =>
        void store.dispatch(
          applyLiveEvent(
            liveEvent('lesson:tally', {
              lessonId: base.id,
              courseId: course.id,
              questionId: q.id,
              results: {
                answered: 1,
                correctCount: 1,
                counts: [0, 1, 2].map((answer) => ({ answer, count: answer === 1 ? 1 : 0 })),
              },
              answer: { student: students[0]!, answer: 1, answeredAt: at, correct: true },
            }),
          ),
        ),
    );
    await waitFor(() => expect(screen.getByText('Not answered yet (1)')).toBeInTheDocument());
    expect(screen.getByText(/of 2 answered/)).toHaveTextContent('1 of 2 answered · 1 right');
    expect(screen.getByRole('list', { name: 'Answers so far' })).toHaveTextContent('Jupiter (right answer)1');
    expect(screen.getByRole('button', { name: 'Close and reveal' })).toBeInTheDocument();
  });
});

describe('the teacher’s question bank and the end of a lesson', () => {
  it('fills the composer from the bank, pushes it, and saves a written question to the bank', async () => {
    const course = createCourse();
    const base = lessonOf(course.id, { students: [] });
    const banked = {
      id: nextId(),
      courseId: course.id,
      kind: 'true_false' as const,
      prompt: 'The sun is a star.',
      options: [],
      correct: true,
      anonymous: false,
      createdAt: at,
    };
    const sent: Record<string, unknown> = {};
    const { user } = renderRoute(`/courses/${course.id}/lesson`, 'teacher', {
      [`GET /api/courses/${course.id}`]: { body: { course, assignments: [] } },
      [`GET /api/courses/${course.id}/lessons/current`]: { body: { lesson: base } },
      [`GET /api/courses/${course.id}/question-bank`]: { body: [banked] },
      [`POST /api/lessons/${base.id}/questions`]: ({ body }) => {
        sent.push = body;
        return { status: 201, body: questionOf(base, { ...banked, id: nextId(), correct: true }) };
      },
      [`POST /api/courses/${course.id}/question-bank`]: ({ body }) => {
        sent.save = body;
        return { status: 201, body: { ...banked, id: nextId() } };
      },
    });
    await user.click(await screen.findByRole('button', { name: 'From the bank' }));
    const dialog = await screen.findByRole('dialog', { name: 'From the question bank' });
    await user.click(await within(dialog).findByRole('button', { name: /^The sun is a star\./ }));
    expect(screen.getByLabelText('Question')).toHaveValue('The sun is a star.');
    await user.click(screen.getByRole('button', { name: 'Save to the bank' }));
    await waitFor(() =>
      expect(sent.save).toEqual({ kind: 'true_false', prompt: 'The sun is a star.', correct: true }),
    );
    await user.click(screen.getByRole('button', { name: 'Push to the class' }));
    await waitFor(() =>
      expect(sent.push).toEqual({ kind: 'true_false', prompt: 'The sun is a star.', correct: true }),
    );
  });

  it('shows the final results once the lesson has ended', async () => {
    const course = createCourse();
    const students = [{ id: nextId(), fullName: 'Ada' }];
    const base = lessonOf(course.id, { students });
    const q = questionOf(base, {
      closedAt: at,
      correct: 1,
      results: {
        answered: 1,
        correctCount: 1,
        counts: [0, 1, 2].map((answer) => ({ answer, count: +(answer === 1) })),
      },
      answers: [],
    });
    const { user } = renderRoute(`/courses/${course.id}/lesson`, 'teacher', {
      [`GET /api/courses/${course.id}`]: { body: { course, assignments: [] } },
      [`GET /api/courses/${course.id}/lessons/current`]: { body: { lesson: { ...base, questions: [q] } } },
      [`POST /api/lessons/${base.id}/end`]: {
        body: { ...base, endedAt: at, questions: [q] },
      },
    });
    await user.click(await screen.findByRole('button', { name: 'End lesson' }));
    const dialog = await screen.findByRole('dialog', { name: 'End the live lesson?' });
    await user.click(within(dialog).getByRole('button', { name: 'End lesson' }));
    const final = await screen.findByRole('region', { name: 'Final results' });
    expect(final).toHaveTextContent('Which planet is largest?');
    expect(final).toHaveTextContent('1 of 1 answered · 1 right');
    expect(final).toHaveTextContent('Right answer: Jupiter');
  });
});
