import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createTestApp,
  createVerifiedUser,
  PASSWORD,
  signIn,
  TEST_ORIGIN,
  uniqueEmail,
} from '../support/app.js';
import {
  addCoTeacher,
  createAssignment,
  createCourse,
  createStudent,
  createTeacher,
  inDays,
  inviteCoTeacher,
  joinCourse,
  submit,
  type Actor,
} from '../support/factories.js';
import {
  categoriesFor,
  isCursor,
  routesOf,
  type Case,
  type Json,
  type JsonSchema,
  type Route,
} from '../support/fuzz-cases.js';
import { problemsWith, prototypePolluted, seededRandom } from '../support/hostile.js';
import { OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, TestOidcProvider } from '../support/oidc-provider.js';
import { listen } from '../support/sockets.js';
import { TUS, tusMetadata, uploadFile } from '../support/uploads.js';
import { resetLinkIn } from '../support/mail-catcher.js';
import { defaultRateLimits } from '../../src/auth/limits.js';

/**
 * Hostile input against every route of the OpenAPI document (read from the running app, so a
 * new route is fuzzed without a change here): malformed and odd bodies, content types, prototype
 * keys, broken and code-like text, odd formats, path params and query strings, and seeded random
 * mutations (test/fuzz-cases.ts). Each answer must be a 4xx in the documented error shape (or a
 * success where the input is in fact valid, stored verbatim), never a 5xx, and leak nothing.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20_251_121);
console.info(`fuzz: seed ${SEED} (FUZZ_SEED=${SEED} replays this run)`);
const random = seededRandom(SEED);
const started = { wall: Date.now(), cpu: process.cpuUsage() };

// The app is built while tests are collected: the routes to fuzz come from its OpenAPI document.
const roomy = { max: 100_000, timeWindow: 60_000 };
const lenient = { max: 100_000, windowMs: 60_000 };
// The school's OpenID provider (DESIGN §20): the callback's hostile answers reach a real one.
const provider = await new TestOidcProvider().start(TEST_ORIGIN);
afterAll(() => provider.stop());
const t = await createTestApp({
  env: {
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID,
    OIDC_CLIENT_SECRET,
    OIDC_ROLE_RULES: 'student:@school.test',
  },
  rateLimits: Object.fromEntries(Object.keys(defaultRateLimits).map((k) => [k, roomy])),
  joinLimits: { account: lenient, ip: lenient },
  conversationLimits: { posts: roomy, comments: roomy },
});
afterAll(() => t.close());
const routes = routesOf((await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json());

// Who calls each route: a teacher for signed-in routes unless said otherwise.
const ACTING: Record<string, 'student' | 'session' | 'own' | 'oidc'> = {
  // The provider's answer comes back to the browser that started the sign-in: its flow cookie.
  'GET /api/auth/oidc/callback': 'oidc',
  'POST /api/assignments/:id/submissions': 'student',
  // Drafts and unsubmit are the student's own (DESIGN §12).
  'GET /api/assignments/:id/draft': 'student',
  'PUT /api/assignments/:id/draft': 'student',
  'DELETE /api/assignments/:id/submission': 'student',
  // The student's own submission, read back (DESIGN §17).
  'GET /api/assignments/:id/submission': 'student',
  'POST /api/courses/join': 'student',
  'GET /api/join/:code': 'student',
  'POST /api/courses/:id/leave': 'student',
  'GET /api/grades': 'student',
  // Answering a live lesson's question is a member student's (DESIGN §21).
  'PUT /api/lessons/:id/questions/:qid/answer': 'student',
  'POST /api/auth/refresh': 'session',
  'POST /api/auth/signout': 'session',
  // The account routes act on the caller: a throwaway student of the context's own (deleted, renamed).
  'PATCH /api/me': 'own',
  'POST /api/me/password': 'own',
  'DELETE /api/me/sessions': 'own',
  'DELETE /api/me/sessions/:id': 'own',
  'DELETE /api/me': 'own',
};
// A success on these changes nothing later requests rely on; after any other success (a deletion,
// a submission, a sign-out) the route gets fresh data.
const REPEATABLE = new Set([
  'POST /api/auth/signup',
  'POST /api/auth/resend',
  'POST /api/auth/signin',
  'POST /api/courses',
  'POST /api/courses/samples',
  'POST /api/assignments',
  'POST /api/assignments/samples',
  // Joining again, restoring an active member and resetting the code again change nothing others rely on.
  'POST /api/courses/join',
  'POST /api/courses/:id/members/:studentId/restore',
  'POST /api/courses/:id/join-code',
  // The new password is the old one, and a rename or signing out others again changes nothing.
  'PATCH /api/me',
  'POST /api/me/password',
  'DELETE /api/me/sessions',
  // The browser's zone recorded again is the same zone.
  'PUT /api/me/time-zone',
  // Conversations (issue 27): another post or comment, a seen mark again, a switch set again.
  'POST /api/courses/:id/posts',
  'PATCH /api/posts/:id',
  'POST /api/posts/:id/comments',
  'POST /api/posts/:id/seen',
  'POST /api/courses/:id/stream/read',
  'POST /api/assignments/:id/threads/:studentId/comments',
  'PATCH /api/courses/:id/stream',
  'PUT /api/courses/:id/mutes/:studentId',
  'DELETE /api/courses/:id/mutes/:studentId',
  // Co-teachers (DESIGN §20): inviting an address again replaces its open invitation.
  'POST /api/courses/:id/teachers',
  // Roster import (DESIGN §20): the same file again changes nothing.
  'POST /api/courses/:id/roster-import',
  // Live lessons (issue 29): the next question (closing the open one), a close again, an answer changed.
  'POST /api/lessons/:id/questions',
  'POST /api/lessons/:id/questions/:qid/close',
  'PUT /api/lessons/:id/questions/:qid/answer',
  // The question bank: another saved question.
  'POST /api/courses/:id/question-bank',
  // Archive and copy (DESIGN §20): another copy is another course of the teacher's (its own code),
  // a reuse another assignment; unarchiving a current course changes nothing.
  'POST /api/courses/:id/copy',
  'POST /api/assignments/:id/copy',
  'POST /api/courses/:id/unarchive',
]);

const [teacher, student, peer, sessionUser] = await Promise.all([
  createTeacher(t, 'Fuzz Teacher'),
  createStudent(t, 'Fuzz Student'),
  createStudent(t, 'Fuzz Peer'),
  createStudent(t, 'Fuzz Session'),
]);

interface Context {
  headers: Record<string, string>;
  /** The id a valid request names in its path, chosen by the resource the path is about. */
  id: string;
  courseId: string;
  /** A member of the course (for the roster routes' {studentId}). */
  studentId: string;
  /** The course's join code (for {code} and the join body). */
  joinCode: string;
  /** A co-teacher of the course (for {userId}, DESIGN §20). */
  userId: string;
  /** An open invitation to co-teach the course, sent to the caller (for {token}). */
  inviteToken: string;
  /** An open invitation of the course, by id (for {inviteId}: the owner cancels it). */
  inviteId: string;
  /** For POST /api/auth/reset: an unused reset token (a success spends it, and the context is renewed). */
  resetToken?: string;
  /** For GET /api/calendar/:file: the fuzz student's feed (`<token>.ics`), made once. */
  feedFile: string;
  /** For the live lessons' {qid}: the open question of the context's lesson. */
  qid: string;
  /** For the OIDC callback: the state sealed in the context's flow cookie. */
  oidcState?: string;
}

let feedFile: string | undefined;
/** The fuzz student's personal feed file; only this route's context asks, and nothing fuzzed resets it. */
async function studentFeedFile(): Promise<string> {
  if (!feedFile) {
    const res = await t.app.inject({ method: 'POST', url: '/api/calendar/feed', headers: student.headers });
    feedFile = new URL(res.json<{ url: string }>().url).pathname.split('/').pop()!;
  }
  return feedFile;
}

/** The id of a Return of a held grade, scheduled with undo (for DELETE /api/returns/:id). */
async function scheduledReturn(assignmentId: string, submissionId: string): Promise<string> {
  const as = { headers: teacher.headers };
  await t.app.inject({
    method: 'PATCH',
    url: `/api/assignments/${assignmentId}`,
    payload: { gradeRelease: 'manual' },
    ...as,
  });
  await t.app.inject({
    method: 'PATCH',
    url: `/api/submissions/${submissionId}`,
    payload: { grade: 5, baseVersion: 0 },
    ...as,
  });
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/assignments/${assignmentId}/return`,
    payload: { undoable: true },
    ...as,
  });
  return res.json<{ id: string }>().id;
}

/** A reset token for a user of its own, read from the mail as a person would. */
async function freshResetToken(): Promise<string> {
  const { email } = await createVerifiedUser(t, { fullName: 'Fuzz Reset' });
  await t.app.inject({ method: 'POST', url: '/api/auth/recover', payload: { email } });
  const mail = await t.mail.nthTo(email, 2);
  return new URL(resetLinkIn(mail)).searchParams.get('token') ?? '';
}

/** A post by the fuzz teacher and the peer's comment on it, for the routes under /api/posts and /api/comments. */
async function postAndComment(courseId: string): Promise<{ posts: string; comments: string }> {
  const post = await t.app.inject({
    method: 'POST',
    url: `/api/courses/${courseId}/posts`,
    headers: teacher.headers,
    payload: { text: 'Fuzz post' },
  });
  const postId = post.json<{ id: string }>().id;
  const comment = await t.app.inject({
    method: 'POST',
    url: `/api/posts/${postId}/comments`,
    headers: peer.headers,
    payload: { text: 'Fuzz comment' },
  });
  return { posts: postId, comments: comment.json<{ id: string }>().id };
}

/** A live lesson of the course with an open multiple-choice question whose right answer is the first choice. */
async function liveLesson(courseId: string): Promise<{ lessons: string; qid: string }> {
  const started = await t.app.inject({
    method: 'POST',
    url: `/api/courses/${courseId}/lessons`,
    headers: teacher.headers,
  });
  const lessonId = started.json<{ id: string }>().id;
  const pushed = await t.app.inject({
    method: 'POST',
    url: `/api/lessons/${lessonId}/questions`,
    headers: teacher.headers,
    payload: { kind: 'multiple_choice', prompt: 'Fuzz question', options: ['A', 'B'], correct: 0 },
  });
  return { lessons: lessonId, qid: pushed.json<{ id: string }>().id };
}

/** A course's bank question, for the bank's {qid} (issue 29). */
async function bankQuestion(courseId: string): Promise<{ qid: string }> {
  const saved = await t.app.inject({
    method: 'POST',
    url: `/api/courses/${courseId}/question-bank`,
    headers: teacher.headers,
    payload: { kind: 'true_false', prompt: 'Fuzz bank question', correct: true },
  });
  return { qid: saved.json<{ id: string }>().id };
}
/** Routes whose body is a live lesson's question (pushed, or saved to the bank). */
const QUESTION_BODIES = ['POST /api/lessons/:id/questions', 'POST /api/courses/:id/question-bank'];

const GRADE_STUDENT = 'PUT /api/assignments/:id/grades/:studentId';
const SIGN_OUT_SESSION = 'DELETE /api/me/sessions/:id';

/** The id of the session an access token belongs to, as the sessions list marks it. */
async function sessionIdOf(accessToken: string): Promise<string> {
  const res = await t.app.inject({ method: 'GET', url: '/api/me/sessions', headers: bearer(accessToken) });
  return res.json<{ sessions: Array<{ id: string; current: boolean }> }>().sessions.find((s) => s.current)!
    .id;
}
const CLEAR_GRADE = 'DELETE /api/assignments/:id/grades/:studentId';

async function freshContext(route: Route): Promise<Context> {
  const course = await createCourse(t, teacher);
  await Promise.all([joinCourse(t, peer, course), joinCourse(t, student, course)]);
  const assignment = await createAssignment(t, teacher, course, { maxPoints: 10 });
  const submission = await submit(t, peer, assignment);
  // The student's own work for the routes about it: a submission to take back or read, a draft to read.
  if (
    route.key === 'DELETE /api/assignments/:id/submission' ||
    route.key === 'GET /api/assignments/:id/submission'
  )
    await submit(t, student, assignment);
  // A grade for the student's missing work, to take back.
  if (route.key === CLEAR_GRADE)
    await t.app.inject({
      method: 'PUT',
      url: `/api/assignments/${assignment.id}/grades/${student.id}`,
      headers: teacher.headers,
      payload: { grade: 0, baseVersion: 0 },
    });
  if (route.key === 'GET /api/assignments/:id/draft')
    await t.app.inject({
      method: 'PUT',
      url: `/api/assignments/${assignment.id}/draft`,
      headers: student.headers,
      payload: { content: 'A draft', baseVersion: 0 },
    });
  const resource = /\/api\/(\w+)\/\{id\}/.exec(route.path)?.[1];
  const ids: Record<string, string> = {
    // Only a course without assignments can be deleted.
    courses: route.key === 'DELETE /api/courses/:id' ? (await createCourse(t, teacher)).id : course.id,
    assignments: assignment.id,
    submissions: submission.id,
    // A file to download or remove (DESIGN §18): the teacher's materials on the assignment.
    ...(route.path.startsWith('/api/files/')
      ? {
          files: await uploadFile(
            t,
            teacher,
            { purpose: 'assignment', targetId: assignment.id, name: 'sheet.txt' },
            Buffer.from('sheet'),
          ),
        }
      : {}),
    // A post of the course's and the peer's comment on it (conversations, issue 27).
    ...(route.path.startsWith('/api/posts/') || route.path.startsWith('/api/comments/')
      ? await postAndComment(course.id)
      : {}),
    // A live lesson of the course with an open question (issue 29), for the routes under /api/lessons/{id}.
    ...(route.path.startsWith('/api/lessons/{id}') ? await liveLesson(course.id) : {}),
    ...(route.path.includes('/question-bank/{qid}') ? await bankQuestion(course.id) : {}),
    // Undo needs a Return waiting out its window: the peer's grade held, then returned with undo.
    ...(route.key === 'DELETE /api/returns/:id'
      ? { returns: await scheduledReturn(assignment.id, submission.id) }
      : {}),
  };
  // The bin's routes (DESIGN §17) name the assignment by kind and id; a restore needs it binned.
  const binned = route.path.startsWith('/api/bin/{kind}/{id}');
  if (route.key === 'POST /api/bin/:kind/:id/restore')
    await t.app.inject({
      method: 'DELETE',
      url: `/api/assignments/${assignment.id}`,
      headers: teacher.headers,
    });
  const acting = ACTING[route.key] ?? (route.secured ? 'teacher' : 'public');
  let headers: Record<string, string> = {};
  // Co-teachers (DESIGN §20): a teacher of the course's to remove; an invitation mailed to the caller.
  let coTeacherId = random.uuid();
  if (route.path.includes('{userId}')) {
    const co = await createTeacher(t, 'Fuzz Co-teacher');
    await addCoTeacher(t, teacher, course, co);
    coTeacherId = co.id;
  }
  let inviteToken = 'none';
  let invitee: Actor | undefined;
  if (route.path.includes('{token}')) {
    invitee = await createTeacher(t, 'Fuzz Invitee');
    inviteToken = await inviteCoTeacher(t, teacher, course, invitee.email);
  }
  let inviteId = random.uuid();
  if (route.path.includes('{inviteId}')) {
    const email = uniqueEmail('fuzz-invite');
    await inviteCoTeacher(t, teacher, course, email);
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/courses/${course.id}/teachers`,
      headers: teacher.headers,
    });
    inviteId = list
      .json<{ invites: Array<{ id: string; email: string }> }>()
      .invites.find((i) => i.email === email)!.id;
  }
  if (acting === 'teacher') headers = invitee?.headers ?? teacher.headers;
  if (acting === 'student') headers = student.headers;
  let ownOther: string | undefined;
  if (acting === 'own') {
    const own = await createStudent(t, 'Fuzz Own');
    headers = own.headers;
    // Signing one device out needs another device of the caller's: a second sign-in.
    if (route.key === SIGN_OUT_SESSION)
      ownOther = await sessionIdOf((await signIn(t, own.email)).accessToken);
  }
  if (acting === 'session') {
    const session = await signIn(t, sessionUser.email);
    headers = { ...bearer(session.accessToken), cookie: session.cookie };
  }
  let oidcState: string | undefined;
  if (acting === 'oidc') {
    const started = await t.app.inject({ method: 'GET', url: '/api/auth/oidc/start' });
    const flow = started.cookies.find((c) => c.name === 'classwave_oidc')!;
    headers = { cookie: `${flow.name}=${flow.value}` };
    oidcState = new URL(String(started.headers.location)).searchParams.get('state') ?? undefined;
  }
  return {
    headers,
    ...(oidcState ? { oidcState } : {}),
    qid: ids.qid ?? random.uuid(),
    id: ownOther ?? (binned ? assignment.id : ((resource && ids[resource]) ?? random.uuid())),
    courseId: course.id,
    // A grade for missing work (DESIGN §17): the fuzz student has not submitted; the peer has.
    studentId: [GRADE_STUDENT, CLEAR_GRADE].includes(route.key) ? student.id : peer.id,
    joinCode: course.joinCode!,
    userId: coTeacherId,
    inviteToken,
    inviteId,
    feedFile: route.key === 'GET /api/calendar/:file' ? await studentFeedFile() : 'none.ics',
    ...(['POST /api/auth/reset', 'POST /api/auth/reset/check'].includes(route.key)
      ? { resetToken: await freshResetToken() }
      : {}),
  };
}

/** A valid value for a field, by its schema and (for what a schema cannot say) its name. */
function validValue(route: Route, name: string, schema: JsonSchema, ctx: Context): unknown {
  // A grade write names the version it started from: a fresh submission's (a success renews the context).
  if (name === 'baseVersion') return 0;
  // An assignment in no grade category: the fuzz course has none (categories.test.ts puts it in one).
  if (name === 'categoryId') return null;
  // Scores name a rubric's criterion and level ids (DESIGN §17): the fuzz assignment has no rubric,
  // so a valid grade body clears them (its own category sends scores: fuzz-cases.ts rubricBodies).
  if (name === 'rubric') return null;
  // A post goes out now (issue 27): a publishAt later would make the fuzz post a scheduled one.
  if (name === 'publishAt') return null;
  // A live lesson's question (issue 29): a multiple-choice one of two choices, the first right; answers pick it.
  if (name === 'kind' && QUESTION_BODIES.includes(route.key)) return 'multiple_choice';
  if (name === 'options') return ['Valid A', 'Valid B'];
  if (name === 'correct' || name === 'answer') return 0;
  if (name === 'anonymous') return false;
  // A roster import's CSV (DESIGN §20): one student, a fresh address each time.
  if (name === 'csv') return `name,email\nFuzz Roster,${uniqueEmail('roster')}\n`;
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf) return validValue(route, name, schema.anyOf[0]!, ctx);
  if (schema.type === 'integer' || schema.type === 'number')
    return Math.min(schema.maximum ?? 5, Math.max(schema.minimum ?? 5, 5));
  if (schema.type === 'boolean') return true;
  // Notifications to mark read: ids of no one's (ignored, still a success).
  if (schema.type === 'array' && name === 'ids') return [random.uuid()];
  if (schema.type === 'array')
    return Array.from({ length: schema.minItems ?? 0 }, () =>
      validValue(route, name, schema.items ?? {}, ctx),
    );
  if (schema.type === 'object')
    return Object.fromEntries(
      Object.entries(schema.properties ?? {}).map(([key, s]) => [key, validValue(route, key, s, ctx)]),
    );
  if (schema.format === 'email')
    return route.key.endsWith('/signup') || route.key === 'POST /api/courses/:id/teachers'
      ? uniqueEmail('fuzz')
      : sessionUser.email;
  if (schema.format === 'uuid')
    return name === 'courseId' ? ctx.courseId : name === 'studentId' ? ctx.studentId : random.uuid();
  if (schema.format === 'date-time') return inDays(7);
  if (schema.format === 'uri') return `${TEST_ORIGIN}/login`;
  // Every password field gets the real one: a new password equal to the old keeps later requests valid.
  if (/password/i.test(name)) return PASSWORD;
  if (name === 'token') return ctx.resetToken ?? '';
  // Quiet hours: HH:MM and an IANA zone.
  if (name === 'start') return '21:00';
  if (name === 'end') return '07:00';
  if (name === 'timeZone') return 'Europe/Paris';
  if (name === 'code' && route.key === 'POST /api/courses/join') return ctx.joinCode;
  // A teacher's course codes are unique, and the fuzz teacher creates many courses.
  if (
    name === 'code' &&
    ['POST /api/courses', 'PATCH /api/courses/:id', 'POST /api/courses/:id/copy'].includes(route.key)
  )
    return `FZ${++courseCodes}`;
  return `Valid ${name}`.slice(0, schema.maxLength ?? 100);
}

/** Query values with a meaning (a time zone must exist), already encoded. */
const VALID_QUERY: Record<string, string> = {
  timeZone: encodeURIComponent('Europe/Paris'),
  before: encodeURIComponent(inDays(1)),
  from: encodeURIComponent(inDays(-1)),
  to: encodeURIComponent(inDays(30)),
  // The version of the grade for missing work that freshContext gives the student (CLEAR_GRADE).
  baseVersion: '1',
  // A file shown inline (an image or PDF; anything else is still an attachment).
  inline: '1',
  // Whose feedback files a teacher lists (anyone's id is valid; a student always gets their own).
  studentId: '00000000-0000-4000-8000-000000000001',
  // A page of the stream or of comments (issue 27).
  limit: '5',
  // The past classes instead of the current ones (DESIGN §20).
  archived: 'true',
  // A roster import's dry run (DESIGN §20); its own cases commit.
  dryRun: '1',
};

let courseCodes = 0;
const contexts = new Map<string, Context>();
const counts: Record<string, number> = {};

/** Sends one case and returns what was wrong with the answer (nothing, when all is well). */
async function send(route: Route, { name, attempt }: Case): Promise<string[]> {
  const ctx = contexts.get(route.key) ?? (await freshContext(route));
  contexts.set(route.key, ctx);
  const valid = () => (route.body ? (validValue(route, '', route.body, ctx) as Json) : undefined);
  const a = attempt(valid);
  const id = typeof a.id === 'function' ? a.id(ctx.id) : (a.id ?? ctx.id);
  const studentId =
    typeof a.studentId === 'function' ? a.studentId(ctx.studentId) : (a.studentId ?? ctx.studentId);
  const userId = typeof a.userId === 'function' ? a.userId(ctx.userId) : (a.userId ?? ctx.userId);
  const token = typeof a.token === 'function' ? a.token(ctx.inviteToken) : (a.token ?? ctx.inviteToken);
  const inviteId = typeof a.inviteId === 'function' ? a.inviteId(ctx.inviteId) : (a.inviteId ?? ctx.inviteId);
  const query = (
    a.query ??
    route.query
      // The stream's `before` is a cursor the server hands out: the first page has none.
      .filter((q) => !(q.name === 'before' && isCursor(q)))
      .map((q) =>
        q.name === 'state' && ctx.oidcState
          ? 'state={state}'
          : `${q.name}=${VALID_QUERY[q.name] ?? (q.schema.type === 'integer' ? 0 : 'fuzz')}`,
      )
      .join('&')
  )
    .replaceAll('{state}', ctx.oidcState ?? '')
    .replaceAll('{iss}', encodeURIComponent(provider.issuer));
  const path = route.path
    .replace('{id}', id)
    .replace('{kind}', 'assignment')
    .replace('{studentId}', studentId)
    .replace('{userId}', userId)
    .replace('{inviteId}', inviteId)
    .replace('{token}', token)
    .replace('{code}', ctx.joinCode)
    .replace('{file}', ctx.feedFile)
    .replace('{qid}', ctx.qid);
  const url = `${path}${query ? `?${query}` : ''}`;
  const text =
    a.body === undefined ? (route.body ? JSON.stringify(valid()) : undefined) : (a.body ?? undefined);
  const headers: Record<string, string> = { ...ctx.headers };
  const type = a.contentType === undefined ? 'application/json' : a.contentType;
  if (text !== undefined && type !== null) headers['content-type'] = type;
  counts[route.key] = (counts[route.key] ?? 0) + 1;

  let res: LightMyRequestResponse;
  try {
    res = await t.app.inject({
      method: route.method,
      url,
      headers,
      ...(text !== undefined ? { payload: text } : {}),
    });
  } catch (error) {
    return [`${name} → the request could not be sent: ${String(error)}`];
  }
  const status = res.statusCode;
  const problems = problemsWith(res, TEST_ORIGIN, [provider.issuer]);
  const excerpt = () => res.body.slice(0, 160);
  if (a.lands && res.headers.location !== `${TEST_ORIGIN}${a.lands}`)
    problems.push(`expected a redirect to ${a.lands}, got ${status} ${String(res.headers.location)}`);
  if (a.expect === 'reject' && (status < 400 || status >= 500))
    problems.push(`expected a refusal, got ${status} ${excerpt()}`);
  else if (a.status && status !== a.status && status < 500)
    problems.push(`expected ${a.status}, got ${status} ${excerpt()}`);
  if (a.expect === 'accept' && (status >= 400 || status < 200))
    problems.push(`expected success, got ${status} ${excerpt()}`);
  if (a.mentions && status === 400) {
    const message = String(res.json<{ message?: string }>().message);
    if (!message.includes(a.mentions)) problems.push(`message "${message}" does not name ${a.mentions}`);
  }
  if (a.verbatim && status >= 200 && status < 300)
    problems.push(...(await verbatimProblems(route, ctx, res, a.verbatim)));
  const polluted = prototypePolluted();
  if (polluted) problems.push(`Object.prototype polluted: ${polluted}`);

  if (status >= 200 && status < 300 && route.method !== 'GET' && !REPEATABLE.has(route.key)) {
    // A refresh rotates the session's cookie: carry on with the new one rather than sign in again.
    const rotated = res.cookies.find((c) => c.name === 'classwave_refresh' && c.value);
    const session = rotated && res.json<{ session?: { accessToken?: string } }>().session;
    if (rotated && session?.accessToken)
      ctx.headers = { ...bearer(session.accessToken), cookie: `${rotated.name}=${rotated.value}` };
    else contexts.delete(route.key);
  }
  return problems.map((p) => `${name} → ${p}`);
}

/** Sent text comes back as sent: in the answer, and in what a later read of the same thing shows. */
async function verbatimProblems(
  route: Route,
  ctx: Context,
  res: LightMyRequestResponse,
  sent: Record<string, string>,
): Promise<string[]> {
  const problems: string[] = [];
  const created = res.json<Json>();
  for (const [field, value] of Object.entries(sent))
    if (field in created && created[field] !== value)
      problems.push(`${field} came back as ${JSON.stringify(created[field]).slice(0, 80)}`);
  const id = typeof created.id === 'string' ? created.id : undefined;
  const read =
    routes.find((r) => r.method === 'GET' && r.path === `${route.path}/{id}`) ??
    routes.find((r) => r.method === 'GET' && r.path === route.path);
  if (!id || !read) return problems;
  const url = read.path.endsWith('{id}') ? read.path.replace('{id}', id) : read.path.replace('{id}', ctx.id);
  // The caller may not be allowed to read it back (a student's submission): then its teacher reads it.
  for (const headers of [ctx.headers, teacher.headers]) {
    const again = await t.app.inject({ method: 'GET', url, headers });
    if (again.statusCode !== 200) continue;
    for (const value of Object.values(sent))
      if (!again.body.includes(JSON.stringify(value)))
        problems.push(`a read of ${url} does not show ${JSON.stringify(value).slice(0, 60)}`);
    return problems;
  }
  return [...problems, `no read of ${url} succeeded`];
}

/** tus speaks headers and raw bytes, not JSON: its routes have their own hostile cases below. */
const TUS_ROUTES = new Set([
  'POST /api/uploads',
  'HEAD /api/uploads/:id',
  'PATCH /api/uploads/:id',
  'DELETE /api/uploads/:id',
]);

describe.each(routes.filter((r) => !TUS_ROUTES.has(r.key)))('$key', (route) => {
  const categories = categoriesFor(route, random);
  it.each(Object.keys(categories).filter((c) => categories[c]!.length > 0))(
    'survives %s',
    async (category) => {
      const failures: string[] = [];
      for (const c of categories[category]!) failures.push(...(await send(route, c)));
      expect(failures).toEqual([]);
    },
  );
});

describe('tus uploads (DESIGN §18)', () => {
  const b64 = (text: string) => Buffer.from(text).toString('base64');
  /** Printable ASCII (a header may carry no more), seeded. */
  const randomText = (length: number) =>
    Array.from({ length }, () => String.fromCharCode(33 + random.int(94))).join('');
  /** Sends one tus request as the fuzz student; what was wrong with the answer. */
  async function tus(
    key: string,
    name: string,
    url: string,
    method: 'POST' | 'HEAD' | 'PATCH' | 'DELETE',
    headers: Record<string, string>,
    body?: Buffer,
  ) {
    counts[key] = (counts[key] ?? 0) + 1;
    const res = await t.app.inject({
      method,
      url,
      headers: { ...student.headers, ...headers },
      ...(body ? { payload: body } : {}),
    });
    if (method === 'HEAD') return res.statusCode >= 500 ? [`${name} → answered ${res.statusCode}`] : [];
    const problems = problemsWith(res, TEST_ORIGIN);
    if (res.statusCode !== 201 && res.statusCode !== 204 && res.statusCode < 400)
      problems.push(`answered ${res.statusCode}`);
    return problems.map((p) => `${name} → ${p}`);
  }
  async function target() {
    const course = await createCourse(t, teacher);
    await joinCourse(t, student, course);
    return createAssignment(t, teacher, course);
  }

  it('survives hostile Upload-Metadata and Upload-Length', async () => {
    const assignment = await target();
    const valid = { purpose: 'submission', targetId: assignment.id, name: 'a.txt' };
    const metadata = [
      '',
      'purpose',
      'purpose !!!not-base64!!!',
      `purpose ${b64('submission')},purpose ${b64('assignment')}`,
      `__proto__ ${b64('{}')},constructor ${b64('x')},prototype ${b64('y')}`,
      tusMetadata({ ...valid, __proto__: 'polluted' } as Record<string, string>),
      tusMetadata({ ...valid, name: '../'.repeat(1000) }),
      tusMetadata({ ...valid, name: 'a\r\nContent-Type: text/html\r\n\r\n<script>' }),
      tusMetadata({ ...valid, name: '\u0000\u202e\ud800' }),
      tusMetadata({ ...valid, name: 'x'.repeat(100_000) }),
      tusMetadata({ ...valid, targetId: "' or 1=1 --" }),
      tusMetadata({ ...valid, targetId: '00000000-0000-0000-0000-000000000000' }),
      tusMetadata({ ...valid, purpose: 'feedback', studentId: 'nope' }),
      tusMetadata({ ...valid, purpose: 'feedback', studentId: student.id }),
      tusMetadata({ ...valid, purpose: 'SUBMISSION' }),
      tusMetadata({ ...valid, purpose: 'post' }),
      // A post's file names its course: the student may not, whatever the id.
      tusMetadata({ ...valid, purpose: 'post', targetId: assignment.courseId }),
      tusMetadata({ ...valid, purpose: 'post', targetId: '00000000-0000-0000-0000-000000000000' }),
      Array.from({ length: 2000 }, (_, i) => `k${i} ${b64('v')}`).join(','),
      ' , , ,',
      `purpose ${b64('submission')} extra words`,
      ...Array.from({ length: 20 }, () => `${randomText(12)} ${b64(randomText(40))}`),
    ];
    const failures: string[] = [];
    for (const [i, value] of metadata.entries())
      failures.push(
        ...(await tus('POST /api/uploads', `metadata ${i}`, '/api/uploads', 'POST', {
          ...TUS,
          'upload-length': '4',
          'upload-metadata': value,
        })),
      );
    for (const length of ['-1', 'abc', '1e3', '99999999999999999999', '', '0x10', ' 4'])
      failures.push(
        ...(await tus('POST /api/uploads', `Upload-Length "${length}"`, '/api/uploads', 'POST', {
          ...TUS,
          'upload-length': length,
          'upload-metadata': tusMetadata(valid),
        })),
      );
    failures.push(
      ...(await tus('POST /api/uploads', 'no Tus-Resumable', '/api/uploads', 'POST', {
        'upload-length': '4',
      })),
    );
    failures.push(
      ...(await tus('POST /api/uploads', 'Tus-Resumable 0.2', '/api/uploads', 'POST', {
        'tus-resumable': '0.2.0',
        'upload-length': '4',
      })),
    );
    expect(failures).toEqual([]);
  });

  it('survives hostile offsets, bodies and ids on an upload', async () => {
    const assignment = await target();
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/uploads',
      headers: {
        ...student.headers,
        ...TUS,
        'upload-length': '8',
        'upload-metadata': tusMetadata({ purpose: 'submission', targetId: assignment.id, name: 'b.bin' }),
      },
    });
    expect(created.statusCode).toBe(201);
    const location = String(created.headers.location);
    const octets = { ...TUS, 'content-type': 'application/offset+octet-stream' };
    const failures: string[] = [];
    for (const offset of ['-1', 'abc', '99999', '', '1.5', '4'])
      failures.push(
        ...(await tus(
          'PATCH /api/uploads/:id',
          `offset "${offset}"`,
          location,
          'PATCH',
          { ...octets, 'upload-offset': offset },
          Buffer.from('1234'),
        )),
      );
    failures.push(
      ...(await tus(
        'PATCH /api/uploads/:id',
        'too many bytes',
        location,
        'PATCH',
        { ...octets, 'upload-offset': '0' },
        Buffer.alloc(64, 1),
      )),
    );
    failures.push(
      ...(await tus(
        'PATCH /api/uploads/:id',
        'JSON body',
        location,
        'PATCH',
        { ...TUS, 'upload-offset': '0', 'content-type': 'application/json' },
        Buffer.from('{}'),
      )),
    );
    for (const id of ['not-a-uuid', '..%2F..%2Fetc%2Fpasswd', '%00', 'x'.repeat(3000), random.uuid()])
      for (const method of ['HEAD', 'PATCH', 'DELETE'] as const)
        failures.push(
          ...(await tus(
            `${method} /api/uploads/:id`,
            `${method} ${id.slice(0, 20)}`,
            `/api/uploads/${id}`,
            method,
            { ...octets, 'upload-offset': '0' },
            method === 'PATCH' ? Buffer.from('1') : undefined,
          )),
        );
    failures.push(...(await tus('HEAD /api/uploads/:id', 'HEAD', location, 'HEAD', TUS)));
    failures.push(...(await tus('DELETE /api/uploads/:id', 'DELETE', location, 'DELETE', TUS)));
    expect(failures).toEqual([]);
  });
});

describe("a post's fileIds (DESIGN §19)", () => {
  it('refuses hostile file lists with a 4xx, never a 500, and posts nothing for them', async () => {
    const course = await createCourse(t, teacher);
    const other = await createCourse(t, teacher);
    const elsewhere = await uploadFile(
      t,
      teacher,
      { purpose: 'post', targetId: other.id, name: 'x.txt' },
      Buffer.from('x'),
    );
    await joinCourse(t, student, course);
    const studentsFile = await uploadFile(
      t,
      student,
      { purpose: 'submission', targetId: (await createAssignment(t, teacher, course)).id, name: 'w.txt' },
      Buffer.from('w'),
    );
    const lists: unknown[] = [
      'not a list',
      [null],
      [''],
      ["' or 1=1 --"],
      [elsewhere, elsewhere],
      Array.from({ length: 11 }, () => randomUUID()),
      [randomUUID()],
      [elsewhere],
      [studentsFile],
      [{ id: elsewhere }],
    ];
    const failures: string[] = [];
    for (const [i, fileIds] of lists.entries()) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/courses/${course.id}/posts`,
        headers: teacher.headers,
        payload: { text: 'With files', fileIds },
      });
      if (res.statusCode < 400 || res.statusCode >= 500) failures.push(`list ${i} → ${res.statusCode}`);
      failures.push(...problemsWith(res, TEST_ORIGIN).map((p) => `list ${i} → ${p}`));
    }
    expect(failures).toEqual([]);
    const listed = await t.app.inject({
      method: 'GET',
      url: `/api/courses/${course.id}/posts`,
      headers: teacher.headers,
    });
    expect(listed.json<{ items: unknown[] }>().items).toEqual([]);
  });
});

describe('the Idempotency-Key header', () => {
  const hostileKeys = [
    '',
    ' ',
    'not-a-uuid',
    '00000000-0000-0000-0000-00000000000g',
    "'; drop table submissions; --",
    '{"$ne":null}',
    'x'.repeat(10_000),
    '5f0c3c4e-9d1a-4c8e-8f43-2a1b7c9d0e11, 5f0c3c4e-9d1a-4c8e-8f43-2a1b7c9d0e12',
    '%00',
    '\u0000',
  ];
  it.each(hostileKeys.map((k) => [k.slice(0, 40), k]))(
    'refuses the key %j with a 4xx naming the header, storing nothing',
    async (_label, key) => {
      const course = await createCourse(t, teacher);
      await joinCourse(t, student, course);
      const assignment = await createAssignment(t, teacher, course);
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/assignments/${assignment.id}/submissions`,
        headers: { ...student.headers, 'idempotency-key': key },
        payload: { content: 'An answer' },
      });
      expect(problemsWith(res, TEST_ORIGIN)).toEqual([]);
      expect(res.statusCode).toBe(400);
      expect(res.json<{ message: string }>().message).toContain('idempotency-key');
      const list = await t.app.inject({
        method: 'GET',
        url: `/api/assignments/${assignment.id}/submissions`,
        headers: teacher.headers,
      });
      expect(list.json()).toEqual([]);
    },
  );
});

describe('path traversal outside the API', () => {
  // Sent raw over a socket: URL parsing on the client side would resolve the dot segments first.
  const paths = [
    '/../../../../etc/passwd',
    '/assets/../../../../etc/passwd',
    '/assets/..%2f..%2f..%2fpackage.json',
    '/%2e%2e/%2e%2e/%2e%2e/package.json',
    '/..%5c..%5c..%5cpackage.json',
    '/api/../../server/src/app.ts',
    '/socket.io/../../package.json',
    '/index.html%00.json',
    '/assets/%c0%ae%c0%ae/%c0%ae%c0%ae/package.json',
  ];
  let base: string;
  beforeAll(async () => {
    base = await listen(t.app);
  });
  it.each(paths)('serves no file from outside the client for %s', async (path) => {
    const { status, body } = await rawGet(base, path);
    expect(status).toBeLessThan(500);
    expect(body).not.toMatch(/root:x:0:0|"workspaces"|buildApp|"name": "classwave"/);
  });
});

/** A GET whose path is sent exactly as given (fetch would normalise it). */
function rawGet(base: string, path: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, method: 'GET' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('after the fuzzing', () => {
  it('still answers the health check and a normal signed-in request', async () => {
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    const cpu = process.cpuUsage(started.cpu);
    console.info(
      `fuzz: ${total} requests over ${routes.length} routes (seed ${SEED}) in ${Date.now() - started.wall} ms, ` +
        `${Math.round((cpu.user + cpu.system) / 1000)} ms of CPU`,
      counts,
    );
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    const me = await t.app.inject({ method: 'GET', url: '/api/me', headers: teacher.headers });
    expect(me.json()).toMatchObject({ profile: { fullName: 'Fuzz Teacher', role: 'teacher' } });
    const course = await createCourse(t, teacher, { title: 'After the storm' });
    expect(course.title).toBe('After the storm');
    expect(prototypePolluted()).toBeUndefined();
  });

  it('fuzzed every route the API documents', () => {
    expect(Object.keys(counts).sort()).toEqual(routes.map((r) => r.key).sort());
    expect(routes.length).toBeGreaterThan(15);
  });
});
