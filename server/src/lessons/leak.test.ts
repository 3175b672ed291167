import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCourse,
  createStudent,
  createTeacher,
  joinCourse,
  type Actor,
} from '../../test/support/factories.js';
import { liveTestApp, type LiveTestApp } from '../../test/support/live-app.js';
import { answerQuestion, closeQuestion, pushQuestion, startLesson } from '../../test/support/lessons.js';
import { barrier, type Recorder } from '../../test/support/sockets.js';

/**
 * Nothing a student can receive carries a question's right answer or a classmate's answer before
 * the reveal (DESIGN §21): not REST, not a live event, not a replay over HTTP or the socket, not
 * an export. The right answer and the answers are marks found nowhere else, so any new field or
 * route that carries them is caught; after the close the right answer does reach the class (so
 * the test can tell a leak from nothing said at all), a classmate's own words still never do.
 */
const RIGHT = 'Axolotl-7f3e';
const ADA_SAYS = 'Pangolin-20c4';
const BEN_SAYS = 'Narwhal-95ab';

let t: LiveTestApp;
beforeAll(async () => {
  t = await liveTestApp();
});
afterAll(() => t.close());
const body = async (who: Actor, path: string) =>
  (await t.app.inject({ method: 'GET', url: path, headers: who.headers })).body;

describe('what a live lesson lets out before the reveal', () => {
  it('keeps the right answer and every classmate’s answer from the students until the close', async () => {
    const teacher = await createTeacher(t, 'Tess Teacher');
    const [ada, ben, other] = await Promise.all([
      createStudent(t, 'Ada Answer'),
      createStudent(t, 'Ben Answer'),
      createStudent(t, 'Oli Elsewhere'),
    ]);
    const course = await createCourse(t, teacher);
    await joinCourse(t, ada, course);
    await joinCourse(t, ben, course);
    await joinCourse(t, other, await createCourse(t, await createTeacher(t, 'Otto Other')));
    const start = (await t.app.inject({ method: 'GET', url: '/api/events', headers: teacher.headers })).json<{
      lastId: number;
    }>().lastId;
    const tabs = new Map<Actor, Recorder>();
    for (const who of [ada, ben, other, teacher]) tabs.set(who, await t.tab(who));
    const adaSecondTab = await t.tab(ada);

    const lesson = await startLesson(t, teacher, course.id);
    const mc = await pushQuestion(t, teacher, lesson.id, {
      options: ['Newt', 'Axolotl', 'Frog'],
      correct: 1,
    });
    expect((await answerQuestion(t, ada, mc, 1)).statusCode).toBe(200);
    const short = await pushQuestion(t, teacher, lesson.id, {
      kind: 'short_answer',
      prompt: 'Name the animal',
      options: undefined,
      correct: RIGHT,
    });
    expect((await answerQuestion(t, ada, short, ADA_SAYS)).statusCode).toBe(200);
    expect((await answerQuestion(t, ben, short, BEN_SAYS)).statusCode).toBe(200);
    await tabs
      .get(teacher)!
      .waitFor((e) => e.type === 'lesson:tally' && JSON.stringify(e.data).includes(BEN_SAYS));
    await adaSecondTab.waitFor(
      (e) => e.type === 'lesson:answer' && JSON.stringify(e.data).includes(ADA_SAYS),
    );
    await barrier(...tabs.values(), adaSecondTab);

    /** Everything a person can get at: every route that could carry it, a fresh socket's replay, what their tabs heard. */
    const everything = async (who: Actor) => {
      const replayTab = await t.tab(who, start);
      const parts = await Promise.all([
        body(who, `/api/lessons/${lesson.id}`),
        body(who, `/api/courses/${course.id}/lessons/current`),
        body(who, '/api/lessons/live'),
        body(who, `/api/events?after=${start}`),
        body(who, '/api/me/export'),
        body(who, '/api/dashboard'),
        body(who, `/api/courses/${course.id}`),
        body(who, '/api/notifications'),
      ]);
      replayTab.close();
      return [...parts, JSON.stringify(replayTab.missed), JSON.stringify(tabs.get(who)!.heard)].join('\n');
    };

    // The multiple-choice question's right answer is an index: no student-visible question object carries one.
    const questionsIn = (text: string) =>
      text
        .split('\n')
        .flatMap((part) => {
          const found: Array<Record<string, unknown>> = [];
          const walk = (v: unknown) => {
            if (Array.isArray(v)) v.forEach(walk);
            else if (v && typeof v === 'object') {
              const o = v as Record<string, unknown>;
              if (typeof o.kind === 'string' && 'lessonId' in o) found.push(o);
              Object.values(o).forEach(walk);
            }
          };
          try {
            walk(JSON.parse(part));
          } catch {
            // not JSON
          }
          return found;
        })
        .filter((q) => q.closedAt === null);

    const classmatesOf = (who: Actor) =>
      [
        [ada, ADA_SAYS],
        [ben, BEN_SAYS],
      ]
        .filter(([author]) => author !== who)
        .map(([, mark]) => mark as string);
    for (const who of [ada, ben, other]) {
      const seen = await everything(who);
      const secondTab = who === ada ? JSON.stringify(adaSecondTab.heard) : '';
      expect({
        who: who.fullName,
        right: (seen + secondTab).includes(RIGHT),
        classmates: classmatesOf(who).filter((m) => (seen + secondTab).includes(m)),
        tallies: (seen + secondTab).includes('lesson:tally'),
        openWithAnswer: questionsIn(seen).filter(
          (q) => q.correct !== null || q.results !== null || q.answers !== null,
        ).length,
      }).toEqual({ who: who.fullName, right: false, classmates: [], tallies: false, openWithAnswer: 0 });
    }
    // A student's own answer does reach their own other tab (and only theirs).
    expect(JSON.stringify(adaSecondTab.heard)).toContain(ADA_SAYS);
    // The teacher sees it all (so the marks can be found where they are).
    const teacherSees = await everything(teacher);
    expect([RIGHT, ADA_SAYS, BEN_SAYS].every((m) => teacherSees.includes(m))).toBe(true);

    // The reveal: the right answer reaches the class; a classmate's own words still do not.
    expect((await closeQuestion(t, teacher, short)).statusCode).toBe(200);
    await tabs.get(ben)!.waitFor((e) => e.type === 'lesson:closed' && JSON.stringify(e.data).includes(RIGHT));
    await barrier(...tabs.values());
    const benAfter = await everything(ben);
    expect(benAfter).toContain(RIGHT);
    expect(benAfter.includes(ADA_SAYS)).toBe(false);
    expect((await everything(other)).includes(RIGHT)).toBe(false);
  });
});
