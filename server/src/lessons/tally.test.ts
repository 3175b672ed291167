import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import { createClass, type Actor } from '../../test/support/factories.js';
import { answerQuestion, closeQuestion, pushQuestion, startLesson } from '../../test/support/lessons.js';
import { TALLY_REFRESH_MS } from './tally-refresh.js';

/** The teachers' live tally (DESIGN §21): what each answer's `lesson:tally` says, and the re-read after a burst. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

interface TallyData {
  answer: unknown;
  results: { answered: number; counts: unknown };
}
/** The teacher's stored `lesson:tally` events, oldest first (what a live tab heard, and a replay hands back). */
async function talliesHeard(teacher: Actor): Promise<TallyData[]> {
  const res = await t.app.inject({ method: 'GET', url: '/api/events?after=0', headers: teacher.headers });
  return res
    .json<{ events: Array<{ type: string; data: TallyData }> }>()
    .events.filter((e) => e.type === 'lesson:tally')
    .map((e) => e.data);
}

describe('lesson:tally', () => {
  it("carries in each tally the class's answers with this one moved to where it now stands", async () => {
    const { teacher, course, students } = await createClass(t, 2);
    const [ada, bo] = students as [Actor, Actor];
    const lesson = await startLesson(t, teacher, course.id);
    const q = await pushQuestion(t, teacher, lesson.id);
    // Each answer's own (a re-read after a burst carries no answer).
    const tallies = async () =>
      (await talliesHeard(teacher)).filter((d) => d.answer !== null).map((d) => d.results);
    for (const [who, answer] of [
      [ada, 1],
      [bo, 1],
      [ada, 2],
      [ada, 2],
      [bo, 0],
    ] as const)
      expect((await answerQuestion(t, who, q, answer)).statusCode).toBe(200);
    const counts = (r: { answered: number; counts: unknown }) => [r.answered, r.counts];
    expect((await tallies()).map(counts)).toEqual([
      [
        1,
        [
          { answer: 0, count: 0 },
          { answer: 1, count: 1 },
          { answer: 2, count: 0 },
        ],
      ],
      [
        2,
        [
          { answer: 0, count: 0 },
          { answer: 1, count: 2 },
          { answer: 2, count: 0 },
        ],
      ],
      [
        2,
        [
          { answer: 0, count: 0 },
          { answer: 1, count: 1 },
          { answer: 2, count: 1 },
        ],
      ],
      [
        2,
        [
          { answer: 0, count: 0 },
          { answer: 1, count: 1 },
          { answer: 2, count: 1 },
        ],
      ],
      [
        2,
        [
          { answer: 0, count: 1 },
          { answer: 1, count: 0 },
          { answer: 2, count: 1 },
        ],
      ],
    ]);
  });

  it('is read again after a burst, so the last one the teachers hear counts every answer', async () => {
    const { teacher, course, students } = await createClass(t, 3);
    const lesson = await startLesson(t, teacher, course.id);
    const q = await pushQuestion(t, teacher, lesson.id);
    await Promise.all(students.map((s) => answerQuestion(t, s, q, 1)));
    await new Promise((r) => setTimeout(r, TALLY_REFRESH_MS + 100));
    await t.app.core.afterCommit.settled();
    const last = (await talliesHeard(teacher)).at(-1)!;
    expect(last.answer).toBeNull();
    expect(last.results.answered).toBe(3);
    // Once closed, its results went out with the close: no re-read follows.
    const before = (await talliesHeard(teacher)).length;
    await answerQuestion(t, students[0]!, q, 2);
    expect((await closeQuestion(t, teacher, q)).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, TALLY_REFRESH_MS + 100));
    await t.app.core.afterCommit.settled();
    expect(await talliesHeard(teacher)).toHaveLength(before + 1);
  });
});
