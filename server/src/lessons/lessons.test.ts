import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Course, CurrentLesson, Gradebook, Lesson } from '@classwave/shared';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import {
  createCourse,
  createStudent,
  createTeacher,
  joinCourse,
  type Actor,
} from '../../test/support/factories.js';
import {
  answerQuestion,
  closeQuestion,
  endLesson,
  pushQuestion,
  startLesson,
  viewLesson,
} from '../../test/support/lessons.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** A course of a fresh teacher with `n` member students. */
async function classOf(n: number): Promise<{ teacher: Actor; course: Course; students: Actor[] }> {
  const teacher = await createTeacher(t, 'Tia Teacher');
  const course = await createCourse(t, teacher);
  const students = await Promise.all(
    Array.from({ length: n }, (_, i) => createStudent(t, `Student ${i + 1}`)),
  );
  for (const s of students) await joinCourse(t, s, course);
  return { teacher, course, students };
}

describe('POST /api/courses/:id/lessons', () => {
  it('starts one live lesson per course: a second start is 409 lesson_in_progress', async () => {
    const { teacher, course } = await classOf(0);
    const lesson = await startLesson(t, teacher, course.id);
    expect(lesson).toMatchObject({ courseId: course.id, endedAt: null, questions: [], students: [] });
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/courses/${course.id}/lessons`,
      headers: teacher.headers,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('lesson_in_progress');
    expect((await endLesson(t, teacher, lesson.id)).statusCode).toBe(200);
    // Ended: the course may start the next one.
    await startLesson(t, teacher, course.id);
  });
});

describe('POST /api/lessons/:id/questions', () => {
  it.each([
    [{ kind: 'multiple_choice', prompt: 'Q', correct: 0 }, 'body.options'],
    [{ kind: 'multiple_choice', prompt: 'Q', options: ['a', 'b'], correct: 2 }, 'body.correct'],
    [{ kind: 'poll', prompt: 'Q', options: ['a', 'b'], correct: 0 }, 'body.correct'],
    [{ kind: 'true_false', prompt: 'Q', correct: 1 }, 'body.correct'],
    [{ kind: 'true_false', prompt: 'Q', options: ['a', 'b'], correct: true }, 'body.options'],
    [{ kind: 'number', prompt: 'Q', correct: 'ten' }, 'body.correct'],
    [{ kind: 'short_answer', prompt: 'Q' }, 'body.correct'],
    [{ kind: 'number', prompt: 'Q', correct: 1, anonymous: true }, 'body.anonymous'],
    [{ kind: 'essay', prompt: 'Q' }, 'kind'],
    [{ kind: 'number', prompt: '   ', correct: 1 }, 'prompt'],
  ])('refuses %j with 400 naming %s', async (payload, field) => {
    const { teacher, course } = await classOf(0);
    const lesson = await startLesson(t, teacher, course.id);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/lessons/${lesson.id}/questions`,
      headers: teacher.headers,
      payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(field);
  });
});

describe('a question from push to reveal', () => {
  it('counts the last answer of each student, hides the right answer from students until the close, then reveals it', async () => {
    const { teacher, course, students } = await classOf(3);
    const [ada, ben, cy] = students as [Actor, Actor, Actor];
    const lesson = await startLesson(t, teacher, course.id);
    const q = await pushQuestion(t, teacher, lesson.id);
    expect(q).toMatchObject({ position: 1, correct: 1, results: { answered: 0, correctCount: 0 } });

    expect((await answerQuestion(t, ada, q, 0)).statusCode).toBe(200);
    expect((await answerQuestion(t, ada, q, 1)).statusCode).toBe(200); // changed: the last counts
    expect((await answerQuestion(t, ben, q, 2)).statusCode).toBe(200);

    const asStudent = await viewLesson(t, ada, lesson.id);
    expect(asStudent.students).toBeNull();
    expect(asStudent.questions[0]).toMatchObject({ correct: null, results: null, answers: null });
    expect(asStudent.questions[0]!.mine).toMatchObject({ answer: 1, correct: null });

    const asTeacher = await viewLesson(t, teacher, lesson.id);
    expect(asTeacher.students!.map((s) => s.fullName)).toEqual(['Student 1', 'Student 2', 'Student 3']);
    expect(asTeacher.questions[0]!.results).toEqual({
      answered: 2,
      correctCount: 1,
      counts: [
        { answer: 0, count: 0 },
        { answer: 1, count: 1 },
        { answer: 2, count: 1 },
      ],
    });
    expect(asTeacher.questions[0]!.answers!.map((a) => [a.student.fullName, a.answer, a.correct])).toEqual([
      ['Student 1', 1, true],
      ['Student 2', 2, false],
    ]);

    const closed = await closeQuestion(t, teacher, q);
    expect(closed.statusCode).toBe(200);
    expect(closed.json().closedAt).not.toBeNull();
    const late = await answerQuestion(t, cy, q, 1);
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe('question_closed');
    // Closing again answers the question as it stands.
    expect((await closeQuestion(t, teacher, q)).statusCode).toBe(200);

    const revealed = (await viewLesson(t, ben, lesson.id)).questions[0]!;
    expect(revealed).toMatchObject({ correct: 1, mine: { answer: 2, correct: false }, answers: null });
    expect(revealed.results).toMatchObject({ answered: 2, correctCount: 1 });
  });

  it('closes (and reveals) the open question when the next is pushed: one open at a time', async () => {
    const { teacher, course, students } = await classOf(1);
    const lesson = await startLesson(t, teacher, course.id);
    const first = await pushQuestion(t, teacher, lesson.id);
    const second = await pushQuestion(t, teacher, lesson.id, {
      kind: 'true_false',
      correct: true,
      options: undefined,
    });
    expect(second.position).toBe(2);
    const res = await answerQuestion(t, students[0]!, first, 1);
    expect(res.statusCode).toBe(409);
    const view = await viewLesson(t, students[0]!, lesson.id);
    expect(view.questions.map((q) => [q.position, q.closedAt !== null, q.correct])).toEqual([
      [1, true, 1],
      [2, false, null],
    ]);
  });

  it('takes answers that fit the kind: numbers, true/false, short answers compared without case or spaces', async () => {
    const { teacher, course, students } = await classOf(2);
    const [ada, ben] = students as [Actor, Actor];
    const lesson = await startLesson(t, teacher, course.id);
    const short = await pushQuestion(t, teacher, lesson.id, {
      kind: 'short_answer',
      correct: 'Paris',
      options: undefined,
    });
    expect((await answerQuestion(t, ada, short, '  paris ')).statusCode).toBe(200);
    expect((await answerQuestion(t, ben, short, 'Lyon')).statusCode).toBe(200);
    const bad = await answerQuestion(t, ada, short, 3);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('body.answer');
    await closeQuestion(t, teacher, short);
    const seen = (await viewLesson(t, ada, lesson.id)).questions[0]!;
    expect(seen.mine?.correct).toBe(true);
    // A classmate's own words never reach a student, even revealed: counts only for the teachers.
    expect(seen.results).toEqual({ answered: 2, correctCount: 1, counts: [] });

    const num = await pushQuestion(t, teacher, lesson.id, {
      kind: 'number',
      correct: 0.3,
      options: undefined,
    });
    expect((await answerQuestion(t, ada, num, 0.1 + 0.2)).statusCode).toBe(200);
    expect((await answerQuestion(t, ben, num, true)).statusCode).toBe(400);
    const mc = await pushQuestion(t, teacher, lesson.id);
    for (const wrong of [3, -1, 1.5, '1'])
      expect((await answerQuestion(t, ada, mc, wrong)).statusCode, JSON.stringify(wrong)).toBe(400);
    const teacherView = await viewLesson(t, teacher, lesson.id);
    expect(teacherView.questions[1]!.results?.correctCount).toBe(1);
  });

  it('keeps an anonymous poll anonymous: counts only, to everyone, the teacher included', async () => {
    const { teacher, course, students } = await classOf(2);
    const lesson = await startLesson(t, teacher, course.id);
    const poll = await pushQuestion(t, teacher, lesson.id, {
      kind: 'poll',
      prompt: 'How did it go?',
      options: ['Well', 'Badly'],
      correct: undefined,
      anonymous: true,
    });
    for (const s of students) expect((await answerQuestion(t, s, poll, 0)).statusCode).toBe(200);
    const q = (await viewLesson(t, teacher, lesson.id)).questions[0]!;
    expect(q).toMatchObject({ correct: null, answers: null });
    expect(q.results).toEqual({
      answered: 2,
      correctCount: null,
      counts: [
        { answer: 0, count: 2 },
        { answer: 1, count: 0 },
      ],
    });
  });

  it('refuses a teacher answering (403) and a removed member (403 not_a_member), who no longer sees it (404)', async () => {
    const { teacher, course, students } = await classOf(1);
    const lesson = await startLesson(t, teacher, course.id);
    const q = await pushQuestion(t, teacher, lesson.id);
    expect((await answerQuestion(t, teacher, q, 1)).statusCode).toBe(403);
    await t.app.inject({
      method: 'DELETE',
      url: `/api/courses/${course.id}/members/${students[0]!.id}`,
      headers: teacher.headers,
    });
    const res = await answerQuestion(t, students[0]!, q, 1);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('not_a_member');
    const get = await t.app.inject({
      method: 'GET',
      url: `/api/lessons/${lesson.id}`,
      headers: students[0]!.headers,
    });
    expect(get.statusCode).toBe(404);
  });
});

describe('finding the current lesson', () => {
  it('lands a late joiner on the current question, in their view', async () => {
    const { teacher, course } = await classOf(0);
    const lesson = await startLesson(t, teacher, course.id);
    await pushQuestion(t, teacher, lesson.id);
    const late = await createStudent(t, 'Late Joiner');
    const before = await t.app.inject({
      method: 'GET',
      url: `/api/courses/${course.id}/lessons/current`,
      headers: late.headers,
    });
    expect(before.statusCode).toBe(404);
    await joinCourse(t, late, course);
    const current = (
      await t.app.inject({
        method: 'GET',
        url: `/api/courses/${course.id}/lessons/current`,
        headers: late.headers,
      })
    ).json<CurrentLesson>();
    expect(current.lesson?.id).toBe(lesson.id);
    expect(current.lesson?.questions[0]).toMatchObject({ closedAt: null, correct: null, results: null });
    const live = (
      await t.app.inject({ method: 'GET', url: '/api/lessons/live', headers: late.headers })
    ).json<Lesson[]>();
    expect(live.map((l) => l.id)).toEqual([lesson.id]);
    const teachers = (
      await t.app.inject({ method: 'GET', url: '/api/lessons/live', headers: teacher.headers })
    ).json<Lesson[]>();
    expect(teachers.map((l) => l.id)).toEqual([lesson.id]);
    await endLesson(t, teacher, lesson.id);
    const after = await t.app.inject({
      method: 'GET',
      url: `/api/courses/${course.id}/lessons/current`,
      headers: late.headers,
    });
    expect(after.json()).toEqual({ lesson: null });
  });
});

describe('POST /api/lessons/:id/end', () => {
  it('turns the lesson into a graded assignment: a point per question with a right answer, the grade the number right', async () => {
    const { teacher, course, students } = await classOf(3);
    const [ada, ben, cy] = students as [Actor, Actor, Actor];
    const lesson = await startLesson(t, teacher, course.id);
    const q1 = await pushQuestion(t, teacher, lesson.id);
    await answerQuestion(t, ada, q1, 1);
    await answerQuestion(t, ben, q1, 0);
    const poll = await pushQuestion(t, teacher, lesson.id, {
      kind: 'poll',
      options: ['x', 'y'],
      correct: undefined,
    });
    await answerQuestion(t, ada, poll, 0);
    const q3 = await pushQuestion(t, teacher, lesson.id, {
      kind: 'true_false',
      correct: false,
      options: undefined,
    });
    await answerQuestion(t, ada, q3, false);
    await answerQuestion(t, ben, q3, false);

    const res = await endLesson(t, teacher, lesson.id, { gradebook: true });
    expect(res.statusCode).toBe(200);
    const ended = res.json<Lesson>();
    expect(ended.endedAt).not.toBeNull();
    expect(ended.questions.every((q) => q.closedAt !== null)).toBe(true);
    const book = (
      await t.app.inject({
        method: 'GET',
        url: `/api/courses/${course.id}/gradebook`,
        headers: teacher.headers,
      })
    ).json<Gradebook>();
    const assignment = book.assignments.find((a) => a.id === ended.assignmentId)!;
    expect(assignment.maxPoints).toBe(2);
    const grades = Object.fromEntries(
      book.cells
        .filter((c) => c.assignmentId === assignment.id)
        .map((c) => [c.studentId, [c.grade, c.status]]),
    );
    // Student 3 answered nothing: no grade, the gradebook's usual missing work (which the teacher may excuse).
    expect(grades).toEqual({
      [ada.id]: [2, 'returned'],
      [ben.id]: [1, 'returned'],
      [cy.id]: [null, 'missing'],
    });

    const again = await endLesson(t, teacher, lesson.id);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('lesson_ended');
    expect((await answerQuestion(t, ada, q3, true)).statusCode).toBe(409);
  });

  it('refuses the gradebook for a lesson with no right answer (409 nothing_to_grade) and stays live', async () => {
    const { teacher, course } = await classOf(1);
    const lesson = await startLesson(t, teacher, course.id);
    await pushQuestion(t, teacher, lesson.id, { kind: 'poll', options: ['x', 'y'], correct: undefined });
    const res = await endLesson(t, teacher, lesson.id, { gradebook: true });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('nothing_to_grade');
    expect((await viewLesson(t, teacher, lesson.id)).endedAt).toBeNull();
  });
});
