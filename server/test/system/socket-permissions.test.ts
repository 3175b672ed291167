import { eq } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHAT_QUESTION_MAX_LENGTH,
  CLIENT_TO_SERVER_EVENTS,
  ErrorCode,
  LIVE_EVENT_TYPES,
  RETURN_UNDO_SECONDS,
  SERVER_TO_CLIENT_EVENTS,
  SocketRefusal,
  type Assignment,
  type Course,
  type CourseTeachers,
  isTeachersView,
  type LiveEvent,
  type MissedEvents,
  type OwnSubmission,
} from '@classwave/shared';
import { createAccessTokens } from '../../src/auth/tokens.js';
import { chatbotConversations } from '../../src/db/schema.js';
import { bearer, createTestApp, signIn, TEST_ORIGIN, TEST_SECRET, type TestApp } from '../support/app.js';
import {
  addCoTeacher,
  createAssignment,
  createCourse,
  inviteCoTeacher,
  createStudent,
  createTeacher,
  inDays,
  joinCourse,
  submit,
  type Actor,
} from '../support/factories.js';
import {
  connect,
  disconnected,
  emitAfterRefusal,
  emitRaw,
  listen,
  openSocket,
  record,
  refusalOf,
  type ClientSocket,
  type Heard,
  type HandshakeExtras,
  type Recorder,
} from '../support/sockets.js';
import { createUpload, patchUpload, uploadFile } from '../support/uploads.js';

/**
 * Who may do what over the socket (spec §6, DESIGN §8), the socket half of permissions.test.ts:
 * the handshake, every client → server event × every kind of caller → accepted or refused with
 * its code, and every server → client event × every kind of caller → heard or not. Real
 * socket.io-client connections to the real app on a real database.
 */

type Who = 'anonymous' | 'signedOut' | 'studentA' | 'studentB' | 'owner' | 'otherTeacher';
type SignedIn = Exclude<Who, 'anonymous' | 'signedOut'>;
const SIGNED_IN: SignedIn[] = ['studentA', 'studentB', 'owner', 'otherTeacher'];

const CHAT_DELAY_MS = 100;
const ACK_TIMEOUT_MS = 3000;
/** How long "nothing came back" is watched for. */
const QUIET_MS = 300;

let t: TestApp;
let url: string;
const actors = {} as Record<SignedIn, Actor>;
/** A second session of each signed-in caller (same user, another sign-in). */
const otherSession = {} as Record<SignedIn, string>;
/** The access token of a session that has signed out. */
let signedOutToken: string;
const open: Array<{ close(): void }> = [];

beforeAll(async () => {
  t = await createTestApp({ chatDelayMs: { min: CHAT_DELAY_MS, max: CHAT_DELAY_MS } });
  url = await listen(t.app);
  [actors.owner, actors.otherTeacher, actors.studentA, actors.studentB] = await Promise.all([
    createTeacher(t, 'Owner Teacher'),
    createTeacher(t, 'Other Teacher'),
    createStudent(t, 'Student A'),
    createStudent(t, 'Student B'),
  ]);
  for (const who of SIGNED_IN) otherSession[who] = (await signIn(t, actors[who].email)).accessToken;
  const gone = await createStudent(t, 'Gone Student');
  await t.app.inject({ method: 'POST', url: '/api/auth/signout', headers: gone.headers });
  signedOutToken = gone.token;
});
afterAll(async () => {
  open.forEach((s) => s.close());
  await t.close();
});

const tokenOf = (who: Who): string | undefined =>
  who === 'anonymous' ? undefined : who === 'signedOut' ? signedOutToken : actors[who].token;

/** Connects as `who` and keeps the socket to be closed after the file. */
async function join(token: string, extra: HandshakeExtras = {}): Promise<Recorder> {
  const r = await connect(url, token, extra);
  open.push(r);
  return r;
}

// Tokens the server itself would sign, for a session that exists: only their lifetime differs.
const tokens = createAccessTokens(TEST_SECRET);
const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { sub: string; sid: string };
function reissue(token: string, now: Date, ttlSeconds: number): string {
  const { sub, sid } = claimsOf(token);
  return tokens.sign({ userId: sub, sessionId: sid, now, ttlSeconds }).token;
}
const expiredTwin = (token: string) => reissue(token, new Date(Date.now() - 2 * 3600_000), 60);
const freshTwin = (token: string) => reissue(token, new Date(), 900);
const foreignKeyTwin = (token: string) => {
  const { sub, sid } = claimsOf(token);
  return createAccessTokens('another-secret-that-is-also-long-enough-to-sign')
    .sign({ userId: sub, sessionId: sid, now: new Date(), ttlSeconds: 900 })
    .token.toString();
};
const unsignedTwin = (token: string) => {
  const [, payload] = token.split('.');
  return `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.`;
};

type Handshake = { token?: string } & HandshakeExtras;

describe('the handshake', () => {
  const fromAppPage: Record<Who, string> = {
    anonymous: SocketRefusal.noToken,
    signedOut: SocketRefusal.sessionEnded,
    studentA: 'connected',
    studentB: 'connected',
    owner: 'connected',
    otherTeacher: 'connected',
  };
  it.each(Object.entries(fromAppPage) as Array<[Who, string]>)(
    'answers %s from the app page with %s',
    async (who, expected) => {
      expect(await refusalOf(url, tokenOf(who), { origin: TEST_ORIGIN })).toBe(expected);
    },
  );

  // Browsers always send Origin: another site's page is refused before its token is even read.
  const foreignOrigins = [
    'https://evil.example',
    'null',
    `${TEST_ORIGIN}.evil.example`,
    `${TEST_ORIGIN}/`,
    TEST_ORIGIN.replace('http:', 'https:'),
    TEST_ORIGIN.toUpperCase(),
  ];
  const whoByOrigin = foreignOrigins.flatMap((origin) =>
    (Object.keys(fromAppPage) as Who[]).map((who) => [who, origin] as const),
  );
  it.each(whoByOrigin)('refuses %s from the foreign origin %s', async (who, origin) => {
    expect(await refusalOf(url, tokenOf(who), { origin })).not.toBe('connected');
  });

  const variants: Array<{ name: string; attempt: () => Handshake; expected: string }> = [
    { name: 'no auth at all', attempt: () => ({}), expected: SocketRefusal.noToken },
    { name: 'an empty token', attempt: () => ({ auth: { token: '' } }), expected: SocketRefusal.noToken },
    {
      name: 'a token that is a number',
      attempt: () => ({ auth: { token: 42 } }),
      expected: SocketRefusal.noToken,
    },
    {
      name: 'a token that is an array',
      attempt: () => ({ auth: { token: [actors.studentA.token] } }),
      expected: SocketRefusal.noToken,
    },
    {
      name: 'a token of 5000 characters',
      attempt: () => ({ token: 'x'.repeat(5000) }),
      expected: SocketRefusal.noToken,
    },
    {
      name: 'the token in the query string only',
      attempt: () => ({ query: { token: actors.studentA.token } }),
      expected: SocketRefusal.noToken,
    },
    {
      name: 'the token as a Bearer header only',
      attempt: () => ({ headers: bearer(actors.studentA.token) }),
      expected: SocketRefusal.noToken,
    },
    {
      name: 'a malformed token',
      attempt: () => ({ token: 'not-a-token' }),
      expected: SocketRefusal.invalidToken,
    },
    {
      name: 'a token signed with another key',
      attempt: () => ({ token: foreignKeyTwin(actors.studentA.token) }),
      expected: SocketRefusal.invalidToken,
    },
    {
      name: "an unsigned ('none') token",
      attempt: () => ({ token: unsignedTwin(actors.studentA.token) }),
      expected: SocketRefusal.invalidToken,
    },
    {
      name: 'an expired token of a live session',
      attempt: () => ({ token: expiredTwin(actors.studentA.token) }),
      expected: SocketRefusal.tokenExpired,
    },
    {
      name: "a signed-out session's token",
      attempt: () => ({ token: signedOutToken }),
      expected: SocketRefusal.sessionEnded,
    },
    {
      name: 'a fresh token of a live session',
      attempt: () => ({ token: freshTwin(actors.studentA.token) }),
      expected: 'connected',
    },
  ];
  it.each(variants)('answers $name with $expected', async ({ attempt, expected }) => {
    const { token, ...extra } = attempt();
    expect(await refusalOf(url, token, extra)).toBe(expected);
  });
});

// Client → server

type ClientEvent = (typeof CLIENT_TO_SERVER_EVENTS)[number];
type Message = [event: string, payload: unknown];

interface EmitRow {
  event: ClientEvent;
  name: string;
  /** What the caller sends, in order; the outcome is what the last one got back. */
  messages: (me: SignedIn | undefined) => Message[];
  /** Sent without an acknowledgement callback: the outcome is an `error:message`, or 'none'. */
  withoutAck?: boolean;
  /** 'ok', the refusal code of the ack (or of `error:message`), 'none', or for the callers
   *  without a session the code their handshake was refused with. */
  expected: Record<Who, string>;
}

const signedInOnly = (outcome: string): Record<Who, string> => ({
  anonymous: SocketRefusal.noToken,
  signedOut: SocketRefusal.sessionEnded,
  studentA: outcome,
  studentB: outcome,
  owner: outcome,
  otherTeacher: outcome,
});
const partnerOf: Record<SignedIn, SignedIn> = {
  studentA: 'studentB',
  studentB: 'studentA',
  owner: 'otherTeacher',
  otherTeacher: 'owner',
};
/** For the callers with no session: a stolen token of a signed-in user to try anyway. */
const tokenFor = (me: SignedIn | undefined) => actors[me ?? 'studentA'].token;
const question = (me: SignedIn | undefined) => `How do I study for ${me ?? 'nobody'}'s course?`;

/** presence:set's target: an assignment of a course student A is in and student B is not. */
const presence = { assignmentId: '' };
beforeAll(async () => {
  const course = await createCourse(t, actors.owner, { title: 'Presence course' });
  await joinCourse(t, actors.studentA, course);
  presence.assignmentId = (await createAssignment(t, actors.owner, course)).id;
});
/** The owner gets `owner`, the other teacher `otherTeacher`; students may not watch a panel. */
const watchOutcome = (owner: string, otherTeacher = owner): Record<Who, string> => ({
  ...signedInOnly(ErrorCode.forbidden),
  owner,
  otherTeacher,
});
/** Students get `student`; teachers may not report presence at all. */
const presenceOutcome = (studentA: string, studentB = studentA): Record<Who, string> => ({
  ...signedInOnly(ErrorCode.forbidden),
  studentA,
  studentB,
});

// ─── conversations (issue 27): the client's `typing` ──────────────────────────────────────────────
/** A post of a course student A is in (student B is not), and student A's private thread there. */
const typingAt = { postId: '', assignmentId: '' };
beforeAll(async () => {
  const course = await createCourse(t, actors.owner, { title: 'Typing course' });
  await joinCourse(t, actors.studentA, course);
  typingAt.assignmentId = (await createAssignment(t, actors.owner, course)).id;
  const post = await t.app.inject({
    method: 'POST',
    url: `/api/courses/${course.id}/posts`,
    headers: actors.owner.headers,
    payload: { text: 'Typing post' },
  });
  typingAt.postId = post.json<{ id: string }>().id;
});
/** Student A and the owner may write there; student B and the other teacher are told it is not there. */
const typingOutcome = (ok: string): Record<Who, string> => ({
  ...signedInOnly(ErrorCode.notFound),
  studentA: ok,
  owner: ok,
});
const conversationEmitRows: EmitRow[] = [
  {
    event: 'typing',
    name: "on a post of student A's course",
    messages: () => [['typing', { postId: typingAt.postId }]],
    expected: typingOutcome('ok'),
  },
  {
    event: 'typing',
    name: "in student A's private thread",
    messages: () => [
      ['typing', { thread: { assignmentId: typingAt.assignmentId, studentId: actors.studentA.id } }],
    ],
    expected: typingOutcome('ok'),
  },
  {
    event: 'typing',
    name: 'twice at once on one post (the second before TYPING_EVERY_MS)',
    messages: () => [
      ['typing', { postId: typingAt.postId }],
      ['typing', { postId: typingAt.postId }],
    ],
    expected: signedInOnly(ErrorCode.rateLimited),
  },
  {
    event: 'typing',
    name: 'a payload naming a room',
    messages: () => [['typing', { postId: typingAt.postId, room: `user:${actors.owner.id}` }]],
    expected: signedInOnly(ErrorCode.validationFailed),
  },
  {
    event: 'typing',
    name: 'a post id that is not an id',
    messages: () => [['typing', { postId: "' OR 1=1 --" }]],
    expected: signedInOnly(ErrorCode.validationFailed),
  },
  {
    event: 'typing',
    name: 'a null payload without an acknowledgement',
    messages: () => [['typing', null]],
    withoutAck: true,
    expected: signedInOnly(ErrorCode.validationFailed),
  },
];
// ─── end of conversations (issue 27) ─────────────────────────────────────────────────────────────

const emitTable: EmitRow[] = [
  {
    event: 'chat:ask',
    name: 'a question',
    messages: (me) => [['chat:ask', { question: question(me) }]],
    expected: signedInOnly('ok'),
  },
  {
    event: 'chat:ask',
    name: 'a blank question',
    messages: () => [['chat:ask', { question: ' \n\t ' }]],
    expected: signedInOnly(ErrorCode.validationFailed),
  },
  {
    event: 'chat:ask',
    name: 'a question over the length limit',
    messages: () => [['chat:ask', { question: 'why '.repeat(CHAT_QUESTION_MAX_LENGTH) }]],
    expected: signedInOnly(ErrorCode.validationFailed),
  },
  {
    event: 'chat:ask',
    name: 'a null payload',
    messages: () => [['chat:ask', null]],
    expected: signedInOnly(ErrorCode.validationFailed),
  },
  {
    event: 'chat:ask',
    name: 'a question that is an object',
    messages: () => [['chat:ask', { question: { $ne: null, toString: 'x' } }]],
    expected: signedInOnly(ErrorCode.validationFailed),
  },
  {
    event: 'chat:ask',
    name: 'a question that is an array',
    messages: () => [['chat:ask', { question: ['study', 'learn'] }]],
    expected: signedInOnly(ErrorCode.validationFailed),
  },
  {
    event: 'chat:ask',
    name: 'a second question while one is pending',
    messages: (me) => [
      ['chat:ask', { question: question(me) }],
      ['chat:ask', { question: 'And another?' }],
    ],
    expected: signedInOnly(ErrorCode.conflict),
  },
  {
    event: 'chat:ask',
    name: 'a blank question without an acknowledgement',
    messages: () => [['chat:ask', { question: '' }]],
    withoutAck: true,
    expected: signedInOnly(ErrorCode.validationFailed),
  },
  {
    event: 'auth:token',
    name: 'a fresh token of its own session',
    messages: (me) => [['auth:token', { token: freshTwin(tokenFor(me)) }]],
    expected: signedInOnly('ok'),
  },
  {
    event: 'auth:token',
    name: "another user's token",
    messages: (me) => [['auth:token', { token: actors[partnerOf[me ?? 'studentA']].token }]],
    expected: signedInOnly(ErrorCode.forbidden),
  },
  {
    event: 'auth:token',
    name: "another session's token of the same user",
    messages: (me) => [['auth:token', { token: otherSession[me ?? 'studentA'] }]],
    expected: signedInOnly(ErrorCode.forbidden),
  },
  {
    event: 'auth:token',
    name: 'an expired token of its own session',
    messages: (me) => [['auth:token', { token: expiredTwin(tokenFor(me)) }]],
    expected: signedInOnly(ErrorCode.tokenExpired),
  },
  {
    event: 'auth:token',
    name: "a signed-out session's token",
    messages: () => [['auth:token', { token: signedOutToken }]],
    expected: signedInOnly(ErrorCode.sessionEnded),
  },
  {
    event: 'auth:token',
    name: 'a malformed token',
    messages: () => [['auth:token', { token: 'eyJhbGciOi.not.a-token' }]],
    expected: signedInOnly(ErrorCode.invalidToken),
  },
  {
    event: 'auth:token',
    name: 'a token signed with another key',
    messages: (me) => [['auth:token', { token: foreignKeyTwin(tokenFor(me)) }]],
    expected: signedInOnly(ErrorCode.invalidToken),
  },
  {
    event: 'auth:token',
    name: "an unsigned ('none') token",
    messages: (me) => [['auth:token', { token: unsignedTwin(tokenFor(me)) }]],
    expected: signedInOnly(ErrorCode.invalidToken),
  },
  {
    event: 'auth:token',
    name: 'no token',
    messages: () => [['auth:token', {}]],
    expected: signedInOnly(ErrorCode.validationFailed),
  },
  {
    event: 'auth:token',
    name: 'a token that is not text',
    messages: (me) => [['auth:token', { token: [tokenFor(me)] }]],
    expected: signedInOnly(ErrorCode.validationFailed),
  },
  {
    event: 'auth:token',
    name: 'a fresh token without an acknowledgement',
    messages: (me) => [['auth:token', { token: freshTwin(tokenFor(me)) }]],
    withoutAck: true,
    expected: signedInOnly('none'),
  },
  {
    event: 'presence:set',
    name: "viewing an assignment of student A's course",
    messages: () => [['presence:set', { assignmentId: presence.assignmentId, state: 'viewing' }]],
    expected: presenceOutcome('ok', ErrorCode.notFound),
  },
  {
    event: 'presence:set',
    name: 'writing an answer to it',
    messages: () => [['presence:set', { assignmentId: presence.assignmentId, state: 'writing' }]],
    expected: presenceOutcome('ok', ErrorCode.notFound),
  },
  {
    event: 'presence:set',
    name: 'an assignment that does not exist',
    messages: () => [
      ['presence:set', { assignmentId: '00000000-0000-4000-8000-000000000000', state: 'viewing' }],
    ],
    expected: presenceOutcome(ErrorCode.notFound),
  },
  {
    event: 'presence:set',
    name: 'no assignment (the tab shows none)',
    messages: () => [['presence:set', { assignmentId: null, state: null }]],
    expected: presenceOutcome('ok'),
  },
  {
    event: 'presence:set',
    name: 'an assignment id that is not an id',
    messages: () => [['presence:set', { assignmentId: "' OR 1=1 --", state: 'viewing' }]],
    expected: presenceOutcome(ErrorCode.validationFailed),
  },
  {
    event: 'presence:set',
    name: 'a state that is not viewing or writing',
    messages: () => [['presence:set', { assignmentId: presence.assignmentId, state: 'submitted' }]],
    expected: presenceOutcome(ErrorCode.validationFailed),
  },
  {
    event: 'presence:set',
    name: 'a null payload',
    messages: () => [['presence:set', null]],
    expected: presenceOutcome(ErrorCode.validationFailed),
  },
  {
    event: 'panel:watch',
    name: "the panel of an assignment of the owner's course",
    messages: () => [['panel:watch', { assignmentId: presence.assignmentId }]],
    expected: watchOutcome('ok', ErrorCode.notFound),
  },
  {
    event: 'panel:watch',
    name: 'no panel (the tab shows none)',
    messages: () => [['panel:watch', { assignmentId: null }]],
    expected: watchOutcome('ok'),
  },
  {
    event: 'panel:watch',
    name: 'an assignment that does not exist',
    messages: () => [['panel:watch', { assignmentId: '00000000-0000-4000-8000-000000000000' }]],
    expected: watchOutcome(ErrorCode.notFound),
  },
  {
    event: 'panel:watch',
    name: 'an assignment id that is not an id',
    messages: () => [['panel:watch', { assignmentId: "' OR 1=1 --" }]],
    expected: watchOutcome(ErrorCode.validationFailed),
  },
  {
    event: 'panel:watch',
    name: 'a null payload',
    messages: () => [['panel:watch', null]],
    expected: watchOutcome(ErrorCode.validationFailed),
  },
  ...conversationEmitRows,
];

/**
 * Emits `event` (any name, any payload: the typed client would allow neither) with an
 * acknowledgement; the ack's outcome ('ok' or its code), or 'none' when none came in time.
 */
async function emitWithAck(
  socket: ClientSocket,
  event: string,
  payload: unknown,
  timeoutMs = ACK_TIMEOUT_MS,
): Promise<string> {
  try {
    const untyped = socket as unknown as Socket;
    const ack = (await untyped.timeout(timeoutMs).emitWithAck(event, payload)) as
      { ok: true } | { ok: false; code: string };
    return ack.ok ? 'ok' : ack.code;
  } catch {
    return 'none';
  }
}

const quiet = () => new Promise((resolve) => setTimeout(resolve, QUIET_MS));

/** Sends a row's messages as a signed-in caller on a fresh socket; the outcome of the last one. */
async function sendAs(me: SignedIn, row: EmitRow): Promise<{ outcome: string; socket: Recorder }> {
  const r = await join(actors[me].token);
  const messages = row.messages(me);
  let outcome = 'none';
  for (const [event, payload] of messages) {
    if (!row.withoutAck) {
      outcome = await emitWithAck(r.socket, event, payload);
      continue;
    }
    (r.socket as unknown as Socket).emit(event, payload);
    await quiet();
    const refusal = r.heard.find((h) => h.name === 'error:message');
    outcome = refusal ? (refusal.args[0] as { code: string }).code : 'none';
  }
  return { outcome, socket: r };
}

describe.each(emitTable)('$event: $name', (row) => {
  it.each(Object.entries(row.expected) as Array<[Who, string]>)(
    'answers %s with %s',
    async (who, expected) => {
      if (who === 'anonymous' || who === 'signedOut') {
        // The handshake is refused; a hostile client writes the event on the open transport anyway.
        const after = await emitAfterRefusal(url, tokenOf(who), row.messages(undefined));
        expect(after).toEqual({ refusal: expected, replies: [], closed: true });
        return;
      }
      const { outcome, socket } = await sendAs(who, row);
      expect(outcome).toBe(expected);
      expect(socket.socket.connected).toBe(true);
    },
  );
});

describe('what an accepted or refused client event leaves behind', () => {
  it('answers an accepted question on the asking socket and stores it for that user only', async () => {
    const { outcome, socket } = await sendAs('studentB', emitTable[0]!);
    expect(outcome).toBe('ok');
    const reply = await socket.waitForHeard((h) => h.name === 'chat:reply');
    expect(reply.args[0]).toMatchObject({
      question: question('studentB'),
      answer: expect.stringMatching(/\w/),
    });
    const stored = await t.app.core.database.db
      .select({ userId: chatbotConversations.userId })
      .from(chatbotConversations)
      .where(eq(chatbotConversations.question, question('studentB')));
    // The matrix above asked it too: every copy belongs to student B.
    expect(stored.length).toBeGreaterThan(0);
    expect(new Set(stored.map((row) => row.userId))).toEqual(new Set([actors.studentB.id]));
  });

  it('stores nothing for a signed-out session that writes a question on a refused transport', async () => {
    const { sub } = claimsOf(signedOutToken);
    await emitAfterRefusal(url, signedOutToken, [['chat:ask', { question: 'Sneaky?' }]]);
    await new Promise((resolve) => setTimeout(resolve, CHAT_DELAY_MS * 3));
    const stored = await t.app.core.database.db
      .select()
      .from(chatbotConversations)
      .where(eq(chatbotConversations.userId, sub));
    expect(stored).toEqual([]);
  });

  it('refuses the eleventh question within a minute from one user, however many tabs ask', async () => {
    const student = await createStudent(t, 'Many Tabs');
    const tabs = [await join(student.token), await join(student.token)];
    const outcomes: string[] = [];
    for (let i = 0; i < 11; i++) {
      const tab = tabs[i % 2]!;
      const asked = `Question ${i}`;
      outcomes.push(await emitWithAck(tab.socket, 'chat:ask', { question: asked }));
      // Wait for the answer, so the next question is not refused as pending instead.
      if (outcomes[i] === 'ok')
        await tab.waitForHeard((h) => h.name === 'chat:reply' && questionOf(h) === asked);
    }
    expect(outcomes).toEqual([...Array<string>(10).fill('ok'), ErrorCode.rateLimited]);
  });

  it('refuses a question that is not valid text, and stores nothing', async () => {
    const student = await createStudent(t, 'Broken Text');
    const tab = await join(student.token);
    for (const question of ['Why\u0000?', 'Half \ud800 a pair'])
      expect(await emitWithAck(tab.socket, 'chat:ask', { question })).toBe(ErrorCode.validationFailed);
    await new Promise((resolve) => setTimeout(resolve, CHAT_DELAY_MS * 3));
    const stored = await t.app.core.database.db
      .select()
      .from(chatbotConversations)
      .where(eq(chatbotConversations.userId, student.id));
    expect(stored).toEqual([]);
  });

  it('keeps the socket as it was after a refused auth:token: it hears its own events, not the offered user’s', async () => {
    const course = await createCourse(t, actors.owner);
    const assignment = await createAssignment(t, actors.owner, course);
    await Promise.all([joinCourse(t, actors.studentA, course), joinCourse(t, actors.studentB, course)]);
    const b = await join(actors.studentB.token);
    expect(await emitWithAck(b.socket, 'auth:token', { token: actors.studentA.token })).toBe(
      ErrorCode.forbidden,
    );
    const theirs = await submit(t, actors.studentA, assignment);
    const mine = await submit(t, actors.studentB, assignment);
    await b.waitFor((e) => e.type === 'submission:created' && (e.data as { id: string }).id === mine.id);
    expect(b.events.filter((e) => (e.data as { id: string }).id === theirs.id)).toEqual([]);
  });
});

describe('client events the server does not handle', () => {
  // Names a client might try: joining rooms, spoofing live events, or EventEmitter internals.
  const unhandled = [
    'join',
    'subscribe',
    'room:join',
    'course:created',
    'submission:graded',
    'session:ended',
    'chat:reply',
    'error',
    '__proto__',
    'constructor',
    'toString',
    'hasOwnProperty',
  ];

  it.each(SIGNED_IN)(
    'ignores them from %s: no answer, no room joined, nothing relayed to others',
    async (who) => {
      const course = await createCourse(t, actors.owner);
      const assignment = await createAssignment(t, actors.owner, course);
      await joinCourse(t, actors.studentA, course);
      const [me, owner] = await Promise.all([join(actors[who].token), join(actors.owner.token)]);
      const rooms = [
        `user:${actors.owner.id}`,
        `user:${actors.studentA.id}`,
        `course:${course.id}`,
        'role:teacher',
        'role:student',
      ];
      const spoof = {
        id: 987654321,
        type: 'course:created',
        at: new Date().toISOString(),
        data: { id: 'spoofed' },
      };
      const outcomes = await Promise.all(
        unhandled.map((name) => emitWithAck(me.socket, name, { room: rooms[0], rooms, ...spoof }, QUIET_MS)),
      );
      expect(outcomes).toEqual(unhandled.map(() => 'none'));
      expect(me.socket.connected).toBe(true);
      // Something only the owner and student A hear: does it reach the caller now?
      const theirs = await submit(t, actors.studentA, assignment);
      await owner.waitFor(
        (e) => e.type === 'submission:created' && (e.data as { id: string }).id === theirs.id,
      );
      await barrier(me, owner);
      const heardIt = me.events.some((e) => (e.data as { id: string }).id === theirs.id);
      expect(heardIt).toBe(who === 'owner' || who === 'studentA');
      expect(owner.heard.filter((h) => JSON.stringify(h.args).includes('spoofed'))).toEqual([]);
      // The socket still works.
      expect(await emitWithAck(me.socket, 'auth:token', { token: freshTwin(actors[who].token) })).toBe('ok');
    },
  );

  it.each(['disconnect', 'disconnecting', 'newListener', 'removeListener', 'connect'])(
    "a raw '%s' event cannot keep a socket open past its token's expiry",
    async (name) => {
      // Were a reserved name to reach the server's own handlers, 'disconnect' would clear the expiry timer.
      const shortLived = reissue(actors.studentA.token, new Date(), 3);
      const r = await join(shortLived);
      const closed = disconnected(r.socket, 8000);
      emitRaw(r.socket, name, 'x');
      await closed;
      const health = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(health.statusCode).toBe(200);
    },
  );

  it('lists every event the server listens to on a connected socket in the table above', async () => {
    const r = await join(actors.studentA.token);
    const serverSocket = t.app.core.realtime.io.of('/').sockets.get(r.socket.id ?? '');
    expect(serverSocket).toBeDefined();
    const internal = new Set(['disconnect', 'disconnecting', 'error', 'newListener', 'removeListener']);
    const handled = serverSocket!
      .eventNames()
      .map(String)
      .filter((name) => !internal.has(name));
    expect(handled.sort()).toEqual([...CLIENT_TO_SERVER_EVENTS].sort());
  });
});

// Server → client

/**
 * Waits until each socket has received everything the server sent it so far, so that "did not hear
 * X" is judged after X would have arrived: the server sends to one socket in order, and answers a
 * malformed auth:token at once, so its answer comes after every earlier event. (Nothing is sent to
 * every signed-in user any more, DESIGN §11, so an event cannot serve as the barrier.)
 */
async function barrier(...recorders: Recorder[]) {
  await Promise.all(recorders.map((r) => emitWithAck(r.socket, 'auth:token', {})));
}

type ServerEvent = (typeof SERVER_TO_CLIENT_EVENTS)[number];

interface LiveRow {
  event: ServerEvent;
  /** What happens, said in words. */
  when: string;
  /** Makes it happen; returns how to recognise the message it causes. */
  act: () => Promise<(h: Heard) => boolean>;
  hears: Record<Who, boolean>;
  /**
   * Whether the co-teacher hears it: by default, nothing before they accept and what the owner
   * hears from then on (DESIGN §20: every event "to the teacher" reaches all the course's teachers).
   */
  coTeacher?: boolean;
}

const nobody: Record<Who, boolean> = {
  anonymous: false,
  signedOut: false,
  studentA: false,
  studentB: false,
  owner: false,
  otherTeacher: false,
};
const onlyOwner = { ...nobody, owner: true };
const studentAAndOwner = { ...onlyOwner, studentA: true };
const onlyStudentA = { ...nobody, studentA: true };
const questionOf = (h: Heard) => (h.args[0] as { question?: string } | undefined)?.question;
const dataOf = (h: Heard) =>
  (h.args[0] as LiveEvent | undefined)?.data as Record<string, unknown> | undefined;
const idOf = (h: Heard) => dataOf(h)?.id as string | undefined;
const fileIdOf = (h: Heard) => (dataOf(h)?.file as { id?: string } | undefined)?.id;
/** A member:* event about this course and student. */
const memberEvent = (type: string, courseId: () => string, studentId: () => string) => (h: Heard) => {
  const data = dataOf(h) as { course?: { id: string }; member?: { student: { id: string } } } | undefined;
  return h.name === type && data?.course?.id === courseId() && data.member?.student.id === studentId();
};

/**
 * Student A is a member of the matrix course (removed and restored on the way), student B never
 * is, so B hears nothing of the course, and A nothing while removed (DESIGN §11).
 */
describe('who hears each server event', () => {
  const observers = {} as Record<Who, Recorder>;
  /** A teacher invited to co-teach the matrix course, who accepts early in the table. */
  let coTeacher: Actor;
  let coTab: Recorder;
  let coTeaching = false;
  const state = {} as {
    course: Course;
    assignment: Assignment;
    whileRemoved: Assignment;
    /** Its grades wait for Return (gradeRelease 'manual'); student A's answer is graded before A is removed. */
    heldWhileRemoved: Assignment;
    heldSubmission: OwnSubmission;
    submission: OwnSubmission;
    /** An assignment with manual release, and student A's answer to it (graded and held, then returned). */
    held: Assignment;
    heldAnswer: OwnSubmission;
    /** Manual release, nothing submitted by student A: graded as missing work, held, then returned. */
    missing: Assignment;
    missingGradeId: string;
    signedOut: string;
    /** Student A's upload in progress (its tus URL), and the owner's feedback file on the held grade. */
    upload: string;
    feedback: string;
    /** The owner's materials file on the assignment (added, then taken off). */
    materials: string;
    /** Scheduled for later, then published by an edit (DESIGN §20). */
    scheduled: Assignment;
  };
  let firstEventId = 0;
  const owner = () => actors.owner.headers;
  const post = (url: string, headers: { authorization: string }, payload?: object) =>
    t.app.inject({ method: 'POST', url, headers, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    firstEventId = (
      await t.app.inject({ method: 'GET', url: '/api/events', headers: actors.owner.headers })
    ).json<{
      lastId: number;
    }>().lastId;
    // The signed-out caller here is a second session of student A, connected until its session ends:
    // every event for student A would reach it if signing out did not close it.
    state.signedOut = (await signIn(t, actors.studentA.email)).accessToken;
    for (const who of SIGNED_IN) observers[who] = await join(actors[who].token);
    coTeacher = await createTeacher(t, 'Matrix Co Teacher');
    coTab = await join(coTeacher.token);
    observers.signedOut = await join(state.signedOut);
    // A client without a token that keeps retrying: it must never hear anything.
    const anonymous = openSocket(url, undefined, { reconnection: true });
    observers.anonymous = record(anonymous);
    open.push(observers.anonymous);
    await new Promise<void>((resolve) => anonymous.once('connect_error', () => resolve()));
  });

  // ─── conversations (issue 27) ───────────────────────────────────────────────────────────────────
  // Student A in the matrix course (then removed): the stream's events go to its room and the owner,
  // a private thread's to A and the owner only, `typing` to the others reading it (not the sender).
  const convState = {} as {
    postId: string;
    commentId: string;
    assignmentId: string;
    threadCommentId: string;
  };
  const ofId = (type: string, id: () => string) => (h: Heard) => h.name === type && idOf(h) === id();
  const conversationRows: { member: LiveRow[]; removed: LiveRow[] } = {
    member: [
      {
        event: 'post:created',
        when: 'the owner posts to the course stream',
        act: async () => {
          const res = await post(`/api/courses/${state.course.id}/posts`, owner(), { text: 'Stream post' });
          expect(res.statusCode).toBe(201);
          convState.postId = res.json<{ id: string }>().id;
          return ofId('post:created', () => convState.postId);
        },
        hears: studentAAndOwner,
      },
      {
        event: 'post:updated',
        when: 'the owner pins it',
        act: async () => {
          const res = await t.app.inject({
            method: 'PATCH',
            url: `/api/posts/${convState.postId}`,
            headers: owner(),
            payload: { pinned: true },
          });
          expect(res.statusCode).toBe(200);
          return ofId('post:updated', () => convState.postId);
        },
        hears: studentAAndOwner,
      },
      {
        event: 'comment:created',
        when: 'student A comments on it',
        act: async () => {
          const res = await post(`/api/posts/${convState.postId}/comments`, actors.studentA.headers, {
            text: 'Hi',
          });
          expect(res.statusCode).toBe(201);
          convState.commentId = res.json<{ id: string }>().id;
          return ofId('comment:created', () => convState.commentId);
        },
        hears: studentAAndOwner,
      },
      {
        event: 'post:seen',
        when: 'student A opens the post (its "seen by" moves, coalesced)',
        act: async () => {
          const res = await post(`/api/posts/${convState.postId}/seen`, actors.studentA.headers);
          expect(res.statusCode).toBe(204);
          return (h) => h.name === 'post:seen' && dataOf(h)?.postId === convState.postId;
        },
        // The teachers alone: a student never learns who else has seen it.
        hears: onlyOwner,
      },
      {
        event: 'typing',
        when: "the owner's tab says it is typing a comment on the post",
        act: async () => {
          expect(await emitWithAck(observers.owner.socket, 'typing', { postId: convState.postId })).toBe(
            'ok',
          );
          return (h) => h.name === 'typing' && (h.args[0] as { postId?: string }).postId === convState.postId;
        },
        // Not back to the tab that said it; the co-teacher reads the stream too.
        hears: onlyStudentA,
        coTeacher: true,
      },
      {
        event: 'comment:deleted',
        when: "the owner deletes student A's comment",
        act: async () => {
          const res = await t.app.inject({
            method: 'DELETE',
            url: `/api/comments/${convState.commentId}`,
            headers: owner(),
          });
          expect(res.statusCode).toBe(204);
          return ofId('comment:deleted', () => convState.commentId);
        },
        hears: studentAAndOwner,
      },
      {
        event: 'stream:updated',
        when: 'the owner turns comments off for the course',
        act: async () => {
          const res = await t.app.inject({
            method: 'PATCH',
            url: `/api/courses/${state.course.id}/stream`,
            headers: owner(),
            payload: { commentsOff: true },
          });
          expect(res.statusCode).toBe(200);
          return (h) =>
            h.name === 'stream:updated' &&
            dataOf(h)?.courseId === state.course.id &&
            dataOf(h)?.commentsOff === true;
        },
        hears: studentAAndOwner,
      },
      {
        event: 'thread:comment',
        when: "the owner writes in student A's private thread",
        act: async () => {
          convState.assignmentId = (
            await createAssignment(t, actors.owner, state.course, { title: 'Thread work' })
          ).id;
          const res = await post(
            `/api/assignments/${convState.assignmentId}/threads/${actors.studentA.id}/comments`,
            owner(),
            { text: 'A private word' },
          );
          expect(res.statusCode).toBe(201);
          const id = res.json<{ id: string }>().id;
          return ofId('thread:comment', () => id);
        },
        hears: studentAAndOwner,
      },
      {
        event: 'thread:comment',
        when: 'student A answers there',
        act: async () => {
          const res = await post(
            `/api/assignments/${convState.assignmentId}/threads/${actors.studentA.id}/comments`,
            actors.studentA.headers,
            { text: 'Thank you' },
          );
          expect(res.statusCode).toBe(201);
          convState.threadCommentId = res.json<{ id: string }>().id;
          return ofId('thread:comment', () => convState.threadCommentId);
        },
        hears: studentAAndOwner,
      },
      {
        event: 'post:deleted',
        when: 'the owner deletes the post',
        act: async () => {
          const res = await t.app.inject({
            method: 'DELETE',
            url: `/api/posts/${convState.postId}`,
            headers: owner(),
          });
          expect(res.statusCode).toBe(204);
          return ofId('post:deleted', () => convState.postId);
        },
        hears: studentAAndOwner,
      },
    ],
    removed: [
      {
        event: 'post:created',
        when: 'the owner posts while student A is removed',
        act: async () => {
          const res = await post(`/api/courses/${state.course.id}/posts`, owner(), { text: 'While removed' });
          expect(res.statusCode).toBe(201);
          const id = res.json<{ id: string }>().id;
          return ofId('post:created', () => id);
        },
        hears: onlyOwner,
      },
      {
        event: 'comment:deleted',
        when: "the owner deletes student A's private comment while A is removed",
        act: async () => {
          const res = await t.app.inject({
            method: 'DELETE',
            url: `/api/comments/${convState.threadCommentId}`,
            headers: owner(),
          });
          expect(res.statusCode).toBe(204);
          // Its assignment goes too, so the course can be deleted at the end of the table.
          const gone = await t.app.inject({
            method: 'DELETE',
            url: `/api/assignments/${convState.assignmentId}`,
            headers: owner(),
          });
          expect(gone.statusCode).toBe(204);
          return ofId('comment:deleted', () => convState.threadCommentId);
        },
        hears: onlyOwner,
      },
    ],
  };
  // ─── end of conversations (issue 27) ───────────────────────────────────────────────────────────

  // ─── live lessons (issue 29) ───────────────────────────────────────────────────────────────────
  // Student A in the matrix course: the class hears each change in its own view (no right answer
  // before the close), the owner in the teachers' view; an answer's tally goes to the teachers
  // only, the answer itself to the student's own tabs.
  const lessonState = {} as { lessonId: string; questionId: string };
  const lessonEvent =
    (type: string, id: () => string, view: 'teachers' | 'members' | 'any' = 'any') =>
    (h: Heard) => {
      const data = dataOf(h);
      if (h.name !== type || (data?.id ?? data?.questionId) !== id()) return false;
      if (view === 'any') return true;
      // The teachers' view carries the right answer (the fuzzless question below has one) or the roster.
      const teachers =
        data?.correct !== null && data?.correct !== undefined ? true : Array.isArray(data?.students);
      return view === 'teachers' ? teachers : !teachers;
    };
  const lessonRows: LiveRow[] = [
    {
      event: 'lesson:started',
      when: 'the owner starts a live lesson (the class’s view)',
      act: async () => {
        const res = await post(`/api/courses/${state.course.id}/lessons`, owner());
        expect(res.statusCode).toBe(201);
        lessonState.lessonId = res.json<{ id: string }>().id;
        return lessonEvent('lesson:started', () => lessonState.lessonId, 'members');
      },
      hears: onlyStudentA,
    },
    {
      event: 'lesson:started',
      when: 'that start, in the teachers’ view (with the roster)',
      act: async () => lessonEvent('lesson:started', () => lessonState.lessonId, 'teachers'),
      hears: onlyOwner,
    },
    {
      event: 'lesson:question',
      when: 'the owner pushes a question (the class’s view: no right answer)',
      act: async () => {
        const res = await post(`/api/lessons/${lessonState.lessonId}/questions`, owner(), {
          kind: 'multiple_choice',
          prompt: 'Pick one',
          options: ['A', 'B'],
          correct: 1,
        });
        expect(res.statusCode).toBe(201);
        lessonState.questionId = res.json<{ id: string }>().id;
        return lessonEvent('lesson:question', () => lessonState.questionId, 'members');
      },
      hears: onlyStudentA,
    },
    {
      event: 'lesson:question',
      when: 'that question, in the teachers’ view (with its right answer)',
      act: async () => lessonEvent('lesson:question', () => lessonState.questionId, 'teachers'),
      hears: onlyOwner,
    },
    {
      event: 'lesson:answer',
      when: 'student A answers it (their own tabs)',
      act: async () => {
        const res = await t.app.inject({
          method: 'PUT',
          url: `/api/lessons/${lessonState.lessonId}/questions/${lessonState.questionId}/answer`,
          headers: actors.studentA.headers,
          payload: { answer: 0 },
        });
        expect(res.statusCode).toBe(200);
        return lessonEvent('lesson:answer', () => lessonState.questionId);
      },
      hears: onlyStudentA,
    },
    {
      event: 'lesson:tally',
      when: 'that answer, counted for the teachers only',
      act: async () => lessonEvent('lesson:tally', () => lessonState.questionId),
      hears: onlyOwner,
    },
    {
      event: 'lesson:closed',
      when: 'the owner closes the question (the reveal, in the class’s view)',
      act: async () => {
        const res = await post(
          `/api/lessons/${lessonState.lessonId}/questions/${lessonState.questionId}/close`,
          owner(),
        );
        expect(res.statusCode).toBe(200);
        return (h) =>
          lessonEvent('lesson:closed', () => lessonState.questionId)(h) && dataOf(h)?.answers === null;
      },
      hears: onlyStudentA,
    },
    {
      event: 'lesson:closed',
      when: 'that close, in the teachers’ view (with every answer)',
      act: async () => (h) =>
        lessonEvent('lesson:closed', () => lessonState.questionId)(h) && Array.isArray(dataOf(h)?.answers),
      hears: onlyOwner,
    },
    {
      event: 'lesson:ended',
      when: 'the owner ends the lesson',
      act: async () => {
        const res = await post(`/api/lessons/${lessonState.lessonId}/end`, owner(), {});
        expect(res.statusCode).toBe(200);
        return lessonEvent('lesson:ended', () => lessonState.lessonId);
      },
      hears: studentAAndOwner,
    },
  ];
  // ─── end of live lessons (issue 29) ────────────────────────────────────────────────────────────

  const liveTable: LiveRow[] = [
    {
      event: 'session:ended',
      when: "student A's other session signs out",
      act: async () => {
        await t.app.inject({ method: 'POST', url: '/api/auth/signout', headers: bearer(state.signedOut) });
        return (h) => h.name === 'session:ended';
      },
      hears: { ...nobody, signedOut: true },
    },
    {
      event: 'course:created',
      when: 'the owner creates a course',
      act: async () => {
        state.course = await createCourse(t, actors.owner, { title: 'Matrix course' });
        return (h) => h.name === 'course:created' && idOf(h) === state.course.id;
      },
      hears: onlyOwner,
    },
    {
      event: 'member:joined',
      when: 'student A joins it with the code',
      act: async () => {
        await joinCourse(t, actors.studentA, state.course);
        return memberEvent(
          'member:joined',
          () => state.course.id,
          () => actors.studentA.id,
        );
      },
      hears: studentAAndOwner,
    },
    {
      event: 'course:teachers',
      when: 'the owner invites a co-teacher by e-mail (not yet accepted)',
      act: async () => {
        const email = `invitee.${Date.now()}@school.test`;
        expect(await inviteCoTeacher(t, actors.owner, state.course, email)).toEqual(expect.any(String));
        return (h) =>
          h.name === 'course:teachers' &&
          (h.args[0] as { data: CourseTeachers }).data.invites.some((i) => i.email === email);
      },
      // The course's teachers only (no co-teacher has accepted): never its members.
      hears: onlyOwner,
    },
    {
      event: 'course:teachers',
      when: 'a teacher invited to co-teach it accepts',
      act: async () => {
        await addCoTeacher(t, actors.owner, state.course, coTeacher);
        coTeaching = true;
        return (h) =>
          h.name === 'course:teachers' &&
          (h.args[0] as { data: CourseTeachers }).data.teachers.some((x) => x.id === coTeacher.id);
      },
      // Both teachers (the invitation's list before it, above, reached the owner alone), and the
      // member's Instructors card in their view.
      hears: studentAAndOwner,
      coTeacher: true,
    },
    {
      event: 'course:updated',
      when: 'the owner resets the join code',
      act: async () => {
        const res = await post(`/api/courses/${state.course.id}/join-code`, owner(), { action: 'reset' });
        expect(res.statusCode).toBe(200);
        const code = res.json<{ joinCode: string }>().joinCode;
        state.course = { ...state.course, joinCode: code };
        return (h) =>
          h.name === 'course:updated' && idOf(h) === state.course.id && dataOf(h)?.joinCode === code;
      },
      hears: onlyOwner,
    },
    {
      event: 'assignment:created',
      when: 'the owner adds an assignment to it',
      act: async () => {
        state.assignment = await createAssignment(t, actors.owner, state.course, { maxPoints: 10 });
        return (h) => h.name === 'assignment:created' && idOf(h) === state.assignment.id;
      },
      hears: studentAAndOwner,
    },
    {
      event: 'file:ready',
      when: 'the owner adds materials to the assignment',
      act: async () => {
        const id = await uploadFile(
          t,
          actors.owner,
          { purpose: 'assignment', targetId: state.assignment.id, name: 'sheet.pdf' },
          Buffer.from('%PDF-1.4 sheet'),
        );
        state.materials = id;
        return (h) => h.name === 'file:ready' && fileIdOf(h) === id;
      },
      hears: studentAAndOwner,
    },
    {
      event: 'file:deleted',
      when: 'the owner takes those materials off',
      act: async () => {
        const res = await t.app.inject({
          method: 'DELETE',
          url: `/api/files/${state.materials}`,
          headers: owner(),
        });
        expect(res.statusCode).toBe(204);
        return (h) => h.name === 'file:deleted' && dataOf(h)?.fileId === state.materials;
      },
      hears: studentAAndOwner,
    },
    {
      event: 'upload:progress',
      when: "student A's upload to it moves (a first chunk of two)",
      act: async () => {
        const created = await createUpload(
          t,
          actors.studentA,
          { purpose: 'submission', targetId: state.assignment.id, name: 'answer.bin' },
          8,
        );
        state.upload = String(created.headers.location);
        const sent = await patchUpload(t, actors.studentA, state.upload, 0, Buffer.from('1234'));
        expect(sent.statusCode).toBe(204);
        const id = state.upload.split('/').pop();
        return (h) => h.name === 'upload:progress' && dataOf(h)?.fileId === id;
      },
      // The teacher's panel: not the student's own tabs, nor anyone else's.
      hears: onlyOwner,
    },
    {
      event: 'file:ready',
      when: 'the last byte of that upload arrives',
      act: async () => {
        const sent = await patchUpload(t, actors.studentA, state.upload, 4, Buffer.from('5678'));
        expect(sent.statusCode).toBe(204);
        const id = state.upload.split('/').pop();
        return (h) => h.name === 'file:ready' && fileIdOf(h) === id;
      },
      hears: studentAAndOwner,
    },
    {
      event: 'draft:saved',
      when: 'student A saves a draft of an answer',
      act: async () => {
        const res = await t.app.inject({
          method: 'PUT',
          url: `/api/assignments/${state.assignment.id}/draft`,
          headers: actors.studentA.headers,
          payload: { content: 'Matrix draft', baseVersion: 0 },
        });
        expect(res.statusCode).toBe(200);
        return (h) => h.name === 'draft:saved' && dataOf(h)?.assignmentId === state.assignment.id;
      },
      hears: onlyStudentA,
    },
    {
      event: 'submission:created',
      when: 'student A submits to it',
      act: async () => {
        state.submission = await submit(t, actors.studentA, state.assignment, 'Matrix answer');
        return (h) => h.name === 'submission:created' && idOf(h) === state.submission.id;
      },
      hears: studentAAndOwner,
    },
    {
      event: 'submission:withdrawn',
      when: 'student A takes the submission back',
      act: async () => {
        const res = await t.app.inject({
          method: 'DELETE',
          url: `/api/assignments/${state.assignment.id}/submission`,
          headers: actors.studentA.headers,
        });
        expect(res.statusCode).toBe(200);
        const id = state.submission.id;
        return (h) => h.name === 'submission:withdrawn' && idOf(h) === id;
      },
      hears: studentAAndOwner,
    },
    {
      event: 'submission:created',
      when: 'student A submits again',
      act: async () => {
        state.submission = await submit(t, actors.studentA, state.assignment, 'Matrix answer, again');
        return (h) => h.name === 'submission:created' && idOf(h) === state.submission.id;
      },
      hears: studentAAndOwner,
    },
    {
      event: 'submission:graded',
      when: "the owner grades student A's submission",
      act: async () => {
        const res = await t.app.inject({
          method: 'PATCH',
          url: `/api/submissions/${state.submission.id}`,
          headers: actors.owner.headers,
          payload: { grade: 8, feedback: 'Good', baseVersion: 0 },
        });
        expect(res.statusCode).toBe(200);
        return (h) => h.name === 'submission:graded' && idOf(h) === state.submission.id;
      },
      hears: studentAAndOwner,
    },
    {
      event: 'submission:graded',
      when: 'the owner gives student A a grade for work they did not submit (DESIGN §17)',
      act: async () => {
        const unsubmitted = await createAssignment(t, actors.owner, state.course, { title: 'Not handed in' });
        const res = await t.app.inject({
          method: 'PUT',
          url: `/api/assignments/${unsubmitted.id}/grades/${actors.studentA.id}`,
          headers: owner(),
          payload: { grade: 0, baseVersion: 0 },
        });
        expect(res.json()).toMatchObject({ grade: 0, submittedAt: null });
        const id = res.json<{ id: string }>().id;
        // The course can be deleted at the end of the table only without assignments.
        const gone = await t.app.inject({
          method: 'DELETE',
          url: `/api/assignments/${unsubmitted.id}`,
          headers: owner(),
        });
        expect(gone.statusCode).toBe(204);
        return (h) => h.name === 'submission:graded' && idOf(h) === id;
      },
      hears: studentAAndOwner,
    },
    {
      event: 'submission:graded',
      when: 'the owner grades missing work on an assignment that holds grades (a held grade)',
      act: async () => {
        state.missing = await createAssignment(t, actors.owner, state.course, {
          title: 'Missing',
          gradeRelease: 'manual',
        });
        const res = await t.app.inject({
          method: 'PUT',
          url: `/api/assignments/${state.missing.id}/grades/${actors.studentA.id}`,
          headers: owner(),
          payload: { grade: 3, baseVersion: 0 },
        });
        expect(res.json()).toMatchObject({ grade: 3, submittedAt: null, returnedAt: null });
        state.missingGradeId = res.json<{ id: string }>().id;
        return (h) => h.name === 'submission:graded' && idOf(h) === state.missingGradeId;
      },
      hears: onlyOwner,
    },
    {
      event: 'submission:graded',
      when: 'the owner returns that grade for missing work',
      act: async () => {
        const res = await post(`/api/assignments/${state.missing.id}/return`, owner(), {});
        expect(res.json()).toEqual({ returned: 1 });
        // The course can be deleted at the end of the table only without assignments.
        const gone = await t.app.inject({
          method: 'DELETE',
          url: `/api/assignments/${state.missing.id}`,
          headers: owner(),
        });
        expect(gone.statusCode).toBe(204);
        return (h) =>
          h.name === 'submission:graded' &&
          idOf(h) === state.missingGradeId &&
          dataOf(h)?.returnedAt !== null;
      },
      hears: studentAAndOwner,
    },
    {
      event: 'submission:graded',
      when: "the owner grades student A's answer to an assignment that holds grades (a held grade)",
      act: async () => {
        state.held = await createAssignment(t, actors.owner, state.course, { title: 'Held', maxPoints: 23 });
        const manual = await t.app.inject({
          method: 'PATCH',
          url: `/api/assignments/${state.held.id}`,
          headers: owner(),
          payload: { gradeRelease: 'manual' },
        });
        expect(manual.statusCode).toBe(200);
        state.heldAnswer = await submit(t, actors.studentA, state.held, 'Held answer');
        const res = await t.app.inject({
          method: 'PATCH',
          url: `/api/submissions/${state.heldAnswer.id}`,
          headers: owner(),
          payload: { grade: 17, feedback: 'Not yet', baseVersion: 0 },
        });
        expect(res.json()).toMatchObject({ grade: 17, returnedAt: null });
        return (h) => h.name === 'submission:graded' && idOf(h) === state.heldAnswer.id;
      },
      hears: onlyOwner,
    },
    {
      event: 'file:ready',
      when: 'the owner adds a feedback file for student A while that grade is held',
      act: async () => {
        state.feedback = await uploadFile(
          t,
          actors.owner,
          { purpose: 'feedback', targetId: state.held.id, studentId: actors.studentA.id, name: 'notes.txt' },
          Buffer.from('Feedback'),
        );
        return (h) => h.name === 'file:ready' && fileIdOf(h) === state.feedback;
      },
      hears: onlyOwner,
    },
    {
      event: 'submission:graded',
      when: 'the owner returns it and the undo window ends',
      act: async () => {
        const res = await post(`/api/assignments/${state.held.id}/return`, owner(), { undoable: true });
        expect(res.statusCode).toBe(202);
        t.clock.advance(RETURN_UNDO_SECONDS * 1000);
        await t.app.core.jobs.runDue();
        // The course can be deleted at the end of the table only without assignments.
        const gone = await t.app.inject({
          method: 'DELETE',
          url: `/api/assignments/${state.held.id}`,
          headers: owner(),
        });
        expect(gone.statusCode).toBe(204);
        return (h) =>
          h.name === 'submission:graded' &&
          idOf(h) === state.heldAnswer.id &&
          dataOf(h)?.grade === 17 &&
          dataOf(h)?.returnedAt !== null;
      },
      hears: studentAAndOwner,
    },
    {
      event: 'file:ready',
      when: 'that Return (the row above) brings student A the feedback file',
      act: async () => {
        // The owner's own file:ready of that upload (the row before last) is another event.
        const ownerCopy = observers.owner.heard.find(
          (h) => h.name === 'file:ready' && fileIdOf(h) === state.feedback,
        );
        const eventId = (h: Heard) => (h.args[0] as LiveEvent).id;
        return (h) =>
          h.name === 'file:ready' && fileIdOf(h) === state.feedback && eventId(h) !== eventId(ownerCopy!);
      },
      hears: onlyStudentA,
    },
    {
      event: 'course:updated',
      when: 'the owner renames the course',
      act: async () => {
        const res = await t.app.inject({
          method: 'PATCH',
          url: `/api/courses/${state.course.id}`,
          headers: owner(),
          payload: { title: 'Matrix course, renamed' },
        });
        expect(res.statusCode).toBe(200);
        // Each hears it once, in their own view (grading.test.ts checks the views).
        return (h) =>
          h.name === 'course:updated' &&
          idOf(h) === state.course.id &&
          dataOf(h)?.title === 'Matrix course, renamed';
      },
      hears: studentAAndOwner,
    },
    {
      event: 'course:categories',
      when: 'the owner weights the course’s grades by category',
      act: async () => {
        const res = await t.app.inject({
          method: 'PUT',
          url: `/api/courses/${state.course.id}/categories`,
          headers: owner(),
          payload: { categories: [{ name: 'Matrix work', weight: 100 }] },
        });
        expect(res.statusCode).toBe(200);
        return (h) =>
          h.name === 'course:categories' &&
          (dataOf(h) as { courseId?: string })?.courseId === state.course.id;
      },
      hears: studentAAndOwner,
    },
    {
      event: 'assignment:updated',
      when: 'the owner edits the assignment',
      act: async () => {
        const res = await t.app.inject({
          method: 'PATCH',
          url: `/api/assignments/${state.assignment.id}`,
          headers: owner(),
          payload: { title: 'Matrix assignment, edited' },
        });
        expect(res.statusCode).toBe(200);
        return (h) =>
          h.name === 'assignment:updated' &&
          idOf(h) === state.assignment.id &&
          dataOf(h)?.title === 'Matrix assignment, edited';
      },
      hears: studentAAndOwner,
    },
    // Assign to some, schedule, extend (DESIGN §20).
    {
      event: 'assignment:extended',
      when: 'the owner gives student A their own due date',
      act: async () => {
        const res = await t.app.inject({
          method: 'PUT',
          url: `/api/assignments/${state.assignment.id}/extensions/${actors.studentA.id}`,
          headers: owner(),
          payload: { dueDate: inDays(12) },
        });
        expect(res.statusCode).toBe(200);
        return (h) => h.name === 'assignment:extended' && dataOf(h)?.assignmentId === state.assignment.id;
      },
      hears: studentAAndOwner,
    },
    {
      event: 'assignment:created',
      when: 'the owner schedules an assignment for tomorrow',
      act: async () => {
        const res = await post('/api/assignments', owner(), {
          title: 'Matrix scheduled',
          dueDate: inDays(5),
          courseId: state.course.id,
          publishAt: inDays(1),
        });
        expect(res.statusCode).toBe(201);
        state.scheduled = res.json();
        return (h) => h.name === 'assignment:created' && idOf(h) === state.scheduled.id;
      },
      hears: onlyOwner,
    },
    {
      event: 'assignment:created',
      when: 'the owner publishes the scheduled assignment now (the class hears it is new)',
      act: async () => {
        const res = await t.app.inject({
          method: 'PATCH',
          url: `/api/assignments/${state.scheduled.id}`,
          headers: owner(),
          payload: { publishAt: null },
        });
        expect(res.statusCode).toBe(200);
        // Out of the course again, so that the owner can delete it further down.
        const binned = await t.app.inject({
          method: 'DELETE',
          url: `/api/assignments/${state.scheduled.id}`,
          headers: owner(),
        });
        expect(binned.statusCode).toBe(204);
        return (h) =>
          h.name === 'assignment:created' &&
          idOf(h) === state.scheduled.id &&
          dataOf(h)?.submissionCount === null;
      },
      hears: onlyStudentA,
    },
    {
      event: 'assignment:created',
      when: 'the owner makes an assignment for no student yet',
      act: async () => {
        const res = await post('/api/assignments', owner(), {
          title: 'Matrix for nobody',
          dueDate: inDays(5),
          courseId: state.course.id,
          assignees: [],
        });
        expect(res.statusCode).toBe(201);
        const binned = await t.app.inject({
          method: 'DELETE',
          url: `/api/assignments/${res.json<Assignment>().id}`,
          headers: owner(),
        });
        expect(binned.statusCode).toBe(204);
        return (h) => h.name === 'assignment:created' && dataOf(h)?.title === 'Matrix for nobody';
      },
      hears: onlyOwner,
    },
    {
      event: 'gradebook:cell',
      when: 'the owner excuses student A from the assignment',
      act: async () => {
        const res = await post(`/api/assignments/${state.assignment.id}/excuse`, owner(), {
          studentId: actors.studentA.id,
          excused: true,
        });
        expect(res.statusCode).toBe(200);
        return (h) =>
          h.name === 'gradebook:cell' &&
          dataOf(h)?.assignmentId === state.assignment.id &&
          dataOf(h)?.studentId === actors.studentA.id;
      },
      hears: onlyOwner,
    },
    {
      event: 'assignment:panel',
      when: "student A's tab opens the assignment while the owner's tab shows its panel",
      act: async () => {
        const before = (await t.app.inject({ method: 'GET', url: '/api/events', headers: owner() })).json<{
          lastId: number;
        }>().lastId;
        expect(
          await emitWithAck(observers.owner.socket, 'panel:watch', { assignmentId: state.assignment.id }),
        ).toBe('ok');
        expect(
          await emitWithAck(observers.studentA.socket, 'presence:set', {
            assignmentId: state.assignment.id,
            state: 'viewing',
          }),
        ).toBe('ok');
        return (h) =>
          h.name === 'assignment:panel' &&
          dataOf(h)?.assignmentId === state.assignment.id &&
          (h.args[0] as LiveEvent).id > before;
      },
      hears: onlyOwner,
    },
    {
      event: 'notification:created',
      // A new assignment's entries go out with the class's own assignment:created (one event to the
      // course room, no event per member): the per-user event comes with a returned grade.
      when: "the owner grades student A's answer to a new assignment (and deletes it): student A's inbox entry",
      act: async () => {
        const notified = await createAssignment(t, actors.owner, state.course, { title: 'Notified' });
        const answer = await submit(t, actors.studentA, notified);
        const graded = await t.app.inject({
          method: 'PATCH',
          url: `/api/submissions/${answer.id}`,
          headers: owner(),
          payload: { grade: 5, baseVersion: 0 },
        });
        expect(graded.statusCode).toBe(200);
        const res = await t.app.inject({
          method: 'DELETE',
          url: `/api/assignments/${notified.id}`,
          headers: owner(),
        });
        expect(res.statusCode).toBe(204);
        return (h) =>
          h.name === 'notification:created' &&
          dataOf(h)?.assignmentId === notified.id &&
          dataOf(h)?.kind === 'grade_returned';
      },
      hears: onlyStudentA,
    },
    {
      event: 'notifications:read',
      when: 'student A marks every notification read',
      act: async () => {
        const res = await post('/api/notifications/read', actors.studentA.headers, { all: true });
        expect(res.json()).toEqual({ unreadCount: 0 });
        return (h) =>
          h.name === 'notifications:read' && dataOf(h)?.ids === 'all' && dataOf(h)?.unreadCount === 0;
      },
      hears: onlyStudentA,
    },
    {
      event: 'profile:updated',
      when: 'student A changes their name',
      act: async () => {
        const res = await t.app.inject({
          method: 'PATCH',
          url: '/api/me',
          headers: actors.studentA.headers,
          payload: { fullName: 'Renamed Student' },
        });
        expect(res.statusCode).toBe(200);
        return (h) => h.name === 'profile:updated' && idOf(h) === actors.studentA.id;
      },
      // Their teacher shows the name on the roster, the gradebook and the submissions (issue 25).
      hears: studentAAndOwner,
    },
    {
      event: 'profile:updated',
      when: 'the owner changes their name',
      act: async () => {
        const res = await t.app.inject({
          method: 'PATCH',
          url: '/api/me',
          headers: actors.owner.headers,
          payload: { fullName: 'Renamed Teacher' },
        });
        expect(res.statusCode).toBe(200);
        return (h) => h.name === 'profile:updated' && idOf(h) === actors.owner.id;
      },
      // The members of the owner's courses show the instructor's name (student B is in another of
      // them, joined by an earlier test), and so does the co-teacher; the other teacher does not.
      hears: { ...studentAAndOwner, studentB: true },
      coTeacher: true,
    },
    {
      event: 'assignment:deleted',
      when: 'the owner deletes the assignment',
      act: async () => {
        const res = await t.app.inject({
          method: 'DELETE',
          url: `/api/assignments/${state.assignment.id}`,
          headers: actors.owner.headers,
        });
        expect(res.statusCode).toBe(204);
        return (h) => h.name === 'assignment:deleted' && idOf(h) === state.assignment.id;
      },
      hears: studentAAndOwner,
    },
    {
      event: 'submission:graded',
      when: "the owner grades student A's answer to an assignment whose grades wait for Return",
      act: async () => {
        const res = await post('/api/assignments', owner(), {
          title: 'Held',
          dueDate: new Date(Date.now() + 86_400_000).toISOString(),
          courseId: state.course.id,
          gradeRelease: 'manual',
        });
        expect(res.statusCode).toBe(201);
        state.heldWhileRemoved = res.json<Assignment>();
        state.heldSubmission = await submit(t, actors.studentA, state.heldWhileRemoved, 'Held answer');
        const graded = await t.app.inject({
          method: 'PATCH',
          url: `/api/submissions/${state.heldSubmission.id}`,
          headers: owner(),
          payload: { grade: 6, baseVersion: 0 },
        });
        expect(graded.statusCode).toBe(200);
        return (h) => h.name === 'submission:graded' && idOf(h) === state.heldSubmission.id;
      },
      hears: onlyOwner,
    },
    ...conversationRows.member,
    ...lessonRows,
    {
      event: 'member:removed',
      when: 'the owner removes student A',
      act: async () => {
        const res = await t.app.inject({
          method: 'DELETE',
          url: `/api/courses/${state.course.id}/members/${actors.studentA.id}`,
          headers: owner(),
        });
        expect(res.statusCode).toBe(200);
        return memberEvent(
          'member:removed',
          () => state.course.id,
          () => actors.studentA.id,
        );
      },
      hears: studentAAndOwner,
    },
    ...conversationRows.removed,
    {
      event: 'submission:graded',
      // A former member cannot open the course: the returned grade is the teacher's news alone.
      when: 'the owner returns that held grade while student A is removed',
      act: async () => {
        const res = await post(`/api/assignments/${state.heldWhileRemoved.id}/return`, owner(), {});
        expect(res.json()).toEqual({ returned: 1 });
        return (h) =>
          h.name === 'submission:graded' &&
          idOf(h) === state.heldSubmission.id &&
          dataOf(h)?.returnedAt !== null;
      },
      hears: onlyOwner,
    },
    {
      event: 'notification:created',
      when: 'that return, for student A while removed (its assignment then goes, so the course can)',
      act: async () => {
        const res = await t.app.inject({
          method: 'DELETE',
          url: `/api/assignments/${state.heldWhileRemoved.id}`,
          headers: owner(),
        });
        expect(res.statusCode).toBe(204);
        return (h) =>
          h.name === 'notification:created' &&
          dataOf(h)?.assignmentId === state.heldWhileRemoved.id &&
          dataOf(h)?.kind === 'grade_returned';
      },
      hears: nobody,
    },
    {
      event: 'assignment:created',
      when: 'the owner adds an assignment while student A is removed',
      act: async () => {
        state.whileRemoved = await createAssignment(t, actors.owner, state.course, {
          title: 'While removed',
        });
        return (h) => h.name === 'assignment:created' && idOf(h) === state.whileRemoved.id;
      },
      hears: onlyOwner,
    },
    {
      event: 'member:restored',
      when: 'the owner restores student A',
      act: async () => {
        const res = await post(
          `/api/courses/${state.course.id}/members/${actors.studentA.id}/restore`,
          owner(),
        );
        expect(res.statusCode).toBe(200);
        return memberEvent(
          'member:restored',
          () => state.course.id,
          () => actors.studentA.id,
        );
      },
      hears: studentAAndOwner,
    },
    {
      event: 'assignment:deleted',
      when: 'the owner deletes that assignment, student A back in',
      act: async () => {
        const res = await t.app.inject({
          method: 'DELETE',
          url: `/api/assignments/${state.whileRemoved.id}`,
          headers: owner(),
        });
        expect(res.statusCode).toBe(204);
        return (h) => h.name === 'assignment:deleted' && idOf(h) === state.whileRemoved.id;
      },
      hears: studentAAndOwner,
    },
    {
      event: 'member:left',
      when: 'student B joins and leaves',
      act: async () => {
        await joinCourse(t, actors.studentB, state.course);
        const res = await post(`/api/courses/${state.course.id}/leave`, actors.studentB.headers);
        expect(res.statusCode).toBe(204);
        return memberEvent(
          'member:left',
          () => state.course.id,
          () => actors.studentB.id,
        );
      },
      hears: { ...onlyOwner, studentB: true },
    },
    {
      event: 'course:deleted',
      when: 'the owner deletes the course',
      act: async () => {
        const res = await t.app.inject({
          method: 'DELETE',
          url: `/api/courses/${state.course.id}`,
          headers: actors.owner.headers,
        });
        expect(res.statusCode).toBe(204);
        return (h) => h.name === 'course:deleted' && idOf(h) === state.course.id;
      },
      hears: studentAAndOwner,
    },
    {
      event: 'chat:reply',
      when: 'student A asks the assistant',
      act: async () => {
        expect(
          await emitWithAck(observers.studentA.socket, 'chat:ask', { question: 'Any study tips?' }),
        ).toBe('ok');
        return (h) => h.name === 'chat:reply' && questionOf(h) === 'Any study tips?';
      },
      hears: onlyStudentA,
    },
    {
      event: 'error:message',
      when: 'student A sends a blank question without an acknowledgement',
      act: async () => {
        (observers.studentA.socket as unknown as Socket).emit('chat:ask', { question: '   ' });
        return (h) =>
          h.name === 'error:message' && (h.args[0] as { code?: string }).code === ErrorCode.validationFailed;
      },
      hears: onlyStudentA,
    },
    {
      event: 'events:missed',
      when: "student A's tab reconnects, its handshake naming where this table began",
      act: async () => {
        const tab = observers.studentA;
        const before = tab.missed.length;
        tab.socket.disconnect();
        tab.socket.auth = { token: actors.studentA.token, after: firstEventId };
        tab.socket.connect();
        await tab.waitForHeard(() => tab.missed.length > before);
        // Every socket heard one on its first connect too, with nothing in it (no cursor).
        return (h) => h.name === 'events:missed' && (h.args[0] as MissedEvents).events.length > 0;
      },
      hears: onlyStudentA,
    },
  ];

  it.each(liveTable)('$event ($when) reaches exactly its audience', async ({ act, hears, coTeacher: co }) => {
    const match = await act();
    const everyone = { ...observers, coTeacher: coTab };
    const expected: Record<Who | 'coTeacher', boolean> = {
      ...hears,
      coTeacher: co ?? (coTeaching && hears.owner),
    };
    const audience = (Object.keys(expected) as Array<keyof typeof expected>).filter((who) => expected[who]);
    await Promise.all(audience.map((who) => everyone[who].waitForHeard(match)));
    const live = [...SIGNED_IN.map((who) => observers[who]), coTab].filter((r) => r.socket.connected);
    await barrier(...live);
    const heard = Object.fromEntries(
      (Object.keys(expected) as Array<keyof typeof expected>).map((who) => [
        who,
        everyone[who].heard.filter(match).length,
      ]),
    );
    expect(heard).toEqual(
      Object.fromEntries(Object.entries(expected).map(([who, yes]) => [who, yes ? 1 : 0])),
    );
  });

  it('leaves the signed-out and the anonymous client disconnected, having heard nothing else', async () => {
    expect(observers.signedOut.socket.connected).toBe(false);
    expect(observers.signedOut.heard.map((h) => h.name)).toEqual(['events:missed', 'session:ended']);
    expect(observers.signedOut.missed).toMatchObject([{ resync: false, events: [] }]);
    expect(observers.anonymous.socket.connected).toBe(false);
    expect(observers.anonymous.heard).toEqual([]);
  });

  it('replays to each caller exactly the live events its socket heard', async () => {
    for (const who of [...SIGNED_IN, 'coTeacher'] as const) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/events?after=${firstEventId}`,
        headers: who === 'coTeacher' ? coTeacher.headers : actors[who].headers,
      });
      const replayed = res.json<{ events: LiveEvent[] }>().events;
      const heard = who === 'coTeacher' ? coTab.events : observers[who].events;
      if (who !== 'studentA') {
        // The panel is written in the background (throttled, after the change it shows), so on
        // PostgreSQL it may commit, and be heard, out of id order with a request's event: the
        // panels are compared as a set, everything else in order.
        const panel = (e: LiveEvent) => e.type === 'assignment:panel';
        const ids = (events: LiveEvent[], keep: (e: LiveEvent) => boolean) =>
          events.filter(keep).map((e) => e.id);
        expect({ who, ids: ids(replayed, (e) => !panel(e)) }).toEqual({
          who,
          ids: ids(heard, (e) => !panel(e)),
        });
        expect({ who, panels: ids(replayed, panel).sort() }).toEqual({
          who,
          panels: ids(heard, panel).sort(),
        });
        continue;
      }
      // The replay answers from the caller's rooms now (DESIGN §11): the course is gone, so of what
      // student A heard in its room only what was addressed to A too comes back (course:deleted included).
      const heardIds = heard.map((e) => e.id);
      expect(replayed.filter((e) => !heardIds.includes(e.id))).toEqual([]);
      // What went to the course room only (assignment:*, materials' file:*, course:categories, and course:updated in the members' view)
      // does not come back; an assignment in A's own view (with their submission: the excuse's
      // assignment:updated) went to A's own room, and does.
      const ownView = (e: LiveEvent) =>
        e.type === 'assignment:updated' && (e.data as Assignment).submission !== null;
      const courseRoomOnly = (e: LiveEvent) =>
        // An extension went to A's own room (DESIGN §20), and does come back.
        (e.type.startsWith('assignment:') && e.type !== 'assignment:extended' && !ownView(e)) ||
        ((e.type === 'file:ready' || e.type === 'file:deleted') &&
          (e.data as { purpose: string }).purpose === 'assignment') ||
        e.type === 'course:updated' ||
        e.type === 'course:categories' ||
        // The members' view of who teaches it (their Instructors card) went to the course room.
        e.type === 'course:teachers' ||
        // The stream's events went to the course room (a private thread's went to A's own room).
        e.type.startsWith('post:') ||
        e.type === 'stream:updated' ||
        // A live lesson's class-wide events went to the course room (its own answer to A's room, and does come back).
        (e.type.startsWith('lesson:') && e.type !== 'lesson:answer') ||
        ((e.type === 'comment:created' || e.type === 'comment:deleted') &&
          (e.data as { postId: string | null }).postId !== null);
      expect(replayed.map((e) => e.type)).toEqual(heard.filter((e) => !courseRoomOnly(e)).map((e) => e.type));
      expect(replayed.map((e) => e.type)).toContain('course:deleted');
    }
    for (const token of [state.signedOut, undefined]) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/events?after=${firstEventId}`,
        headers: token ? bearer(token) : {},
      });
      expect(res.statusCode).toBe(401);
    }
  });

  it('replays over the socket what the HTTP replay answers, so never an event of a room the caller is not in', async () => {
    for (const who of SIGNED_IN) {
      const tab = await join(actors[who].token, { auth: { token: actors[who].token, after: firstEventId } });
      tab.close();
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/events?after=${firstEventId}`,
        headers: actors[who].headers,
      });
      expect({ who, missed: tab.missed }).toEqual({ who, missed: [res.json()] });
      if (who === 'studentB' || who === 'otherTeacher') {
        // Not in the matrix course now (student B joined and left it on the way): nothing that went
        // to its room, whatever happened while they were in it.
        const ofCourseRoom = tab.missed[0]!.events.filter(
          (e) =>
            (e.type.startsWith('assignment:') ||
              e.type === 'course:updated' ||
              e.type === 'course:deleted') &&
            JSON.stringify(e.data).includes(state.course.id),
        );
        expect({ who, ofCourseRoom }).toEqual({ who, ofCourseRoom: [] });
      }
    }
    // A signed-out session's socket is refused before any replay.
    expect(await refusalOf(url, undefined, { auth: { token: state.signedOut, after: firstEventId } })).toBe(
      SocketRefusal.sessionEnded,
    );
  });

  it('has a row for every server → client event, and every live event type is one of them', () => {
    expect(SERVER_TO_CLIENT_EVENTS.filter((event) => !liveTable.some((row) => row.event === event))).toEqual(
      [],
    );
    expect(
      LIVE_EVENT_TYPES.filter((type) => !(SERVER_TO_CLIENT_EVENTS as readonly string[]).includes(type)),
    ).toEqual([]);
  });
});

describe('the socket permission table', () => {
  it('has a row for every client → server event, each answering all six callers', () => {
    expect(CLIENT_TO_SERVER_EVENTS.filter((event) => !emitTable.some((row) => row.event === event))).toEqual(
      [],
    );
    for (const row of emitTable)
      expect(Object.keys(row.expected).sort()).toEqual([...SIGNED_IN, 'anonymous', 'signedOut'].sort());
  });
});

// ─── co-teachers (DESIGN §20) ────────────────────────────────────────────────────────────────────
// A course of its own: an owner, a co-teacher, a second co-teacher the owner removes, a member
// student, and another teacher. Every event "to the teacher" reaches both teachers live and in the
// replay; from the removal on, nothing of the course reaches the removed one.
describe('co-teachers hear what the owner hears', () => {
  type Party = 'owner' | 'coTeacher' | 'removed' | 'member' | 'otherTeacher';
  const parties = {} as Record<Party, Actor>;
  const tabs = {} as Record<Party, Recorder>;
  let course: Course;
  let firstId = 0;

  beforeAll(async () => {
    [parties.owner, parties.coTeacher, parties.removed, parties.member, parties.otherTeacher] =
      await Promise.all([
        createTeacher(t, 'Owning Teacher'),
        createTeacher(t, 'Co Teacher'),
        createTeacher(t, 'Removed Co Teacher'),
        createStudent(t, 'Member Student'),
        createTeacher(t, 'Outside Teacher'),
      ]);
    course = await createCourse(t, parties.owner);
    await joinCourse(t, parties.member, course);
    await addCoTeacher(t, parties.owner, course, parties.coTeacher);
    await addCoTeacher(t, parties.owner, course, parties.removed);
    firstId = (
      await t.app.inject({ method: 'GET', url: '/api/events', headers: parties.owner.headers })
    ).json<{ lastId: number }>().lastId;
    for (const who of Object.keys(parties) as Party[]) tabs[who] = await join(parties[who].token);
  });

  /** Who of the parties heard a message matching `match`, once everything sent so far has arrived. */
  async function heardBy(match: (h: Heard) => boolean, expected: Party[]): Promise<Party[]> {
    await Promise.all(expected.map((who) => tabs[who].waitForHeard(match)));
    await barrier(...Object.values(tabs));
    return (Object.keys(tabs) as Party[]).filter((who) => tabs[who].heard.some(match));
  }
  const ofAssignment = (type: string, assignmentId: () => string) => (h: Heard) =>
    h.name === type && dataOf(h)?.assignmentId === assignmentId();
  const state = {} as { assignment: Assignment; assignmentId: string; submission: OwnSubmission };

  it('both teachers and the member hear a new assignment', async () => {
    const made = await createAssignment(t, parties.coTeacher, course, { maxPoints: 10 });
    state.assignment = made;
    state.assignmentId = made.id;
    const match = (h: Heard) => h.name === 'assignment:created' && idOf(h) === made.id;
    expect(await heardBy(match, ['owner', 'coTeacher', 'removed', 'member'])).toEqual([
      'owner',
      'coTeacher',
      'removed',
      'member',
    ]);
  });

  it('the removed co-teacher is told the course is gone; the others see the new list', async () => {
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/courses/${course.id}/teachers/${parties.removed.id}`,
      headers: parties.owner.headers,
    });
    expect(res.statusCode).toBe(200);
    const gone = (h: Heard) => h.name === 'course:deleted' && idOf(h) === course.id;
    expect(await heardBy(gone, ['removed'])).toEqual(['removed']);
    const list = (h: Heard) =>
      h.name === 'course:teachers' &&
      !(h.args[0] as { data: CourseTeachers }).data.teachers.some((x) => x.id === parties.removed.id);
    // The member too, in their view (the Instructors card): names and roles, no address of anyone's.
    expect(await heardBy(list, ['owner', 'coTeacher', 'member'])).toEqual(['owner', 'coTeacher', 'member']);
    const members = tabs.member.heard.filter(list).map((h) => JSON.stringify(h.args[0]));
    expect(members.filter((text) => text.includes('@'))).toEqual([]);
  });

  it('a submission reaches both teachers and its student, not the removed co-teacher', async () => {
    state.submission = await submit(t, parties.member, state.assignment);
    const match = ofAssignment('submission:created', () => state.assignmentId);
    expect(await heardBy(match, ['owner', 'coTeacher', 'member'])).toEqual(['owner', 'coTeacher', 'member']);
  });

  it("the co-teacher's grade reaches the owner's tab and the student, not the removed co-teacher", async () => {
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/submissions/${state.submission.id}`,
      headers: parties.coTeacher.headers,
      payload: { grade: 8, baseVersion: 0 },
    });
    expect(res.statusCode, res.body).toBe(200);
    const graded = ofAssignment('submission:graded', () => state.assignmentId);
    expect(await heardBy(graded, ['owner', 'coTeacher', 'member'])).toEqual(['owner', 'coTeacher', 'member']);
  });

  it("a live lesson the co-teacher runs: both teachers hear each answer's tally, the class never does", async () => {
    const started = await t.app.inject({
      method: 'POST',
      url: `/api/courses/${course.id}/lessons`,
      headers: parties.coTeacher.headers,
    });
    expect(started.statusCode, started.body).toBe(201);
    const lessonId = started.json<{ id: string }>().id;
    const pushed = await t.app.inject({
      method: 'POST',
      url: `/api/lessons/${lessonId}/questions`,
      headers: parties.coTeacher.headers,
      payload: { kind: 'true_false', prompt: 'Water boils at 100 °C at sea level', correct: true },
    });
    expect(pushed.statusCode, pushed.body).toBe(201);
    const questionId = pushed.json<{ id: string }>().id;
    const answered = await t.app.inject({
      method: 'PUT',
      url: `/api/lessons/${lessonId}/questions/${questionId}/answer`,
      headers: parties.member.headers,
      payload: { answer: true },
    });
    expect(answered.statusCode, answered.body).toBe(200);
    const tally = (h: Heard) => h.name === 'lesson:tally' && dataOf(h)?.questionId === questionId;
    expect(await heardBy(tally, ['owner', 'coTeacher'])).toEqual(['owner', 'coTeacher']);
  });

  it('replays the same after a reconnect: the co-teacher gets the work, the removed one nothing after removal', async () => {
    const replay = async (who: Party) => {
      const tab = await join(parties[who].token, { auth: { token: parties[who].token, after: firstId } });
      tab.close();
      return tab.missed[0]!.events.map((e) => e.type);
    };
    const co = await replay('coTeacher');
    expect(co).toEqual(
      expect.arrayContaining(['assignment:created', 'submission:created', 'submission:graded']),
    );
    const removed = await replay('removed');
    expect(removed).toContain('course:deleted');
    expect(removed.filter((type) => type.startsWith('submission:'))).toEqual([]);
    const outsider = await replay('otherTeacher');
    expect(outsider).toEqual([]);
  });

  it('a cancelled invitation: the new list reaches the teachers only, never the member', async () => {
    await inviteCoTeacher(t, parties.owner, course, 'to-cancel@school.test');
    const listed = await t.app.inject({
      method: 'GET',
      url: `/api/courses/${course.id}/teachers`,
      headers: parties.owner.headers,
    });
    const invite = listed.json<CourseTeachers>().invites.find((i) => i.email === 'to-cancel@school.test')!;
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/courses/${course.id}/teacher-invites/${invite.id}`,
      headers: parties.owner.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    const list = (h: Heard) =>
      h.name === 'course:teachers' &&
      (h.args[0] as { data: CourseTeachers }).data.courseId === course.id &&
      isTeachersView((h.args[0] as { data: CourseTeachers }).data) &&
      !(h.args[0] as { data: CourseTeachers }).data.invites.some((i) => i.id === invite.id);
    // A cancelled invitation changes nothing a member sees: their view never carries invitations.
    const memberHeard = tabs.member.heard.length;
    expect(await heardBy(list, ['owner', 'coTeacher'])).toEqual(['owner', 'coTeacher']);
    expect(tabs.member.heard.slice(memberHeard).filter((h) => h.name === 'course:teachers')).toEqual([]);
  });

  it('a co-teacher who leaves is told the course is gone in their tab; the owner sees the new list', async () => {
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/courses/${course.id}/teachers/${parties.coTeacher.id}`,
      headers: parties.coTeacher.headers,
    });
    expect(res.statusCode, res.body).toBe(204);
    const gone = (h: Heard) => h.name === 'course:deleted' && idOf(h) === course.id;
    expect(await heardBy(gone, ['removed', 'coTeacher'])).toEqual(['coTeacher', 'removed']);
    const list = (h: Heard) =>
      h.name === 'course:teachers' &&
      (h.args[0] as { data: CourseTeachers }).data.teachers.map((x) => x.id).join() === parties.owner.id;
    expect(await heardBy(list, ['owner', 'member'])).toEqual(['owner', 'member']);
    // From now on the course's work reaches the owner, not the one who left.
    const made = await createAssignment(t, parties.owner, course);
    const match = (h: Heard) => h.name === 'assignment:created' && idOf(h) === made.id;
    expect(await heardBy(match, ['owner', 'member'])).toEqual(['owner', 'member']);
  });
});

// ─── archive and copy (DESIGN §20) ───────────────────────────────────────────────────────────────
// A course of its own: the owner, a co-teacher, a member, a removed member, another teacher and a
// student of no course. Archiving and unarchiving reach the course's teachers and members (each in
// their own view, so open tabs move it between the lists); a copy only its new owner.
describe('archive and copy: who hears it', () => {
  type Party = 'owner' | 'coTeacher' | 'member' | 'removed' | 'otherTeacher' | 'otherStudent';
  const parties = {} as Record<Party, Actor>;
  const tabs = {} as Record<Party, Recorder>;
  let course: Course;
  let assignment: Assignment;
  let copy: Course;

  beforeAll(async () => {
    [
      parties.owner,
      parties.coTeacher,
      parties.member,
      parties.removed,
      parties.otherTeacher,
      parties.otherStudent,
    ] = await Promise.all([
      createTeacher(t, 'Archiving Owner'),
      createTeacher(t, 'Archive Co Teacher'),
      createStudent(t, 'Archive Member'),
      createStudent(t, 'Removed Member'),
      createTeacher(t, 'Outside Teacher'),
      createStudent(t, 'Outside Student'),
    ]);
    course = await createCourse(t, parties.owner);
    await addCoTeacher(t, parties.owner, course, parties.coTeacher);
    await joinCourse(t, parties.member, course);
    await joinCourse(t, parties.removed, course);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/courses/${course.id}/members/${parties.removed.id}`,
      headers: parties.owner.headers,
    });
    expect(removed.statusCode).toBe(200);
    assignment = await createAssignment(t, parties.owner, course);
    for (const who of Object.keys(parties) as Party[]) tabs[who] = await join(parties[who].token);
  });

  async function heardBy(match: (h: Heard) => boolean, expected: Party[]): Promise<Party[]> {
    await Promise.all(expected.map((who) => tabs[who].waitForHeard(match)));
    await barrier(...Object.values(tabs));
    return (Object.keys(tabs) as Party[]).filter((who) => tabs[who].heard.some(match));
  }
  const act = (who: Party, url: string, payload?: object) =>
    t.app.inject({ method: 'POST', url, headers: parties[who].headers, ...(payload ? { payload } : {}) });
  const courseUpdated = (archived: boolean) => (h: Heard) =>
    h.name === 'course:updated' && idOf(h) === course.id && (dataOf(h)?.archivedAt !== null) === archived;

  it('course:updated on archiving reaches the teachers and the members, each in their view', async () => {
    expect((await act('owner', `/api/courses/${course.id}/archive`)).statusCode).toBe(200);
    const archived = courseUpdated(true);
    expect(await heardBy(archived, ['owner', 'coTeacher', 'member'])).toEqual([
      'owner',
      'coTeacher',
      'member',
    ]);
    const joinCodeOf = (who: Party) => dataOf(tabs[who].heard.find(archived)!)?.joinCode;
    expect(joinCodeOf('member')).toBeNull();
    expect(joinCodeOf('coTeacher')).toEqual(expect.any(String));
  });

  it('course:updated on unarchiving reaches the same, and nobody else', async () => {
    expect((await act('owner', `/api/courses/${course.id}/unarchive`)).statusCode).toBe(200);
    expect(await heardBy(courseUpdated(false), ['owner', 'coTeacher', 'member'])).toEqual([
      'owner',
      'coTeacher',
      'member',
    ]);
  });

  it('course:created of a copy reaches only the teacher who copied it', async () => {
    const res = await act('coTeacher', `/api/courses/${course.id}/copy`, { title: 'Next year' });
    expect(res.statusCode, res.body).toBe(201);
    copy = res.json<Course>();
    const created = (h: Heard) => h.name === 'course:created' && idOf(h) === copy.id;
    expect(await heardBy(created, ['coTeacher'])).toEqual(['coTeacher']);
  });

  it('assignment:created of a reused assignment reaches the target course’s teachers and members', async () => {
    const detail = await t.app.inject({
      method: 'GET',
      url: `/api/courses/${copy.id}`,
      headers: parties.coTeacher.headers,
    });
    const copied = detail.json<{ assignments: Assignment[] }>().assignments[0]!;
    expect(copied.title).toBe(assignment.title);
    const res = await act('coTeacher', `/api/assignments/${copied.id}/copy`, { courseId: course.id });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json<Assignment>().id;
    const created = (h: Heard) => h.name === 'assignment:created' && idOf(h) === id;
    expect(await heardBy(created, ['owner', 'coTeacher', 'member'])).toEqual([
      'owner',
      'coTeacher',
      'member',
    ]);
  });
});

// ─── assigned to some (DESIGN §20) ───────────────────────────────────────────────────────────────
// A course of its own: the owner, a co-teacher, students A and B whom its assignment is for, a
// member it is not for, a removed member, another teacher and a student of another course. Every
// event of the assignment reaches its teachers and the students it concerns; the unassigned member,
// though in the class, hears none of them (live, or in a replay over HTTP or the socket), and is
// refused every client event that names it; what is the class's (a post) still reaches them.
describe('assigned to some: who hears each event of an assignment', () => {
  type Party =
    | 'owner'
    | 'coTeacher'
    | 'assignedA'
    | 'assignedB'
    | 'unassigned'
    | 'removed'
    | 'otherTeacher'
    | 'otherStudent';
  const parties = {} as Record<Party, Actor>;
  const tabs = {} as Record<Party, Recorder>;
  const teachers: Party[] = ['owner', 'coTeacher'];
  let course: Course;
  let firstId = 0;
  const state = {} as {
    assignment: Assignment;
    materials: string;
    upload: string;
    submission: OwnSubmission;
    comment: string;
  };
  const as = (who: Party) => parties[who].headers;
  const call = (who: Party, method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: as(who), ...(payload ? { payload } : {}) });
  const aid = () => state.assignment.id;

  beforeAll(async () => {
    [
      parties.owner,
      parties.coTeacher,
      parties.assignedA,
      parties.assignedB,
      parties.unassigned,
      parties.removed,
      parties.otherTeacher,
      parties.otherStudent,
    ] = await Promise.all([
      createTeacher(t, 'Some Owner'),
      createTeacher(t, 'Some Co Teacher'),
      createStudent(t, 'Assigned Ada'),
      createStudent(t, 'Assigned Ben'),
      createStudent(t, 'Unassigned Una'),
      createStudent(t, 'Removed Rae'),
      createTeacher(t, 'Outside Teacher'),
      createStudent(t, 'Outside Student'),
    ]);
    course = await createCourse(t, parties.owner);
    await addCoTeacher(t, parties.owner, course, parties.coTeacher);
    for (const who of ['assignedA', 'assignedB', 'unassigned', 'removed'] as const)
      await joinCourse(t, parties[who], course);
    const removed = await call('owner', 'DELETE', `/api/courses/${course.id}/members/${parties.removed.id}`);
    expect(removed.statusCode).toBe(200);
    await joinCourse(t, parties.otherStudent, await createCourse(t, parties.otherTeacher));
    firstId = (await t.app.inject({ method: 'GET', url: '/api/events', headers: as('owner') })).json<{
      lastId: number;
    }>().lastId;
    for (const who of Object.keys(parties) as Party[]) tabs[who] = await join(parties[who].token);
  });

  const ofAssignment = (type: string) => (h: Heard) =>
    h.name === type && (idOf(h) === aid() || dataOf(h)?.assignmentId === aid());
  const forStudent = (type: string, who: Party) => (h: Heard) =>
    ofAssignment(type)(h) && dataOf(h)?.studentId === parties[who].id;
  const rows: Array<{
    event: string;
    when: string;
    act: () => Promise<(h: Heard) => boolean>;
    hears: Party[];
  }> = [
    {
      event: 'assignment:created',
      when: 'the co-teacher sets it for A and B',
      act: async () => {
        const res = await call('coTeacher', 'POST', '/api/assignments', {
          title: 'For two',
          dueDate: inDays(7),
          courseId: course.id,
          maxPoints: 10,
          assignees: [parties.assignedA.id, parties.assignedB.id],
        });
        expect(res.statusCode, res.body).toBe(201);
        state.assignment = res.json<Assignment>();
        // The owner's tab shows its panel from now on.
        expect(await emitWithAck(tabs.owner.socket, 'panel:watch', { assignmentId: aid() })).toBe('ok');
        return ofAssignment('assignment:created');
      },
      hears: [...teachers, 'assignedA', 'assignedB'],
    },
    {
      event: 'assignment:updated',
      when: 'the owner renames it',
      act: async () => {
        const res = await call('owner', 'PATCH', `/api/assignments/${aid()}`, { title: 'Still for two' });
        expect(res.statusCode, res.body).toBe(200);
        return (h) => ofAssignment('assignment:updated')(h) && dataOf(h)?.title === 'Still for two';
      },
      hears: [...teachers, 'assignedA', 'assignedB'],
    },
    {
      event: 'file:ready',
      when: 'the owner adds materials to it',
      act: async () => {
        state.materials = await uploadFile(
          t,
          parties.owner,
          { purpose: 'assignment', targetId: aid(), name: 'sheet.txt' },
          Buffer.from('sheet'),
        );
        return (h) => h.name === 'file:ready' && fileIdOf(h) === state.materials;
      },
      hears: [...teachers, 'assignedA', 'assignedB'],
    },
    {
      event: 'file:deleted',
      when: 'the owner takes the materials off',
      act: async () => {
        expect((await call('owner', 'DELETE', `/api/files/${state.materials}`)).statusCode).toBe(204);
        return (h) => h.name === 'file:deleted' && dataOf(h)?.fileId === state.materials;
      },
      hears: [...teachers, 'assignedA', 'assignedB'],
    },
    {
      event: 'draft:saved',
      when: 'A saves a draft',
      act: async () => {
        const res = await call('assignedA', 'PUT', `/api/assignments/${aid()}/draft`, {
          content: 'Half',
          baseVersion: 0,
        });
        expect(res.statusCode, res.body).toBe(200);
        return ofAssignment('draft:saved');
      },
      hears: ['assignedA'],
    },
    {
      event: 'assignment:panel',
      when: "A's draft moves the panel (the owner's tab watches it)",
      act: async () => ofAssignment('assignment:panel'),
      hears: teachers,
    },
    {
      event: 'upload:progress',
      when: "A's upload moves (a first chunk of two)",
      act: async () => {
        const created = await createUpload(
          t,
          parties.assignedA,
          { purpose: 'submission', targetId: aid(), name: 'answer.bin' },
          8,
        );
        expect(created.statusCode, created.body).toBe(201);
        state.upload = String(created.headers.location);
        const sent = await patchUpload(t, parties.assignedA, state.upload, 0, Buffer.from('1234'));
        expect(sent.statusCode).toBe(204);
        return (h) => h.name === 'upload:progress' && dataOf(h)?.fileId === state.upload.split('/').pop();
      },
      hears: teachers,
    },
    {
      event: 'submission:created',
      when: 'A hands in',
      act: async () => {
        state.submission = await submit(t, parties.assignedA, state.assignment);
        return ofAssignment('submission:created');
      },
      hears: [...teachers, 'assignedA'],
    },
    {
      event: 'submission:withdrawn',
      when: 'A takes their work back',
      act: async () => {
        const res = await call('assignedA', 'DELETE', `/api/assignments/${aid()}/submission`);
        expect(res.statusCode, res.body).toBe(200);
        return ofAssignment('submission:withdrawn');
      },
      hears: [...teachers, 'assignedA'],
    },
    {
      event: 'thread:comment',
      when: 'A writes in their private thread on it',
      act: async () => {
        const url = `/api/assignments/${aid()}/threads/${parties.assignedA.id}/comments`;
        const res = await call('assignedA', 'POST', url, { text: 'A question' });
        expect(res.statusCode, res.body).toBe(201);
        state.comment = res.json<{ id: string }>().id;
        return (h) => h.name === 'thread:comment' && idOf(h) === state.comment;
      },
      hears: [...teachers, 'assignedA'],
    },
    {
      event: 'comment:deleted',
      when: "the co-teacher deletes A's private comment",
      act: async () => {
        expect((await call('coTeacher', 'DELETE', `/api/comments/${state.comment}`)).statusCode).toBe(204);
        return (h) => h.name === 'comment:deleted' && idOf(h) === state.comment;
      },
      hears: [...teachers, 'assignedA'],
    },
    {
      event: 'submission:graded',
      when: "the owner grades A's work, handed in again",
      act: async () => {
        state.submission = await submit(t, parties.assignedA, state.assignment);
        const res = await call('owner', 'PATCH', `/api/submissions/${state.submission.id}`, {
          grade: 8,
          baseVersion: 0,
        });
        expect(res.statusCode, res.body).toBe(200);
        return forStudent('submission:graded', 'assignedA');
      },
      hears: [...teachers, 'assignedA'],
    },
    {
      event: 'submission:graded',
      when: 'the co-teacher grades B, who handed nothing in, in the gradebook',
      act: async () => {
        const url = `/api/assignments/${aid()}/grades/${parties.assignedB.id}`;
        const res = await call('coTeacher', 'PUT', url, { grade: 0, baseVersion: 0 });
        expect(res.statusCode, res.body).toBe(200);
        return forStudent('submission:graded', 'assignedB');
      },
      hears: [...teachers, 'assignedB'],
    },
    {
      event: 'gradebook:cell',
      when: 'the owner excuses B',
      act: async () => {
        const res = await call('owner', 'POST', `/api/assignments/${aid()}/excuse`, {
          studentId: parties.assignedB.id,
          excused: true,
        });
        expect(res.statusCode, res.body).toBe(200);
        return forStudent('gradebook:cell', 'assignedB');
      },
      hears: teachers,
    },
    {
      event: 'assignment:extended',
      when: 'the owner gives A more time',
      act: async () => {
        const url = `/api/assignments/${aid()}/extensions/${parties.assignedA.id}`;
        const res = await call('owner', 'PUT', url, { dueDate: inDays(9) });
        expect(res.statusCode, res.body).toBe(200);
        return ofAssignment('assignment:extended');
      },
      hears: [...teachers, 'assignedA'],
    },
    {
      event: 'post:created',
      when: 'the owner posts to the class (the unassigned member’s class too)',
      act: async () => {
        const res = await call('owner', 'POST', `/api/courses/${course.id}/posts`, { text: 'To everyone' });
        expect(res.statusCode, res.body).toBe(201);
        const id = res.json<{ id: string }>().id;
        return (h) => h.name === 'post:created' && idOf(h) === id;
      },
      hears: [...teachers, 'assignedA', 'assignedB', 'unassigned'],
    },
  ];

  /** The parties who heard a message matching `match`, once everything sent so far has arrived. */
  async function heardBy(match: (h: Heard) => boolean, expected: Party[]): Promise<Party[]> {
    await Promise.all(expected.map((who) => tabs[who].waitForHeard(match)));
    await barrier(...Object.values(tabs));
    return (Object.keys(tabs) as Party[]).filter((who) => tabs[who].heard.some(match));
  }
  const inOrder = (some: Party[]) => (Object.keys(parties) as Party[]).filter((who) => some.includes(who));

  it.each(rows)('$event ($when) reaches exactly its audience', async ({ act, hears }) => {
    expect(await heardBy(await act(), hears)).toEqual(inOrder(hears));
  });

  /** What, of messages sent to someone, names the assignment (its id or its title). */
  const traces = (sent: unknown[]) =>
    sent.map((x) => JSON.stringify(x)).filter((text) => text.includes(aid()) || text.includes('for two'));

  it('leaves no trace of it with the unassigned member or anyone outside, live or replayed', async () => {
    for (const who of ['unassigned', 'removed', 'otherTeacher', 'otherStudent'] as const) {
      expect({ who, live: traces(tabs[who].heard.map((h) => h.args)) }).toEqual({ who, live: [] });
      const replayed = await t.app.inject({
        method: 'GET',
        url: `/api/events?after=${firstId}`,
        headers: as(who),
      });
      expect({ who, replay: traces(replayed.json<MissedEvents>().events) }).toEqual({ who, replay: [] });
      const tab = await join(parties[who].token, { auth: { token: parties[who].token, after: firstId } });
      tab.close();
      const socketReplay = traces(tab.missed.flatMap((m) => (m.resync ? [] : m.events)));
      expect({ who, socketReplay }).toEqual({ who, socketReplay: [] });
    }
    // The students it is for have it replayed: the check above would find it.
    const ada = await t.app.inject({
      method: 'GET',
      url: `/api/events?after=${firstId}`,
      headers: as('assignedA'),
    });
    expect(traces(ada.json<MissedEvents>().events).length).toBeGreaterThan(0);
  });

  it('refuses the unassigned member every client event that names it, as if it were not there', async () => {
    const una = tabs.unassigned.socket;
    const viewing = { assignmentId: aid(), state: 'viewing' };
    expect(await emitWithAck(una, 'presence:set', viewing)).toBe(ErrorCode.notFound);
    expect(await emitWithAck(una, 'panel:watch', { assignmentId: aid() })).toBe(ErrorCode.forbidden);
    for (const student of [parties.unassigned, parties.assignedA])
      expect(
        await emitWithAck(una, 'typing', { thread: { assignmentId: aid(), studentId: student.id } }),
      ).toBe(ErrorCode.notFound);
    // A, whom it is for, may say they are viewing it.
    expect(await emitWithAck(tabs.assignedA.socket, 'presence:set', viewing)).toBe('ok');
  });

  it('deleting it reaches its teachers and the students it is for, nobody else', async () => {
    expect((await call('owner', 'DELETE', `/api/assignments/${aid()}`)).statusCode).toBe(204);
    const match = (h: Heard) => h.name === 'assignment:deleted' && idOf(h) === aid();
    const hears: Party[] = [...teachers, 'assignedA', 'assignedB'];
    expect(await heardBy(match, hears)).toEqual(hears);
  });
});
