import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveEvent } from '@classwave/shared';
import {
  bearer,
  createTestApp,
  createVerifiedUser,
  openTestDatabase,
  signIn,
} from '../../test/support/app.js';
import {
  createAssignment,
  createCourse,
  createStudent,
  createTeacher,
  joinCourse,
  submit,
  type Actor,
} from '../../test/support/factories.js';
import { liveTestApp, type LiveTestApp } from '../../test/support/live-app.js';
import {
  barrier,
  connect,
  disconnected,
  listen,
  refusalOf,
  type Recorder,
} from '../../test/support/sockets.js';

let t: LiveTestApp;
let owner: Actor;
let other: Actor;
let ada: Actor;
let ben: Actor;

beforeAll(async () => {
  t = await liveTestApp();
  [owner, other, ada, ben] = await Promise.all([
    createTeacher(t, 'Owner'),
    createTeacher(t, 'Other'),
    createStudent(t, 'Ada'),
    createStudent(t, 'Ben'),
  ]);
});
afterAll(() => t.close());

const typesOf = (r: Recorder, id: string) =>
  r.events.filter((e) => (e.data as { id: string }).id === id).map((e) => e.type);

describe('live events reach exactly their audience', () => {
  it('sends submissions and grades to the student and the course teacher only', async () => {
    const [o, x, a, b] = await Promise.all([t.tab(owner), t.tab(other), t.tab(ada), t.tab(ben)]);
    const course = await createCourse(t, owner);
    // Joined after the sockets connected: they hear the course without reconnecting.
    await Promise.all([joinCourse(t, ada, course), joinCourse(t, ben, course)]);
    const assignment = await createAssignment(t, owner, course, { maxPoints: 10 });
    for (const r of [o, a, b])
      await r.waitFor(
        (e) => e.type === 'assignment:created' && (e.data as { id: string }).id === assignment.id,
      );

    const submission = await submit(t, ada, assignment, 'Live answer');
    const seen = await o.waitFor(
      (e) => e.type === 'submission:created' && (e.data as { id: string }).id === submission.id,
    );
    expect(seen.data).toMatchObject({ content: 'Live answer', student: { fullName: 'Ada' }, grade: null });
    await a.waitFor((e) => e.type === 'submission:created');

    const graded = await t.app.inject({
      method: 'PATCH',
      url: `/api/submissions/${submission.id}`,
      headers: owner.headers,
      payload: { grade: 9, baseVersion: 0 },
    });
    expect(graded.statusCode).toBe(200);
    const grade = await a.waitFor(
      (e) => e.type === 'submission:graded' && (e.data as { id: string }).id === submission.id,
    );
    expect(grade.data).toMatchObject({ grade: 9 });
    await o.waitFor((e) => e.type === 'submission:graded');

    await barrier(o, x, a, b);
    expect(typesOf(b, submission.id)).toEqual([]);
    expect(typesOf(x, submission.id)).toEqual([]);
    expect(typesOf(x, assignment.id)).toEqual([]);
    expect(typesOf(b, assignment.id)).toEqual(['assignment:created']);
    // Each event arrived once, with growing ids.
    const ids = a.events.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort((p, q) => p - q)).toEqual(ids);
  });

  it('sends course:created to the owner only, and course and assignment events to members and the owner', async () => {
    const [o, x, b, a] = await Promise.all([t.tab(owner), t.tab(other), t.tab(ben), t.tab(ada)]);
    const course = await createCourse(t, owner);
    await o.waitFor((e) => e.type === 'course:created' && (e.data as { id: string }).id === course.id);
    await joinCourse(t, ben, course);
    const assignment = await createAssignment(t, owner, course);
    await t.app.inject({
      method: 'DELETE',
      url: `/api/assignments/${assignment.id}`,
      headers: owner.headers,
    });
    await b.waitFor(
      (e) => e.type === 'assignment:deleted' && (e.data as { id: string }).id === assignment.id,
    );
    await o.waitFor((e) => e.type === 'assignment:deleted');
    await t.app.inject({ method: 'DELETE', url: `/api/courses/${course.id}`, headers: owner.headers });
    for (const r of [o, b])
      await r.waitFor((e) => e.type === 'course:deleted' && (e.data as { id: string }).id === course.id);
    await barrier(o, x, b, a);
    // Another teacher and a student who is not in the course hear nothing of it.
    for (const r of [x, a]) {
      expect(typesOf(r, assignment.id)).toEqual([]);
      expect(typesOf(r, course.id)).toEqual([]);
    }
    expect(typesOf(b, course.id)).toEqual(['course:deleted']);
  });
});

describe('the handshake', () => {
  it('refuses a missing, malformed, foreign-origin or signed-out connection with a readable reason', async () => {
    expect(await refusalOf(t.url, undefined)).toBe('unauthorized');
    expect(await refusalOf(t.url, 'not-a-token')).toBe('invalid_token');
    expect(await refusalOf(t.url, ada.token, { origin: 'https://evil.example' })).not.toBe('connected');
    const { email } = await createVerifiedUser(t);
    const s = await signIn(t, email);
    await t.app.inject({ method: 'POST', url: '/api/auth/signout', headers: bearer(s.accessToken) });
    expect(await refusalOf(t.url, s.accessToken)).toBe('session_ended');
  });

  it("refuses with 'service_unavailable' (for the client to retry) while the database is down, not as a bad token", async () => {
    const database = await openTestDatabase();
    const own = await createTestApp({ database });
    try {
      const student = await createStudent(own);
      const ownUrl = await listen(own.app);
      await database.close();
      expect(await refusalOf(ownUrl, student.token)).toBe('service_unavailable');
    } finally {
      await own.close();
      await database.dispose().catch(() => {}); // already closed: only the PostgreSQL copy is left to drop
    }
  });
});

describe('sign-out', () => {
  it("disconnects that session's sockets and no other, and the session cannot reconnect", async () => {
    const { email } = await createVerifiedUser(t, { role: 'student' });
    const laptop = await signIn(t, email);
    const phone = await signIn(t, email);
    const [l1, l2, p] = await Promise.all([
      t.tab({ token: laptop.accessToken }),
      t.tab({ token: laptop.accessToken }),
      t.tab({ token: phone.accessToken }),
    ]);
    const ended = new Promise<{ reason: string }>((resolve) => l1.socket.once('session:ended', resolve));
    await t.app.inject({ method: 'POST', url: '/api/auth/signout', headers: bearer(laptop.accessToken) });
    expect(await ended).toEqual({ reason: 'signed_out' });
    await Promise.all([disconnected(l1.socket), disconnected(l2.socket)]);
    expect(p.socket.connected).toBe(true);
    await barrier(p);
    expect(await refusalOf(t.url, laptop.accessToken)).toBe('session_ended');
  });
});

describe('catching up after a disconnect', () => {
  it('replays the 20 events missed while away, exactly once and in order, filtered by audience', async () => {
    const course = await createCourse(t, owner);
    await Promise.all([joinCourse(t, ada, course), joinCourse(t, ben, course)]);
    const head = (await t.app.inject({ method: 'GET', url: '/api/events', headers: ben.headers })).json();
    expect(head).toMatchObject({ resync: false, events: [] });
    const created: string[] = [];
    for (let i = 0; i < 20; i++)
      created.push((await createAssignment(t, owner, course, { title: `Missed ${i}` })).id);
    // Something Ben must never see: Ada's submission.
    await submit(t, ada, { id: created[0]! } as never);

    const replay = (
      await t.app.inject({ method: 'GET', url: `/api/events?after=${head.lastId}`, headers: ben.headers })
    ).json();
    expect(replay.resync).toBe(false);
    const mine = replay.events
      .filter((e: LiveEvent) => e.type === 'assignment:created')
      .map((e: LiveEvent) => (e.data as { id: string }).id);
    expect(mine).toEqual(created);
    expect(replay.events.some((e: LiveEvent) => e.type.startsWith('submission'))).toBe(false);
    const ids = replay.events.map((e: LiveEvent) => e.id);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    // Asking again from the new head yields nothing more.
    const again = (
      await t.app.inject({ method: 'GET', url: `/api/events?after=${replay.lastId}`, headers: ben.headers })
    ).json();
    expect(again.events).toEqual([]);
  });

  it("answers 'resync' when the gap is older than what is kept, or beyond the newest id", async () => {
    // An app of its own: moving its clock two days would expire every other test's tokens.
    const aged = await createTestApp();
    try {
      const teacher = await createTeacher(aged);
      const student = await createStudent(aged);
      const course = await createCourse(aged, teacher);
      await joinCourse(aged, student, course);
      const head = (
        await aged.app.inject({ method: 'GET', url: '/api/events', headers: student.headers })
      ).json();
      await createAssignment(aged, teacher, course);
      await createAssignment(aged, teacher, course);
      aged.clock.advance(48 * 3600 * 1000);
      const fresh = await signIn(aged, teacher.email);
      await aged.app.inject({
        method: 'POST',
        url: '/api/assignments',
        headers: bearer(fresh.accessToken),
        payload: {
          title: 'New',
          dueDate: new Date(aged.clock.now().getTime() + 86_400_000).toISOString(),
          courseId: course.id,
        },
      });
      expect(await aged.app.core.replay.prune()).toBeGreaterThan(0);
      const reader = bearer((await signIn(aged, student.email)).accessToken);
      const stale = (
        await aged.app.inject({ method: 'GET', url: `/api/events?after=${head.lastId}`, headers: reader })
      ).json();
      expect(stale).toMatchObject({ resync: true, events: [] });
      const recent = (
        await aged.app.inject({
          method: 'GET',
          url: `/api/events?after=${stale.lastId - 2}`,
          headers: reader,
        })
      ).json();
      // The last two ids: the teacher's view of the assignment and the members' one, the student's
      // (its inbox entry is written with it and has no event of its own, DESIGN §14).
      expect(recent).toMatchObject({ resync: false, events: [{ type: 'assignment:created' }] });
      const future = (
        await aged.app.inject({
          method: 'GET',
          url: `/api/events?after=${stale.lastId + 1000}`,
          headers: reader,
        })
      ).json();
      expect(future.resync).toBe(true);
      const bad = await aged.app.inject({ method: 'GET', url: '/api/events?after=-1', headers: reader });
      expect(bad.statusCode).toBe(400);
    } finally {
      await aged.close();
    }
  });
});

describe('access token expiry', () => {
  it(
    'closes a socket whose token expired, unless a fresh token of its session was handed over',
    { timeout: 90_000 },
    async () => {
      // Tokens live 6 s: long enough for a loaded machine to set up, short enough to wait for.
      const short = await createTestApp({ auth: { accessTokenTtlSeconds: 6 } });
      try {
        const shortUrl = await listen(short.app);
        const { email } = await createVerifiedUser(short, { role: 'student' });
        const left = await signIn(short, email);
        const kept = await signIn(short, email);
        const [staleSocket, keptSocket] = await Promise.all([
          connect(shortUrl, left.accessToken),
          connect(shortUrl, kept.accessToken),
        ]);
        const started = Date.now();

        // A (still valid) token of another session is refused.
        expect(await keptSocket.socket.emitWithAck('auth:token', { token: left.accessToken })).toMatchObject({
          ok: false,
          code: 'forbidden',
        });
        // Refresh a second later, so the new token's expiry (whole seconds) is surely later than the old one's.
        await new Promise((r) => setTimeout(r, 1100));
        const refreshed = await short.app.inject({
          method: 'POST',
          url: '/api/auth/refresh',
          headers: { cookie: kept.cookie },
        });
        expect(
          await keptSocket.socket.emitWithAck('auth:token', { token: refreshed.json().session.accessToken }),
        ).toEqual({ ok: true });

        // It must close at expiry, not never; a loaded machine gets some slack.
        await disconnected(staleSocket.socket, 20_000);
        expect(Date.now() - started).toBeLessThan(20_000);
        expect(keptSocket.socket.connected).toBe(true);
        keptSocket.close();
      } finally {
        await short.close();
      }
    },
  );
});

describe('the assistant', () => {
  it('answers by keyword after 1–2 seconds, to the asking socket only, and stores the conversation', async () => {
    const [a1, a2] = await Promise.all([t.tab(ada), t.tab(ada)]);
    const other = new Promise((resolve) => a2.socket.once('chat:reply', resolve));
    const started = Date.now();
    const reply = new Promise<{ question: string; answer: string }>((resolve) =>
      a1.socket.once('chat:reply', resolve),
    );
    const ack = await a1.socket.emitWithAck('chat:ask', { question: '  How do I submit an assignment? ' });
    expect(ack).toEqual({ ok: true });
    const busy = await a1.socket.emitWithAck('chat:ask', { question: 'And another?' });
    expect(busy).toMatchObject({ ok: false, code: 'conflict' });
    const answer = await reply;
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(1000);
    // The server waits at most 2 s; the slack is for a loaded test machine.
    expect(elapsed).toBeLessThan(5000);
    expect(answer.question).toBe('How do I submit an assignment?');
    expect(answer.answer).toMatch(/Assignments page/);
    expect(await Promise.race([other, new Promise((r) => setTimeout(() => r('nothing'), 300))])).toBe(
      'nothing',
    );
    const { chatbotConversations } = await import('../db/schema.js');
    const rows = await t.app.core.database.db.select().from(chatbotConversations);
    expect(rows.find((r) => r.question === 'How do I submit an assignment?')).toMatchObject({
      userId: ada.id,
      answer: answer.answer,
    });
  });

  it.each([
    [{ question: '' }, 'validation_failed'],
    [{ question: '   ' }, 'validation_failed'],
    [{ question: 42 }, 'validation_failed'],
    [{}, 'validation_failed'],
    [null, 'validation_failed'],
    [{ question: 'x'.repeat(1001) }, 'validation_failed'],
  ])('refuses %o', async (payload, code) => {
    const r = await t.tab(ben);
    const ack = await r.socket.emitWithAck('chat:ask', payload as never);
    expect(ack).toMatchObject({ ok: false, code });
    expect(r.socket.connected).toBe(true);
  });
});
