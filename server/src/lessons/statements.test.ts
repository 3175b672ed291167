import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import { statementsOf as statementsSent } from '../../test/support/statements.js';
import { addCoTeacher, createClass, createTeacher, type Actor } from '../../test/support/factories.js';
import { answerQuestion, pushQuestion, startLesson } from '../../test/support/lessons.js';

/**
 * An answer in few round trips (issue 30, DESIGN §22; bench S11lessons sends a class's worth in
 * seconds): at most three statements inside its transaction — the standing (the lesson, the
 * question, the caller's membership and the course's teachers), the answer with the new tally, and
 * the outbox's events — counted at the driver as PostgreSQL receives them (BEGIN and COMMIT aside).
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const statementsOf = (work: () => Promise<{ statusCode: number; body: string }>) =>
  statementsSent(t, 200, work);

describe('PUT /api/lessons/:id/questions/:qid/answer', () => {
  it('sends three statements for a first answer and a changed one, in a co-taught course too', async () => {
    const { teacher, course, students } = await createClass(t, 2);
    const [ada, bo] = students as [Actor, Actor];
    await addCoTeacher(t, teacher, course, await createTeacher(t, 'Cora CoTeacher'));
    const lesson = await startLesson(t, teacher, course.id);
    const choice = await pushQuestion(t, teacher, lesson.id);
    // Every writer's request once first: their sessions are then in the session cache.
    for (const who of [ada, bo]) await t.app.inject({ method: 'GET', url: '/api/me', headers: who.headers });
    const answers: Array<[string, Actor, unknown]> = [
      ['a first answer', ada, 1],
      ['a changed answer', ada, 2],
      ['a second student', bo, 1],
    ];
    for (const [what, who, answer] of answers) {
      const sent = await statementsOf(() => answerQuestion(t, who, choice, answer));
      expect({ what, statements: sent.length }).toEqual({ what, statements: 3 });
      expect(sent.at(-1)).toMatch(/^(with co as .*)?insert into "events"/s);
    }
    const short = await pushQuestion(t, teacher, lesson.id, {
      kind: 'short_answer',
      options: undefined,
      correct: 'Paris',
    });
    const sent = await statementsOf(() => answerQuestion(t, ada, short, ' paris'));
    expect(sent).toHaveLength(3);
  });
});
