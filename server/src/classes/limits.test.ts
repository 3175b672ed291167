import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOIN_ATTEMPTS_PER_ACCOUNT } from '@classwave/shared';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import { createCourse, createStudent, createTeacher, type Actor } from '../../test/support/factories.js';

/** Wrong join codes are limited per account (5 in 10 minutes) and, loosely, per address (DESIGN §11). */
let t: TestApp;
let teacher: Actor;
// Signing up 40 pupils from the test's one address is not what these tests are about (DESIGN §15's limits).
const roomy = { max: 10_000, timeWindow: 60_000 };
const rateLimits = { signUp: roomy, signIn: roomy };
beforeAll(async () => {
  t = await createTestApp({ rateLimits });
  teacher = await createTeacher(t);
});
afterAll(() => t.close());

let ipCounter = 0;
/** A school address of its own for each test, so their counts do not mix. */
const newIp = () => `10.${++ipCounter}.0.1`;

const join = (app: TestApp, student: Actor, code: string, ip: string) =>
  app.app.inject({
    method: 'POST',
    url: '/api/courses/join',
    headers: student.headers,
    remoteAddress: ip,
    payload: { code },
  });

describe('wrong join codes', () => {
  it('allows 5 wrong codes per account, then answers 429 with Retry-After until the window ends', async () => {
    const course = await createCourse(t, teacher);
    const student = await createStudent(t);
    const ip = newIp();
    for (let i = 0; i < JOIN_ATTEMPTS_PER_ACCOUNT.max; i++) {
      expect((await join(t, student, 'ZZZZ-ZZZZ', ip)).statusCode).toBe(404);
    }
    // The preview counts too, and from now on even the right code waits.
    const preview = await t.app.inject({
      method: 'GET',
      url: '/api/join/ZZZZ-ZZZZ',
      headers: student.headers,
      remoteAddress: ip,
    });
    expect(preview.statusCode).toBe(429);
    const blocked = await join(t, student, course.joinCode!, ip);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({ code: 'rate_limited' });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // Another student at the same address is not held back by this one's typos.
    expect((await join(t, await createStudent(t), course.joinCode!, ip)).statusCode).toBe(200);

    t.clock.advance(JOIN_ATTEMPTS_PER_ACCOUNT.windowMs + 1000);
    expect((await join(t, student, course.joinCode!, ip)).statusCode).toBe(200);
  });

  it('counts only wrong codes: right ones never use up the budget', async () => {
    const course = await createCourse(t, teacher);
    const student = await createStudent(t);
    const ip = newIp();
    for (let i = 0; i < 10; i++) expect((await join(t, student, course.joinCode!, ip)).statusCode).toBe(200);
  });

  it('lets a class of 40 behind one address join, each after a few typos', async () => {
    const course = await createCourse(t, teacher);
    const ip = newIp();
    const students = await Promise.all(Array.from({ length: 40 }, (_, i) => createStudent(t, `Pupil ${i}`)));
    for (const student of students) {
      for (const typo of ['ABCD-EFGH', 'ABCD-EFG2', 'ABCD-EFG3'])
        expect((await join(t, student, typo, ip)).statusCode).toBe(404);
      expect((await join(t, student, course.joinCode!, ip)).statusCode).toBe(200);
    }
  }, 60_000);

  it('stops an address that guesses across many accounts', async () => {
    const small = await createTestApp({ rateLimits, joinLimits: { ip: { max: 7, windowMs: 600_000 } } });
    try {
      const owner = await createTeacher(small);
      const course = await createCourse(small, owner);
      const ip = newIp();
      const [a, b] = await Promise.all([createStudent(small), createStudent(small)]);
      for (let i = 0; i < 5; i++) await join(small, a, 'ZZZZ-ZZZZ', ip);
      for (let i = 0; i < 2; i++) expect((await join(small, b, 'ZZZZ-ZZZZ', ip)).statusCode).toBe(404);
      const blocked = await join(small, b, course.joinCode!, ip);
      expect(blocked.statusCode).toBe(429);
      // Another address is not affected.
      expect((await join(small, b, course.joinCode!, newIp())).statusCode).toBe(200);
    } finally {
      await small.close();
    }
  });
});
