import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import { statementsOf as statementsSent } from '../../test/support/statements.js';
import { createPost } from '../../test/support/conversations.js';
import { createAssignment, createClass, inDays, type Actor } from '../../test/support/factories.js';

/**
 * Writes in few round trips (issue 30, DESIGN §22): a post, a comment and a private comment each
 * send at most three statements inside their transaction — their standing, the write itself (with
 * its notification, read mark and jobs), and the outbox's events — counted at the driver, as
 * PostgreSQL receives them. (BEGIN and COMMIT, which node-postgres sends as statements too, are the
 * transaction's own and not counted.) A post published now is one statement with its event and no
 * transaction at all (issue 27: its event waited for four round trips).
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const statementsOf = (work: () => Promise<{ statusCode: number; body: string }>, guarded = true) =>
  statementsSent(t, 201, work, { guarded });

describe('statements per write', () => {
  it('is one for a post, two for a scheduled post (no guard read), at most three for a comment and a private comment (each way)', async () => {
    const { teacher, course, students } = await createClass(t, 1);
    const ada = students[0] as Actor;
    const assignment = await createAssignment(t, teacher, course);
    const post = await createPost(t, teacher, course.id);
    // Every request of the writers once first: their sessions are then in the session cache.
    for (const who of [teacher, ada])
      await t.app.inject({ method: 'GET', url: '/api/me', headers: who.headers });
    // The reader takes e-mail: a private comment's statement also schedules its mail.
    await t.app.inject({
      method: 'PUT',
      url: '/api/me/notification-settings',
      headers: teacher.headers,
      payload: { quietHours: { enabled: false, start: '21:00', end: '07:00', timeZone: 'UTC' }, email: true },
    });
    const writes: Array<[string, Actor, string, object]> = [
      ['a post', teacher, `/api/courses/${course.id}/posts`, { text: 'Hello' }],
      [
        'a scheduled post',
        teacher,
        `/api/courses/${course.id}/posts`,
        { text: 'Later', publishAt: inDays(1) },
      ],
      ['a comment', ada, `/api/posts/${post.id}/comments`, { text: 'Hi' }],
      [
        'a private comment',
        ada,
        `/api/assignments/${assignment.id}/threads/${ada.id}/comments`,
        { text: 'Q' },
      ],
      [
        'a private answer',
        teacher,
        `/api/assignments/${assignment.id}/threads/${ada.id}/comments`,
        { text: 'A' },
      ],
    ];
    for (const [what, who, url, payload] of writes) {
      // A post's permission and the archive's rule are in its insert (issue 30): the insert and the
      // event; published now, the event's insert reads the post's, in one statement (issue 27).
      const post = what.includes('post');
      const alone = what === 'a post';
      const sent = await statementsOf(
        () => t.app.inject({ method: 'POST', url, headers: who.headers, payload }),
        !post,
      );
      expect({ what, statements: sent.length }).toEqual({ what, statements: alone ? 1 : post ? 2 : 3 });
      // The events insert, co-teachers' rooms resolved in it (a `with` first) when the teachers hear it.
      expect(sent.at(-1)).toMatch(
        alone
          ? /^with p as \(insert into "posts".*\)\s*insert into "events"/s
          : /^(with co as .*)?insert into "events"/s,
      );
    }
  });
});
