import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Assignment, Course, OwnSubmission } from '@classwave/shared';
import { bearer, createTestApp, TEST_ORIGIN, uniqueEmail, type TestApp } from '../support/app.js';
import { OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, TestOidcProvider } from '../support/oidc-provider.js';
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
import { TUS, createUpload, tusMetadata, uploadFile } from '../support/uploads.js';
import { eq } from 'drizzle-orm';
import { comments, courseMembers, courseTeachers, files, posts, questionBank } from '../../src/db/schema.js';
import { pushQuestion, startLesson } from '../support/lessons.js';

/**
 * Who may do what (spec §6, DESIGN §6): every teaching endpoint × every kind of caller → the
 * status the server answers, whatever the client sends. Each row acts on fresh data of its own.
 */
let t: TestApp;
let owner: Actor;
/** Co-teaches every course of the owner's the rows act on (DESIGN §20). */
let coTeacher: Actor;
let otherTeacher: Actor;
let studentA: Actor;
let studentB: Actor;
let nonMember: Actor;
let formerMember: Actor;
let otherMember: Actor;
/** An active member of the fixtures' courses whom their assignments are not for (DESIGN §20). */
let unassigned: Actor;
let signedOut: { headers: { authorization: string } };
/** A course of the other teacher's, which the owner and co-teacher do not teach. */
let otherTeachersCourse: Course;
/** Paths of a student's personal ICS feed: the live one, and one reset since. */
const feeds = { live: '', reset: '' };

const NAMES = {
  anonymous: 'Nobody',
  signedOut: 'Gone Student',
  owner: 'Owner Teacher',
  coTeacher: 'Co Teacher',
  otherTeacher: 'Other Teacher',
  studentA: 'Student A',
  studentB: 'Student B',
  nonMember: 'Non Member',
  formerMember: 'Former Member',
  otherMember: 'Other Member',
  unassigned: 'Unassigned Member',
};

/** The school's OpenID provider (DESIGN §20), so the sign-in routes act as on a school's server. */
let provider: TestOidcProvider;

beforeAll(async () => {
  provider = await new TestOidcProvider().start(TEST_ORIGIN);
  t = await createTestApp({
    env: {
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID,
      OIDC_CLIENT_SECRET,
      OIDC_ROLE_RULES: 'teacher:@staff.school.test,student:@school.test',
    },
  });
  [owner, coTeacher, otherTeacher, studentA, studentB, nonMember, formerMember, otherMember, unassigned] =
    await Promise.all([
      createTeacher(t, NAMES.owner),
      createTeacher(t, NAMES.coTeacher),
      createTeacher(t, NAMES.otherTeacher),
      createStudent(t, NAMES.studentA),
      createStudent(t, NAMES.studentB),
      createStudent(t, NAMES.nonMember),
      createStudent(t, NAMES.formerMember),
      createStudent(t, NAMES.otherMember),
      createStudent(t, NAMES.unassigned),
    ]);
  otherTeachersCourse = await createCourse(t, otherTeacher);
  await joinCourse(t, otherMember, otherTeachersCourse);
  const gone = await createStudent(t, 'Gone Student');
  await t.app.inject({ method: 'POST', url: '/api/auth/signout', headers: gone.headers });
  signedOut = { headers: bearer(gone.token) };
  // A feed of its own user's (the rows below reset every caller's): made twice, the first reset by the second.
  const feedOwner = await createStudent(t, 'Feed Owner');
  await joinCourse(t, feedOwner, await createCourse(t, owner));
  const feed = async () =>
    new URL(
      (await t.app.inject({ method: 'POST', url: '/api/calendar/feed', headers: feedOwner.headers })).json<{
        url: string;
      }>().url,
    ).pathname;
  feeds.reset = await feed();
  feeds.live = await feed();
});
afterAll(async () => {
  await t.close();
  await provider.stop();
});

/**
 * Students A and B are active members of the fixture's courses; the unassigned member is one too,
 * but the fixture's assignment is for A and B only; the non-member never joined; the former member
 * joined and left; the other member is in another teacher's course only.
 */
type Who =
  | 'anonymous'
  | 'signedOut'
  | 'studentA'
  | 'studentB'
  | 'nonMember'
  | 'formerMember'
  | 'otherMember'
  | 'unassigned'
  | 'owner'
  | 'coTeacher'
  | 'otherTeacher';
const headersOf = (who: Who) =>
  ({
    anonymous: {},
    signedOut: signedOut.headers,
    studentA: studentA.headers,
    studentB: studentB.headers,
    nonMember: nonMember.headers,
    formerMember: formerMember.headers,
    otherMember: otherMember.headers,
    unassigned: unassigned.headers,
    owner: owner.headers,
    coTeacher: coTeacher.headers,
    otherTeacher: otherTeacher.headers,
  })[who];

interface Fixture {
  course: Course;
  assignment: Assignment;
  /** Student A's submission to `assignment`. */
  submission: OwnSubmission;
  /** A course of the owner's with no assignments, which may be deleted. */
  emptyCourse: Course;
  /** A Return of student A's held grade waiting out its undo window (rows that `prepare` it). */
  returnId?: string;
  /** Scores choosing every criterion's top level of the assignment's rubric (rows that `prepare` one). */
  scores?: Record<string, string>;
  /** A file of the row's own (DESIGN §18: rows that `prepare` one). */
  fileId?: string;
  /** A co-teacher invitation's token (DESIGN §20: rows that `prepare` one). */
  inviteToken?: string;
  /** The same invitation's id, as the owner's list shows it. */
  inviteId?: string;
}

/** The owner's course: a second assignment, student A's file on it handed in with a submit. */
async function handedInFile(f: Fixture): Promise<Partial<Fixture>> {
  const second = await createAssignment(t, owner, f.course);
  const fileId = await uploadFile(
    t,
    studentA,
    { purpose: 'submission', targetId: second.id, name: 'work.txt' },
    Buffer.from('work'),
  );
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/assignments/${second.id}/submissions`,
    headers: studentA.headers,
    payload: { content: 'Attached', fileIds: [fileId] },
  });
  if (res.statusCode !== 201) throw new Error(`handedInFile: ${res.statusCode} ${res.body}`);
  return { fileId };
}
/** Student A's file on the fixture's course, not handed in (a second assignment, no submit). */
async function unsubmittedFile(f: Fixture): Promise<Partial<Fixture>> {
  const second = await createAssignment(t, owner, f.course);
  const fileId = await uploadFile(
    t,
    studentA,
    { purpose: 'submission', targetId: second.id, name: 'draft.txt' },
    Buffer.from('draft'),
  );
  return { fileId };
}
/** The owner's materials on the fixture's assignment. */
async function materials(f: Fixture): Promise<Partial<Fixture>> {
  const fileId = await uploadFile(
    t,
    owner,
    { purpose: 'assignment', targetId: f.assignment.id, name: 'sheet.txt' },
    Buffer.from('sheet'),
  );
  return { fileId };
}
/** Feedback for student A on the fixture's assignment, its grade held (manual release). */
async function heldFeedback(f: Fixture): Promise<Partial<Fixture>> {
  await t.app.inject({
    method: 'PATCH',
    url: `/api/assignments/${f.assignment.id}`,
    headers: owner.headers,
    payload: { gradeRelease: 'manual' },
  });
  const graded = await t.app.inject({
    method: 'PATCH',
    url: `/api/submissions/${f.submission.id}`,
    headers: owner.headers,
    payload: { grade: 7, baseVersion: 0 },
  });
  if (graded.statusCode !== 200) throw new Error(`heldFeedback: ${graded.statusCode} ${graded.body}`);
  const fileId = await uploadFile(
    t,
    owner,
    { purpose: 'feedback', targetId: f.assignment.id, studentId: studentA.id, name: 'notes.txt' },
    Buffer.from('notes'),
  );
  return { fileId };
}
/** Student B's upload to the fixture's assignment, created and half sent. */
async function pendingUpload(f: Fixture): Promise<Partial<Fixture>> {
  const created = await createUpload(
    t,
    studentB,
    { purpose: 'submission', targetId: f.assignment.id, name: 'half.bin' },
    4,
  );
  if (created.statusCode !== 201) throw new Error(`pendingUpload: ${created.statusCode} ${created.body}`);
  return { fileId: String(created.headers.location).split('/').pop()! };
}
/** Only `who` gets `status`; other signed-in callers 404 (a file's existence does not leak). */
const only = (answers: Partial<Record<Who, number>>): Expected => ({
  ...everyoneSignedIn(404),
  ...answers,
});

/** A 10-point rubric of one criterion on the fixture's assignment (DESIGN §17); its top level as scores. */
async function withRubric(f: Fixture): Promise<Partial<Fixture>> {
  const res = await t.app.inject({
    method: 'PUT',
    url: `/api/assignments/${f.assignment.id}/rubric`,
    headers: owner.headers,
    payload: { criteria: [{ title: 'All of it', levels: [{ title: 'Done', points: 10 }] }] },
  });
  if (res.statusCode !== 200) throw new Error(`withRubric: ${res.statusCode} ${res.body}`);
  const [criterion] = res.json<{
    rubric: { criteria: Array<{ id: string; levels: Array<{ id: string }> }> };
  }>().rubric.criteria;
  return { scores: { [criterion!.id]: criterion!.levels[0]!.id } };
}

/** Student A's submission graded and held (manual release), and its Return scheduled with undo. */
async function scheduledReturn(f: Fixture): Promise<Partial<Fixture>> {
  const as = { headers: owner.headers };
  const steps = [
    {
      method: 'PATCH' as const,
      url: `/api/assignments/${f.assignment.id}`,
      payload: { gradeRelease: 'manual' },
    },
    {
      method: 'PATCH' as const,
      url: `/api/submissions/${f.submission.id}`,
      payload: { grade: 7, baseVersion: 0 },
    },
    {
      method: 'POST' as const,
      url: `/api/assignments/${f.assignment.id}/return`,
      payload: { undoable: true },
    },
  ];
  let last: { statusCode: number; body: string; json: () => { id: string } } | undefined;
  for (const step of steps) {
    last = await t.app.inject({ ...step, ...as });
    if (last.statusCode >= 300) throw new Error(`scheduledReturn: ${last.statusCode} ${last.body}`);
  }
  return { returnId: last!.json().id };
}
/** The fixture's assignment, with student A's work, moved to the bin by its teacher. */
async function binned(f: Fixture): Promise<Partial<Fixture>> {
  const res = await t.app.inject({
    method: 'DELETE',
    url: `/api/assignments/${f.assignment.id}`,
    headers: owner.headers,
  });
  if (res.statusCode !== 204) throw new Error(`binned: ${res.statusCode} ${res.body}`);
  return {};
}
/** The fixture's empty course moved to the bin by its teacher. */
async function binnedCourse(f: Fixture): Promise<Partial<Fixture>> {
  const res = await t.app.inject({
    method: 'DELETE',
    url: `/api/courses/${f.emptyCourse.id}`,
    headers: owner.headers,
  });
  if (res.statusCode !== 204) throw new Error(`bin course: ${res.statusCode} ${res.body}`);
  return {};
}
/** The fixture's course archived by its owner (DESIGN §20). */
async function archivedCourse(f: Fixture): Promise<Partial<Fixture>> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/courses/${f.course.id}/archive`,
    headers: owner.headers,
  });
  if (res.statusCode !== 200) throw new Error(`archive: ${res.statusCode} ${res.body}`);
  return {};
}
/** The fixture's empty (co-taught) course archived by its owner. */
async function archivedEmptyCourse(f: Fixture): Promise<Partial<Fixture>> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/courses/${f.emptyCourse.id}/archive`,
    headers: owner.headers,
  });
  if (res.statusCode !== 200) throw new Error(`archive: ${res.statusCode} ${res.body}`);
  return {};
}
/** The fixture's assignment given to student A only (DESIGN §20): student B is then the unassigned member. */
async function forAOnly(f: Fixture): Promise<Partial<Fixture>> {
  const res = await t.app.inject({
    method: 'PATCH',
    url: `/api/assignments/${f.assignment.id}`,
    headers: owner.headers,
    payload: { assignees: [studentA.id] },
  });
  if (res.statusCode !== 200) throw new Error(`forAOnly: ${res.statusCode} ${res.body}`);
  return {};
}
/** A second assignment of the fixture's course, scheduled for tomorrow: nobody's but its teachers' yet. */
async function scheduledLater(f: Fixture): Promise<Partial<Fixture>> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/assignments',
    headers: owner.headers,
    payload: { title: 'Later', dueDate: inDays(3), courseId: f.course.id, publishAt: inDays(1) },
  });
  if (res.statusCode !== 201) throw new Error(`scheduledLater: ${res.statusCode} ${res.body}`);
  return { assignment: res.json<Assignment>() };
}
async function fixture(): Promise<Fixture> {
  const [own, emptyCourse] = await Promise.all([createCourse(t, owner), createCourse(t, owner)]);
  // Written straight to the database (the invitation and its mailed link, 60 % of a fixture made
  // through the API, have rows and tests of their own).
  await t.app.core.db.insert(courseTeachers).values(
    [own, emptyCourse].map((course) => ({
      courseId: course.id,
      teacherId: coTeacher.id,
      invitedBy: owner.id,
    })),
  );
  await Promise.all([
    ...[studentA, studentB, formerMember, unassigned].map((s) => joinCourse(t, s, own)),
    ...[studentA, studentB, unassigned].map((s) => joinCourse(t, s, emptyCourse)),
  ]);
  await t.app.inject({ method: 'POST', url: `/api/courses/${own.id}/leave`, headers: formerMember.headers });
  // For A and B: the unassigned member is in the class, and this assignment is not theirs.
  const assignment = await createAssignment(t, owner, own, {
    maxPoints: 10,
    assignees: [studentA.id, studentB.id],
  });
  const submission = await submit(t, studentA, assignment);
  // Student B has a draft at version 1 (DESIGN §12); Student A's went with their submission.
  const draft = await t.app.inject({
    method: 'PUT',
    url: `/api/assignments/${assignment.id}/draft`,
    headers: studentB.headers,
    payload: { content: 'Half an answer', baseVersion: 0 },
  });
  if (draft.statusCode !== 200) throw new Error(`draft: ${draft.statusCode} ${draft.body}`);
  return { course: own, assignment, submission, emptyCourse };
}

interface Row {
  endpoint: string;
  /** Data of the row's own beyond the fixture (e.g. a scheduled Return to undo). */
  prepare?: (f: Fixture) => Promise<Partial<Fixture>>;
  request: (
    f: Fixture,
    who: Who,
  ) => {
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';
    url: string;
    body?: Buffer;
    payload?: object;
    headers?: Record<string, string>;
  };
  expected: Expected;
}

/**
 * The answers of a row. The co-teacher answers as the owner unless the row says otherwise
 * (DESIGN §20: all but deleting or archiving the course, removing the owner, transferring).
 */
type Expected = Record<Exclude<Who, 'coTeacher'>, number> & { coTeacher?: number };
const answersOf = (expected: Expected) =>
  Object.entries({ coTeacher: expected.owner, ...expected }) as Array<[Who, number]>;

const everyoneSignedIn = (status: number): Expected => ({
  anonymous: 401,
  signedOut: 401,
  studentA: status,
  studentB: status,
  nonMember: status,
  formerMember: status,
  otherMember: status,
  unassigned: status,
  owner: status,
  otherTeacher: status,
});
/** Students in the course get `member`, students who cannot see it 404 (DESIGN §11), teachers as given. */
const byMembership = (member: number, owner: number, otherTeacher: number): Expected => ({
  anonymous: 401,
  signedOut: 401,
  studentA: member,
  studentB: member,
  nonMember: 404,
  formerMember: 404,
  otherMember: 404,
  unassigned: member,
  owner,
  otherTeacher,
});
/**
 * A route of one assignment: as by membership, but the member it is not for cannot see it (404,
 * DESIGN §20: an assignment not given to a student does not exist for them).
 */
const byAssignment = (member: number, owner: number, otherTeacher: number): Expected => ({
  ...byMembership(member, owner, otherTeacher),
  unassigned: 404,
});
/** Anyone at all, signed in or not: the same answer (a feed's token is its only secret). */
const anyone = (status: number): Expected => ({
  ...everyoneSignedIn(status),
  anonymous: status,
  signedOut: status,
});
const teachersOnly = (status: number): Expected => ({
  ...everyoneSignedIn(403),
  owner: status,
  otherTeacher: status,
});

/** An invitation to the other teacher to co-teach the fixture's course (DESIGN §20). */
async function invitation(f: Fixture): Promise<Partial<Fixture>> {
  const inviteToken = await inviteCoTeacher(t, owner, f.course, otherTeacher.email);
  const list = await t.app.inject({
    method: 'GET',
    url: `/api/courses/${f.course.id}/teachers`,
    headers: owner.headers,
  });
  const invites = list.json<{ invites: Array<{ id: string; email: string }> }>().invites;
  return { inviteToken, inviteId: invites.find((i) => i.email === otherTeacher.email)!.id };
}

/** The caller's own user id (a made-up one for callers with no account). */
const ownIdOf = (who: Who): string =>
  ({
    anonymous: randomUUID(),
    signedOut: randomUUID(),
    studentA: studentA.id,
    studentB: studentB.id,
    nonMember: nonMember.id,
    formerMember: formerMember.id,
    otherMember: otherMember.id,
    unassigned: unassigned.id,
    owner: owner.id,
    coTeacher: coTeacher.id,
    otherTeacher: otherTeacher.id,
  })[who];

const table: Row[] = [
  // Co-teachers (DESIGN §20): the owner invites and removes; the teachers see who teaches; only
  // the teacher account invited accepts (the owner and co-teacher hold the wrong address: 403).
  {
    endpoint: 'GET /api/courses/:id/teachers',
    request: (f) => ({ method: 'GET', url: `/api/courses/${f.course.id}/teachers` }),
    expected: byMembership(403, 200, 404),
  },
  {
    endpoint: 'POST /api/courses/:id/teachers',
    request: (f) => ({
      method: 'POST',
      url: `/api/courses/${f.course.id}/teachers`,
      payload: { email: uniqueEmail('invitee') },
    }),
    expected: { ...byMembership(403, 201, 404), coTeacher: 403 },
  },
  // Roster import (DESIGN §20): the course's teachers, owner and co-teachers alike.
  {
    endpoint: 'POST /api/courses/:id/roster-import (dry run)',
    request: (f) => ({
      method: 'POST',
      url: `/api/courses/${f.course.id}/roster-import?dryRun=1`,
      payload: { csv: `name,email\nRow Student,${uniqueEmail('roster')}\n` },
    }),
    expected: byMembership(403, 200, 404),
  },
  {
    endpoint: 'POST /api/courses/:id/roster-import (commit)',
    request: (f) => ({
      method: 'POST',
      url: `/api/courses/${f.course.id}/roster-import`,
      payload: { csv: `name,email\nRow Student,${uniqueEmail('roster')}\n` },
    }),
    expected: byMembership(403, 200, 404),
  },
  {
    endpoint: 'DELETE /api/courses/:id/teachers/:userId (the co-teacher)',
    request: (f) => ({ method: 'DELETE', url: `/api/courses/${f.course.id}/teachers/${coTeacher.id}` }),
    // The co-teacher's own id: they leave (204).
    expected: { ...byMembership(403, 200, 404), coTeacher: 204 },
  },
  {
    endpoint: "DELETE /api/courses/:id/teachers/:userId (the caller's own id: leaving)",
    request: (f, who) => ({ method: 'DELETE', url: `/api/courses/${f.course.id}/teachers/${ownIdOf(who)}` }),
    // Only a co-teacher leaves; the owner cannot (403), a member is told it is the teachers' (403).
    expected: { ...byMembership(403, 403, 404), coTeacher: 204 },
  },
  {
    endpoint: 'DELETE /api/courses/:id/teacher-invites/:inviteId',
    prepare: invitation,
    request: (f) => ({
      method: 'DELETE',
      url: `/api/courses/${f.course.id}/teacher-invites/${f.inviteId}`,
    }),
    expected: { ...byMembership(403, 200, 404), coTeacher: 403 },
  },
  {
    endpoint: 'DELETE /api/courses/:id/teachers/:userId (the owner)',
    request: (f) => ({ method: 'DELETE', url: `/api/courses/${f.course.id}/teachers/${owner.id}` }),
    expected: byMembership(403, 403, 404),
  },
  {
    endpoint: 'GET /api/teacher-invites/:token',
    prepare: invitation,
    request: (f) => ({ method: 'GET', url: `/api/teacher-invites/${f.inviteToken}` }),
    expected: teachersOnly(200),
  },
  {
    endpoint: 'POST /api/teacher-invites/:token/accept',
    prepare: invitation,
    request: (f) => ({ method: 'POST', url: `/api/teacher-invites/${f.inviteToken}/accept` }),
    expected: { ...everyoneSignedIn(403), owner: 403, coTeacher: 403, otherTeacher: 200 },
  },
  {
    endpoint: 'GET /api/me',
    request: () => ({ method: 'GET', url: '/api/me' }),
    expected: everyoneSignedIn(200),
  },
  {
    endpoint: 'GET /api/courses',
    request: () => ({ method: 'GET', url: '/api/courses' }),
    expected: everyoneSignedIn(200),
  },
  {
    endpoint: 'GET /api/courses/:id',
    request: (f) => ({ method: 'GET', url: `/api/courses/${f.course.id}` }),
    expected: byMembership(200, 200, 404),
  },
  {
    endpoint: 'GET /api/assignments',
    request: () => ({ method: 'GET', url: '/api/assignments' }),
    expected: everyoneSignedIn(200),
  },
  {
    endpoint: 'GET /api/dashboard',
    request: () => ({ method: 'GET', url: '/api/dashboard' }),
    expected: everyoneSignedIn(200),
  },
  {
    endpoint: 'GET /api/events',
    request: () => ({ method: 'GET', url: '/api/events?after=0' }),
    expected: everyoneSignedIn(200),
  },
  {
    endpoint: 'POST /api/courses',
    request: () => ({
      method: 'POST',
      url: '/api/courses',
      payload: { title: 'T', code: 'C1', description: 'D' },
    }),
    expected: teachersOnly(201),
  },
  {
    endpoint: 'POST /api/courses/samples',
    request: () => ({ method: 'POST', url: '/api/courses/samples' }),
    expected: teachersOnly(201),
  },
  {
    endpoint: 'DELETE /api/courses/:id (no assignments)',
    request: (f) => ({ method: 'DELETE', url: `/api/courses/${f.emptyCourse.id}` }),
    // Deleting is the owner's alone (DESIGN §20): the co-teacher sees the course, so 403.
    expected: { ...byMembership(403, 204, 404), coTeacher: 403 },
  },
  {
    endpoint: 'POST /api/assignments',
    request: (f) => ({
      method: 'POST',
      url: '/api/assignments',
      payload: { title: 'A', dueDate: inDays(3), courseId: f.course.id },
    }),
    expected: { ...everyoneSignedIn(403), owner: 201, otherTeacher: 404 },
  },
  {
    endpoint: 'POST /api/assignments/samples',
    request: () => ({ method: 'POST', url: '/api/assignments/samples' }),
    expected: teachersOnly(201),
  },
  {
    endpoint: 'DELETE /api/assignments/:id',
    request: (f) => ({ method: 'DELETE', url: `/api/assignments/${f.assignment.id}` }),
    expected: byAssignment(403, 204, 404),
  },
  // The bin (DESIGN §17): its teacher's alone; a member student knows the course is there (403).
  {
    endpoint: 'GET /api/bin',
    request: () => ({ method: 'GET', url: '/api/bin' }),
    expected: teachersOnly(200),
  },
  {
    endpoint: 'GET /api/courses/:id/bin',
    prepare: binned,
    request: (f) => ({ method: 'GET', url: `/api/courses/${f.course.id}/bin` }),
    expected: byMembership(403, 200, 404),
  },
  {
    endpoint: 'GET /api/bin/:kind/:id/contents',
    request: (f) => ({ method: 'GET', url: `/api/bin/assignment/${f.assignment.id}/contents` }),
    expected: byAssignment(403, 200, 404),
  },
  {
    endpoint: 'POST /api/bin/:kind/:id/restore (an assignment)',
    prepare: binned,
    request: (f) => ({ method: 'POST', url: `/api/bin/assignment/${f.assignment.id}/restore` }),
    expected: { ...everyoneSignedIn(404), owner: 204 },
  },
  {
    endpoint: 'POST /api/bin/:kind/:id/restore (a course)',
    prepare: binnedCourse,
    request: (f) => ({ method: 'POST', url: `/api/bin/course/${f.emptyCourse.id}/restore` }),
    // A binned course is its owner's to bring back (deleting it was theirs alone).
    expected: { ...everyoneSignedIn(404), owner: 204, coTeacher: 404 },
  },
  {
    endpoint: 'POST /api/bin/:kind/:id/restore (an unknown kind)',
    prepare: binned,
    request: (f) => ({ method: 'POST', url: `/api/bin/lesson/${f.assignment.id}/restore` }),
    expected: everyoneSignedIn(400),
  },
  {
    endpoint: 'GET /api/assignments/:id/submissions',
    request: (f) => ({ method: 'GET', url: `/api/assignments/${f.assignment.id}/submissions` }),
    expected: byAssignment(403, 200, 404),
  },
  {
    endpoint: 'POST /api/assignments/:id/submissions',
    request: (f) => ({
      method: 'POST',
      url: `/api/assignments/${f.assignment.id}/submissions`,
      payload: { content: 'Hi' },
    }),
    // Student A has submitted already: 409. Student B may submit. A former member: 403 not_a_member.
    expected: {
      ...byAssignment(201, 403, 403),
      studentA: 409,
      formerMember: 403,
    },
  },
  {
    endpoint: 'POST /api/assignments/:id/submissions (Idempotency-Key)',
    request: (f) => ({
      method: 'POST',
      url: `/api/assignments/${f.assignment.id}/submissions`,
      payload: { content: 'Hi' },
      headers: { 'idempotency-key': '5f0c3c4e-9d1a-4c8e-8f43-2a1b7c9d0e11' },
    }),
    // A key only ever answers the caller's own submission: Student A's has none, so still 409.
    expected: { ...byAssignment(201, 403, 403), studentA: 409, formerMember: 403 },
  },
  {
    endpoint: 'GET /api/assignments/:id/draft',
    request: (f) => ({ method: 'GET', url: `/api/assignments/${f.assignment.id}/draft` }),
    // Student B has a draft; Student A's went with the submission. Drafts follow submitting's rules.
    expected: { ...byAssignment(200, 403, 403), studentA: 404, formerMember: 403 },
  },
  {
    endpoint: 'PUT /api/assignments/:id/draft',
    request: (f) => ({
      method: 'PUT',
      url: `/api/assignments/${f.assignment.id}/draft`,
      payload: { content: 'More', baseVersion: 1 },
    }),
    // Student A has submitted: 409 until they unsubmit.
    expected: { ...byAssignment(200, 403, 403), studentA: 409, formerMember: 403 },
  },
  {
    endpoint: 'GET /api/assignments/:id/submission',
    request: (f) => ({ method: 'GET', url: `/api/assignments/${f.assignment.id}/submission` }),
    // A student's own work only (DESIGN §17): Student B has none (404 no_submission); the teachers,
    // the course's own included, and every non-member get the same 404, which tells them nothing.
    expected: { ...byAssignment(404, 404, 404), studentA: 200 },
  },
  {
    endpoint: 'DELETE /api/assignments/:id/submission',
    request: (f) => ({ method: 'DELETE', url: `/api/assignments/${f.assignment.id}/submission` }),
    // Student A may take theirs back; Student B has nothing to take back.
    expected: { ...byAssignment(404, 403, 403), studentA: 200, formerMember: 403 },
  },
  {
    endpoint: 'PATCH /api/submissions/:id',
    request: (f) => ({
      method: 'PATCH',
      url: `/api/submissions/${f.submission.id}`,
      payload: { grade: 7, baseVersion: 0 },
    }),
    expected: byAssignment(403, 200, 404),
  },
  // Grading with or without a submission (DESIGN §17): Student B has none, so it makes a graded row.
  {
    endpoint: 'PUT /api/assignments/:id/grades/:studentId',
    request: (f) => ({
      method: 'PUT',
      url: `/api/assignments/${f.assignment.id}/grades/${studentB.id}`,
      payload: { grade: 0, baseVersion: 0 },
    }),
    expected: byAssignment(403, 200, 404),
  },
  // Taking back a grade for missing work (issue 25): the row the teacher's grade of B made, version 1.
  {
    endpoint: 'DELETE /api/assignments/:id/grades/:studentId',
    prepare: async (f) => {
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/assignments/${f.assignment.id}/grades/${studentB.id}`,
        headers: owner.headers,
        payload: { grade: 0, baseVersion: 0 },
      });
      if (res.statusCode !== 200) throw new Error(`grade missing work: ${res.statusCode} ${res.body}`);
      return {};
    },
    request: (f) => ({
      method: 'DELETE',
      url: `/api/assignments/${f.assignment.id}/grades/${studentB.id}?baseVersion=1`,
    }),
    expected: byAssignment(403, 200, 404),
  },
  {
    endpoint: 'PUT /api/assignments/:id/grades/:studentId (a student who is not an active member)',
    request: (f) => ({
      method: 'PUT',
      url: `/api/assignments/${f.assignment.id}/grades/${formerMember.id}`,
      payload: { grade: 0, baseVersion: 0 },
    }),
    expected: byAssignment(403, 404, 404),
  },
  {
    endpoint: 'PUT /api/assignments/:id/grades/:studentId (an assignment in the bin)',
    prepare: binned,
    request: (f) => ({
      method: 'PUT',
      url: `/api/assignments/${f.assignment.id}/grades/${studentB.id}`,
      payload: { grade: 0, baseVersion: 0 },
    }),
    expected: everyoneSignedIn(404),
  },
  // Rubrics (DESIGN §17): members read it before they submit; only the course's teacher writes it or grades by it.
  {
    endpoint: 'GET /api/assignments/:id/rubric',
    prepare: withRubric,
    request: (f) => ({ method: 'GET', url: `/api/assignments/${f.assignment.id}/rubric` }),
    expected: byAssignment(200, 200, 404),
  },
  {
    endpoint: 'PUT /api/assignments/:id/rubric',
    request: (f) => ({
      method: 'PUT',
      url: `/api/assignments/${f.assignment.id}/rubric`,
      payload: { criteria: [{ title: 'All of it', levels: [{ title: 'Done', points: 10 }] }] },
    }),
    expected: byAssignment(403, 200, 404),
  },
  {
    endpoint: 'PUT /api/assignments/:id/rubric (an assignment in the bin)',
    prepare: binned,
    request: (f) => ({
      method: 'PUT',
      url: `/api/assignments/${f.assignment.id}/rubric`,
      payload: { criteria: [] },
    }),
    expected: everyoneSignedIn(404),
  },
  {
    endpoint: 'PATCH /api/submissions/:id (by rubric)',
    prepare: withRubric,
    request: (f) => ({
      method: 'PATCH',
      url: `/api/submissions/${f.submission.id}`,
      payload: { grade: 10, rubric: f.scores, baseVersion: 0 },
    }),
    expected: byAssignment(403, 200, 404),
  },
  {
    endpoint: 'PUT /api/assignments/:id/grades/:studentId (by rubric)',
    prepare: withRubric,
    request: (f) => ({
      method: 'PUT',
      url: `/api/assignments/${f.assignment.id}/grades/${studentB.id}`,
      payload: { grade: 10, rubric: f.scores, baseVersion: 0 },
    }),
    expected: byAssignment(403, 200, 404),
  },
  // Grading (DESIGN §13): the course's teacher only; members know the course (403), others get 404.
  {
    endpoint: 'PATCH /api/courses/:id',
    request: (f) => ({ method: 'PATCH', url: `/api/courses/${f.course.id}`, payload: { title: 'Renamed' } }),
    expected: byMembership(403, 200, 404),
  },
  {
    endpoint: 'PATCH /api/assignments/:id',
    request: (f) => ({
      method: 'PATCH',
      url: `/api/assignments/${f.assignment.id}`,
      payload: { title: 'Renamed', gradeRelease: 'manual' },
    }),
    expected: byAssignment(403, 200, 404),
  },
  // Assign to some students, scheduled publishing, extensions (DESIGN §20). In the rows "(for A
  // only)" student B is the unassigned member: an assignment not for them answers as one that is
  // not there (404), where student A, who sees it, gets a member's 403 on a teacher's route.
  {
    endpoint: 'POST /api/assignments (for A only, scheduled)',
    request: (f) => ({
      method: 'POST',
      url: '/api/assignments',
      payload: {
        title: 'Some',
        dueDate: inDays(3),
        courseId: f.course.id,
        assignees: [studentA.id],
        publishAt: inDays(1),
      },
    }),
    // Students are refused by role (403); the other teacher cannot see the course (404).
    expected: { ...everyoneSignedIn(403), owner: 201, otherTeacher: 404 },
  },
  {
    endpoint: 'PATCH /api/assignments/:id (for A only)',
    prepare: forAOnly,
    request: (f) => ({
      method: 'PATCH',
      url: `/api/assignments/${f.assignment.id}`,
      payload: { title: 'Again' },
    }),
    expected: { ...byAssignment(403, 200, 404), studentB: 404 },
  },
  {
    endpoint: 'PATCH /api/assignments/:id {assignees, publishAt}',
    request: (f) => ({
      method: 'PATCH',
      url: `/api/assignments/${f.assignment.id}`,
      payload: { assignees: [studentA.id] },
    }),
    expected: byAssignment(403, 200, 404),
  },
  {
    endpoint: 'GET /api/assignments/:id/submission (for A only)',
    prepare: forAOnly,
    request: (f) => ({ method: 'GET', url: `/api/assignments/${f.assignment.id}/submission` }),
    // Teachers have no submission of their own: 404 as for any non-student.
    expected: { ...everyoneSignedIn(404), studentA: 200 },
  },
  {
    endpoint: 'PUT /api/assignments/:id/draft (for A only)',
    prepare: forAOnly,
    request: (f) => ({
      method: 'PUT',
      url: `/api/assignments/${f.assignment.id}/draft`,
      payload: { content: 'x', baseVersion: 1 },
    }),
    // A has submitted (409: the draft went with it); B is not given it (404); teachers 403 by role.
    expected: {
      ...byAssignment(409, 403, 403),
      studentB: 404,
      nonMember: 404,
      formerMember: 403,
      otherMember: 404,
    },
  },
  {
    endpoint: 'GET /api/assignments/:id/rubric (scheduled)',
    prepare: scheduledLater,
    request: (f) => ({ method: 'GET', url: `/api/assignments/${f.assignment.id}/rubric` }),
    expected: { ...everyoneSignedIn(404), owner: 200 },
  },
  {
    endpoint: 'PUT /api/assignments/:id/extensions/:studentId',
    request: (f) => ({
      method: 'PUT',
      url: `/api/assignments/${f.assignment.id}/extensions/${studentA.id}`,
      payload: { dueDate: inDays(9) },
    }),
    expected: { ...everyoneSignedIn(404), owner: 200 },
  },
  {
    endpoint: 'PUT /api/assignments/:id/extensions/:studentId (for A only, to B)',
    prepare: forAOnly,
    request: (f) => ({
      method: 'PUT',
      url: `/api/assignments/${f.assignment.id}/extensions/${studentB.id}`,
      payload: { dueDate: inDays(9) },
    }),
    expected: { ...everyoneSignedIn(404), owner: 422 },
  },
  {
    endpoint: 'DELETE /api/assignments/:id/extensions/:studentId',
    request: (f) => ({
      method: 'DELETE',
      url: `/api/assignments/${f.assignment.id}/extensions/${studentA.id}`,
    }),
    expected: { ...everyoneSignedIn(404), owner: 204 },
  },
  // Grade categories (DESIGN §17): the course's teacher's alone.
  {
    endpoint: 'GET /api/courses/:id/categories',
    request: (f) => ({ method: 'GET', url: `/api/courses/${f.course.id}/categories` }),
    expected: byMembership(403, 200, 404),
  },
  {
    endpoint: 'PUT /api/courses/:id/categories',
    request: (f) => ({
      method: 'PUT',
      url: `/api/courses/${f.course.id}/categories`,
      payload: {
        categories: [
          { name: 'Homework', weight: 40 },
          { name: 'Tests', weight: 60 },
        ],
      },
    }),
    expected: byMembership(403, 200, 404),
  },
  {
    endpoint: 'PUT /api/courses/:id/categories (a course in the bin)',
    prepare: binnedCourse,
    request: (f) => ({
      method: 'PUT',
      url: `/api/courses/${f.emptyCourse.id}/categories`,
      payload: { categories: [] },
    }),
    expected: everyoneSignedIn(404),
  },
  {
    endpoint: 'GET /api/courses/:id/gradebook',
    request: (f) => ({ method: 'GET', url: `/api/courses/${f.course.id}/gradebook` }),
    expected: byMembership(403, 200, 404),
  },
  {
    endpoint: 'GET /api/courses/:id/gradebook.csv',
    request: (f) => ({ method: 'GET', url: `/api/courses/${f.course.id}/gradebook.csv` }),
    expected: byMembership(403, 200, 404),
  },
  {
    endpoint: 'POST /api/assignments/:id/return',
    request: (f) => ({ method: 'POST', url: `/api/assignments/${f.assignment.id}/return`, payload: {} }),
    expected: byAssignment(403, 200, 404),
  },
  {
    endpoint: 'POST /api/assignments/:id/return (with undo)',
    request: (f) => ({
      method: 'POST',
      url: `/api/assignments/${f.assignment.id}/return`,
      payload: { undoable: true },
    }),
    expected: byAssignment(403, 200, 404),
  },
  {
    endpoint: 'DELETE /api/returns/:id',
    prepare: scheduledReturn,
    request: (f) => ({ method: 'DELETE', url: `/api/returns/${f.returnId}` }),
    // Only the course's teacher may undo it; a member learns it is there, nobody else does.
    expected: byAssignment(403, 204, 404),
  },
  {
    endpoint: 'POST /api/assignments/:id/excuse',
    request: (f) => ({
      method: 'POST',
      url: `/api/assignments/${f.assignment.id}/excuse`,
      payload: { studentId: studentB.id, excused: true },
    }),
    expected: byAssignment(403, 200, 404),
  },
  {
    endpoint: 'GET /api/assignments/:id/panel',
    request: (f) => ({ method: 'GET', url: `/api/assignments/${f.assignment.id}/panel` }),
    expected: byAssignment(403, 200, 404),
  },
  {
    endpoint: 'GET /api/grades',
    request: () => ({ method: 'GET', url: '/api/grades' }),
    expected: { ...everyoneSignedIn(200), owner: 403, otherTeacher: 403 },
  },
  {
    endpoint: 'POST /api/courses/join',
    request: (f) => ({ method: 'POST', url: '/api/courses/join', payload: { code: f.course.joinCode } }),
    // Members again (200), newcomers and the former member (re-joining): 200. Only students join.
    expected: { ...everyoneSignedIn(200), owner: 403, otherTeacher: 403 },
  },
  {
    endpoint: 'GET /api/join/:code',
    request: (f) => ({ method: 'GET', url: `/api/join/${f.course.joinCode}` }),
    expected: { ...everyoneSignedIn(200), owner: 403, otherTeacher: 403 },
  },
  {
    endpoint: 'GET /api/courses/:id/members',
    request: (f) => ({ method: 'GET', url: `/api/courses/${f.course.id}/members` }),
    expected: byMembership(403, 200, 404),
  },
  {
    endpoint: 'DELETE /api/courses/:id/members/:studentId',
    request: (f) => ({ method: 'DELETE', url: `/api/courses/${f.course.id}/members/${studentA.id}` }),
    expected: byMembership(403, 200, 404),
  },
  {
    endpoint: 'POST /api/courses/:id/members/:studentId/restore',
    request: (f) => ({ method: 'POST', url: `/api/courses/${f.course.id}/members/${studentA.id}/restore` }),
    expected: byMembership(403, 200, 404),
  },
  {
    endpoint: 'POST /api/courses/:id/leave',
    request: (f) => ({ method: 'POST', url: `/api/courses/${f.course.id}/leave` }),
    expected: byMembership(204, 403, 403),
  },
  {
    endpoint: 'POST /api/courses/:id/join-code',
    request: (f) => ({
      method: 'POST',
      url: `/api/courses/${f.course.id}/join-code`,
      payload: { action: 'reset' },
    }),
    expected: byMembership(403, 200, 404),
  },
  // The account routes act on the caller alone: signed in is the permission, plus the current password.
  {
    endpoint: 'PATCH /api/me',
    // Each caller keeps their own name: the row checks who may, not what it does (account.test.ts).
    request: (_f, who) => ({ method: 'PATCH', url: '/api/me', payload: { fullName: NAMES[who] } }),
    expected: everyoneSignedIn(200),
  },
  {
    endpoint: 'POST /api/me/password (wrong current password)',
    request: () => ({
      method: 'POST',
      url: '/api/me/password',
      payload: { currentPassword: 'not the password', newPassword: 'a new password 1' },
    }),
    expected: everyoneSignedIn(403),
  },
  {
    endpoint: 'GET /api/me/sessions',
    request: () => ({ method: 'GET', url: '/api/me/sessions' }),
    expected: everyoneSignedIn(200),
  },
  {
    endpoint: 'DELETE /api/me/sessions',
    request: () => ({ method: 'DELETE', url: '/api/me/sessions' }),
    expected: everyoneSignedIn(200),
  },
  // One device signed out (issue 25): a session id of no one the caller is is 404 for everyone.
  {
    endpoint: 'DELETE /api/me/sessions/:id (a session of someone else)',
    request: () => ({ method: 'DELETE', url: `/api/me/sessions/${randomUUID()}` }),
    expected: everyoneSignedIn(404),
  },
  {
    endpoint: 'GET /api/me/export',
    request: () => ({ method: 'GET', url: '/api/me/export' }),
    expected: everyoneSignedIn(200),
  },
  // The export's files: the caller's own uploads only (which ones is checked in files/).
  {
    endpoint: 'GET /api/me/files.zip',
    request: () => ({ method: 'GET', url: '/api/me/files.zip' }),
    expected: everyoneSignedIn(200),
  },
  {
    endpoint: 'DELETE /api/me (wrong password)',
    request: () => ({ method: 'DELETE', url: '/api/me', payload: { password: 'not the password' } }),
    expected: everyoneSignedIn(403),
  },
  // Notifications, to-do and calendar (DESIGN §14) read and change the caller's own only; what each
  // holds is checked below ("notifications reach exactly their audience") and in notifications/.
  {
    endpoint: 'GET /api/notifications',
    request: () => ({ method: 'GET', url: '/api/notifications' }),
    expected: everyoneSignedIn(200),
  },
  {
    endpoint: 'POST /api/notifications/read',
    request: () => ({ method: 'POST', url: '/api/notifications/read', payload: { all: true } }),
    expected: everyoneSignedIn(200),
  },
  {
    endpoint: 'GET /api/me/notification-settings',
    request: () => ({ method: 'GET', url: '/api/me/notification-settings' }),
    expected: everyoneSignedIn(200),
  },
  {
    endpoint: 'PUT /api/me/notification-settings',
    request: () => ({
      method: 'PUT',
      url: '/api/me/notification-settings',
      payload: {
        quietHours: { enabled: false, start: '21:00', end: '07:00', timeZone: 'UTC' },
        email: false,
      },
    }),
    expected: everyoneSignedIn(200),
  },
  {
    endpoint: 'PUT /api/me/time-zone',
    request: () => ({ method: 'PUT', url: '/api/me/time-zone', payload: { timeZone: 'Europe/Paris' } }),
    expected: everyoneSignedIn(200),
  },
  {
    endpoint: 'GET /api/todo',
    request: () => ({ method: 'GET', url: '/api/todo' }),
    expected: everyoneSignedIn(200),
  },
  {
    endpoint: 'GET /api/calendar',
    request: () => ({
      method: 'GET',
      url: `/api/calendar?from=${encodeURIComponent(inDays(-1))}&to=${encodeURIComponent(inDays(30))}`,
    }),
    expected: everyoneSignedIn(200),
  },
  {
    endpoint: 'GET /api/calendar/feed',
    request: () => ({ method: 'GET', url: '/api/calendar/feed' }),
    expected: everyoneSignedIn(200),
  },
  {
    endpoint: 'POST /api/calendar/feed',
    request: () => ({ method: 'POST', url: '/api/calendar/feed' }),
    expected: everyoneSignedIn(200),
  },
  // The personal ICS feed: no sign-in (calendar apps can't), and a caller's own session changes
  // nothing; the token of 32+ random characters is the secret (calendar-feed.test.ts reads it back).
  {
    endpoint: 'GET /api/calendar/:file (a live token)',
    request: () => ({ method: 'GET', url: feeds.live }),
    expected: anyone(200),
  },
  {
    endpoint: 'GET /api/calendar/:file (a reset token)',
    request: () => ({ method: 'GET', url: feeds.reset }),
    expected: anyone(404),
  },
  {
    endpoint: 'GET /api/calendar/:file (an unknown token)',
    request: () => ({ method: 'GET', url: `/api/calendar/${'x'.repeat(43)}.ics` }),
    expected: anyone(404),
  },
  // Attachments (DESIGN §18): the uploader A, the member B, the former member (removed from the
  // course's rooms as one who left), the others; a file answers 404 to anyone who may not see it.
  {
    endpoint: 'POST /api/uploads (a submission file)',
    request: (f) => ({
      method: 'POST',
      url: '/api/uploads',
      headers: {
        ...TUS,
        'upload-length': '4',
        'upload-metadata': tusMetadata({ purpose: 'submission', targetId: f.assignment.id, name: 'a.txt' }),
      },
    }),
    // A has submitted already; the former member is told why (not_a_member); teachers hand in no work.
    expected: { ...byAssignment(201, 403, 403), studentA: 409, formerMember: 403 },
  },
  {
    endpoint: 'POST /api/uploads (materials)',
    request: (f) => ({
      method: 'POST',
      url: '/api/uploads',
      headers: {
        ...TUS,
        'upload-length': '4',
        'upload-metadata': tusMetadata({ purpose: 'assignment', targetId: f.assignment.id, name: 'a.txt' }),
      },
    }),
    expected: { ...teachersOnly(201), otherTeacher: 404 },
  },
  {
    endpoint: 'HEAD /api/uploads/:id',
    prepare: pendingUpload,
    request: (f) => ({ method: 'HEAD', url: `/api/uploads/${f.fileId}`, headers: TUS }),
    expected: only({ studentB: 200 }),
  },
  {
    endpoint: 'PATCH /api/uploads/:id',
    prepare: pendingUpload,
    request: (f) => ({
      method: 'PATCH',
      url: `/api/uploads/${f.fileId}`,
      headers: { ...TUS, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      body: Buffer.from('data'),
    }),
    expected: only({ studentB: 204 }),
  },
  {
    endpoint: 'DELETE /api/uploads/:id',
    prepare: pendingUpload,
    request: (f) => ({ method: 'DELETE', url: `/api/uploads/${f.fileId}`, headers: TUS }),
    expected: only({ studentB: 204 }),
  },
  {
    endpoint: 'GET /api/files/:id (a handed-in submission file)',
    prepare: handedInFile,
    request: (f) => ({ method: 'GET', url: `/api/files/${f.fileId}` }),
    expected: only({ studentA: 200, owner: 200 }),
  },
  {
    endpoint: 'GET /api/files/:id (work not handed in)',
    prepare: unsubmittedFile,
    request: (f) => ({ method: 'GET', url: `/api/files/${f.fileId}` }),
    expected: only({ studentA: 200 }),
  },
  {
    endpoint: 'GET /api/files/:id (materials)',
    prepare: materials,
    request: (f) => ({ method: 'GET', url: `/api/files/${f.fileId}` }),
    expected: byAssignment(200, 200, 404),
  },
  {
    endpoint: 'GET /api/files/:id (feedback of a held grade)',
    prepare: heldFeedback,
    request: (f) => ({ method: 'GET', url: `/api/files/${f.fileId}` }),
    expected: only({ owner: 200 }),
  },
  {
    endpoint: 'DELETE /api/files/:id (work not handed in)',
    prepare: unsubmittedFile,
    request: (f) => ({ method: 'DELETE', url: `/api/files/${f.fileId}` }),
    expected: only({ studentA: 204 }),
  },
  {
    endpoint: 'DELETE /api/files/:id (a handed-in file)',
    prepare: handedInFile,
    request: (f) => ({ method: 'DELETE', url: `/api/files/${f.fileId}` }),
    expected: only({}),
  },
  {
    // Materials to the members and the teacher; a student's own feedback once returned (DESIGN §18).
    endpoint: 'GET /api/assignments/:id/files',
    request: (f) => ({
      method: 'GET',
      url: `/api/assignments/${f.assignment.id}/files?studentId=${studentA.id}`,
    }),
    expected: byAssignment(200, 200, 404),
  },
  {
    endpoint: 'GET /api/assignments/:id/submissions.zip',
    request: (f) => ({ method: 'GET', url: `/api/assignments/${f.assignment.id}/submissions.zip` }),
    expected: byAssignment(403, 200, 404),
  },
  // Archive and copy (DESIGN §20): archiving is the owner's alone; copying any teacher's of the
  // course; reusing an assignment needs both courses taught (the fixture's empty course is co-taught).
  {
    endpoint: 'POST /api/courses/:id/archive',
    request: (f) => ({ method: 'POST', url: `/api/courses/${f.course.id}/archive` }),
    expected: { ...byMembership(403, 200, 404), coTeacher: 403 },
  },
  {
    endpoint: 'POST /api/courses/:id/unarchive',
    prepare: archivedCourse,
    request: (f) => ({ method: 'POST', url: `/api/courses/${f.course.id}/unarchive` }),
    expected: { ...byMembership(403, 200, 404), coTeacher: 403 },
  },
  {
    endpoint: 'POST /api/courses/:id/copy',
    request: (f) => ({ method: 'POST', url: `/api/courses/${f.course.id}/copy`, payload: {} }),
    expected: byMembership(403, 201, 404),
  },
  {
    endpoint: 'POST /api/courses/:id/copy (an archived course)',
    prepare: archivedCourse,
    request: (f) => ({ method: 'POST', url: `/api/courses/${f.course.id}/copy`, payload: {} }),
    expected: byMembership(403, 201, 404),
  },
  {
    endpoint: 'POST /api/assignments/:id/copy',
    request: (f) => ({
      method: 'POST',
      url: `/api/assignments/${f.assignment.id}/copy`,
      payload: { courseId: f.emptyCourse.id },
    }),
    expected: byAssignment(403, 201, 404),
  },
  {
    endpoint: 'POST /api/assignments/:id/copy (into an archived course)',
    prepare: archivedEmptyCourse,
    request: (f) => ({
      method: 'POST',
      url: `/api/assignments/${f.assignment.id}/copy`,
      payload: { courseId: f.emptyCourse.id },
    }),
    expected: byAssignment(403, 409, 404),
  },
  {
    endpoint: 'POST /api/assignments/:id/copy (into a course of the other teacher)',
    request: (f) => ({
      method: 'POST',
      url: `/api/assignments/${f.assignment.id}/copy`,
      payload: { courseId: otherTeachersCourse.id },
    }),
    // A target the caller does not teach is not there for them (404), as on POST /api/assignments.
    expected: byAssignment(403, 404, 404),
  },
  // Writes to an archived course (DESIGN §20): whoever can see the course is told it is read-only
  // (409 course_archived, before what their role may do); anyone else gets the answer they always got.
  {
    endpoint: 'PATCH /api/courses/:id (archived)',
    prepare: archivedCourse,
    request: (f) => ({ method: 'PATCH', url: `/api/courses/${f.course.id}`, payload: { title: 'New' } }),
    expected: byMembership(409, 409, 404),
  },
  {
    endpoint: 'POST /api/assignments (to an archived course)',
    prepare: archivedCourse,
    request: (f) => ({
      method: 'POST',
      url: '/api/assignments',
      payload: { title: 'A', dueDate: inDays(3), courseId: f.course.id },
    }),
    expected: {
      ...everyoneSignedIn(403),
      studentA: 409,
      studentB: 409,
      unassigned: 409,
      owner: 409,
      otherTeacher: 404,
    },
  },
  {
    endpoint: 'PATCH /api/submissions/:id (archived)',
    prepare: archivedCourse,
    request: (f) => ({
      method: 'PATCH',
      url: `/api/submissions/${f.submission.id}`,
      payload: { grade: 5, baseVersion: 0 },
    }),
    expected: byAssignment(409, 409, 404),
  },
  {
    endpoint: 'PUT /api/assignments/:id/draft (archived)',
    prepare: archivedCourse,
    request: (f) => ({
      method: 'PUT',
      url: `/api/assignments/${f.assignment.id}/draft`,
      payload: { content: 'More', baseVersion: 1 },
    }),
    expected: { ...byAssignment(409, 409, 403), formerMember: 403 },
  },
  {
    endpoint: 'POST /api/courses/:id/posts (archived)',
    prepare: archivedCourse,
    request: (f) => ({ method: 'POST', url: `/api/courses/${f.course.id}/posts`, payload: { text: 'Hi' } }),
    expected: byMembership(409, 409, 404),
  },
  {
    endpoint: 'DELETE /api/courses/:id/members/:studentId (archived)',
    prepare: archivedCourse,
    request: (f) => ({ method: 'DELETE', url: `/api/courses/${f.course.id}/members/${studentB.id}` }),
    expected: byMembership(409, 409, 404),
  },
  {
    endpoint: 'GET /api/courses/:id (archived)',
    prepare: archivedCourse,
    request: (f) => ({ method: 'GET', url: `/api/courses/${f.course.id}` }),
    expected: byMembership(200, 200, 404),
  },
  {
    endpoint: 'GET /api/courses/:id/gradebook (archived)',
    prepare: archivedCourse,
    request: (f) => ({ method: 'GET', url: `/api/courses/${f.course.id}/gradebook` }),
    expected: byMembership(403, 200, 404),
  },
];

/**
 * One fixture for every case that cannot change it: a read, or a request the server refuses (4xx:
 * nothing written). A case that may write (or prepares data of its own) gets a fresh one. If the
 * server ever wrote on a refusal, that case fails on its status first. About half the cases,
 * each fixture being two courses, five joins, an assignment, a submission and a draft.
 */
let unchanging: Promise<Fixture> | undefined;
const fixtureFor = (row: Pick<Row, 'endpoint' | 'prepare'>, status: number) =>
  !row.prepare && (/^(GET|HEAD) /.test(row.endpoint) || status >= 400)
    ? (unchanging ??= fixture())
    : fixture();

describe.each(table)('$endpoint', ({ endpoint, prepare, request, expected }) => {
  it.each(answersOf(expected))('answers %s with %i', async (who, status) => {
    const base = await fixtureFor({ endpoint, prepare }, status);
    const f = { ...base, ...(prepare ? await prepare(base) : {}) };
    const { headers, body, ...rest } = request(f, who);
    const res = await t.app.inject({
      ...rest,
      ...(body ? { payload: body } : {}),
      headers: { ...headers, ...headersOf(who) },
    });
    expect(res.statusCode, res.body).toBe(status);
    if (status >= 400 && rest.method !== 'HEAD')
      expect(res.json()).toMatchObject({
        statusCode: status,
        code: expect.any(String),
        message: expect.any(String),
      });
  });
});

describe('notifications reach exactly their audience', () => {
  /** After the fixture (a new assignment, student A's submission) and the owner grading it. */
  const expectedKinds: Record<Exclude<Who, 'anonymous' | 'signedOut'>, string[]> = {
    studentA: ['grade_returned', 'assignment_created'],
    studentB: ['assignment_created'],
    // Not for them; left before the assignment was made; never joined; in another course; not their course.
    unassigned: [],
    formerMember: [],
    nonMember: [],
    otherMember: [],
    otherTeacher: [],
    owner: ['submissions'],
    coTeacher: ['submissions'],
  };
  it.each(Object.entries(expectedKinds))('%s gets %j', async (who, kinds) => {
    const f = await fixture();
    const graded = await t.app.inject({
      method: 'PATCH',
      url: `/api/submissions/${f.submission.id}`,
      headers: owner.headers,
      payload: { grade: 7, baseVersion: 0 },
    });
    expect(graded.statusCode).toBe(200);
    await t.app.core.afterCommit.settled(); // the owner's submissions batch follows the submit's answer
    const page = (
      await t.app.inject({ method: 'GET', url: '/api/notifications', headers: headersOf(who as Who) })
    ).json<{ items: Array<{ kind: string; assignmentId: string | null }> }>();
    expect(page.items.filter((n) => n.assignmentId === f.assignment.id).map((n) => n.kind)).toEqual(kinds);
  });
});

describe('what a refused request leaves behind', () => {
  it('a student cannot grade their own submission, nor set a grade while submitting', async () => {
    const f = await fixture();
    const grade = await t.app.inject({
      method: 'PATCH',
      url: `/api/submissions/${f.submission.id}`,
      headers: studentA.headers,
      payload: { grade: 10, baseVersion: 0 },
    });
    expect(grade.statusCode).toBe(403);
    const sneaky = await t.app.inject({
      method: 'POST',
      url: `/api/assignments/${f.assignment.id}/submissions`,
      headers: studentB.headers,
      payload: { content: 'x', grade: 10 },
    });
    expect(sneaky.statusCode).toBe(400);
    expect(sneaky.json().message).toContain('grade');
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/assignments/${f.assignment.id}/submissions`,
      headers: owner.headers,
    });
    expect(list.json().map((s: { grade: number | null }) => s.grade)).toEqual([null]);
  });

  it('a course cannot be given to another teacher, nor a submission to another student', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/courses',
      headers: owner.headers,
      payload: { title: 'Mine', code: 'MI1', description: 'D', teacherId: otherTeacher.id },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('teacherId');
    const f = await fixture();
    const forged = await t.app.inject({
      method: 'POST',
      url: `/api/assignments/${f.assignment.id}/submissions`,
      headers: studentB.headers,
      payload: { content: 'x', studentId: studentA.id },
    });
    expect(forged.statusCode).toBe(400);
  });

  it("a student's assignment list shows only their own submission", async () => {
    const f = await fixture();
    const res = await t.app.inject({ method: 'GET', url: '/api/assignments', headers: studentB.headers });
    const mine = res.json().find((a: Assignment) => a.id === f.assignment.id);
    expect(mine.submission).toBeNull();
    const theirs = (await t.app.inject({ method: 'GET', url: '/api/assignments', headers: studentA.headers }))
      .json()
      .find((a: Assignment) => a.id === f.assignment.id);
    expect(theirs.submission.id).toBe(f.submission.id);
    expect(JSON.stringify(res.json())).not.toContain(f.submission.id);
  });
});

/**
 * Fields a caller may not set, whatever the body says (mass assignment): each request is refused
 * with 400 naming the field (or 403 when the caller may not act at all), and a read afterwards
 * shows nothing was written.
 */
interface FieldRow {
  name: string;
  who: Who;
  request: (f: Fixture, who: Who) => { method: 'POST' | 'PATCH'; url: string; payload: object };
  status: number;
  /** The field the refusal's message names. */
  field?: string;
  /** What the owner reads afterwards, unchanged. */
  unchanged: (f: Fixture) => Promise<void>;
}

const ownerRead = (url: string) => t.app.inject({ method: 'GET', url, headers: owner.headers });
async function onlyOwnSubmissionUngraded(f: Fixture) {
  const list = (await ownerRead(`/api/assignments/${f.assignment.id}/submissions`)).json();
  expect(list).toMatchObject([
    { id: f.submission.id, studentId: studentA.id, content: 'My answer.', grade: null, feedback: null },
  ]);
}
async function courseHasNoNewAssignment(f: Fixture) {
  const detail = (await ownerRead(`/api/courses/${f.course.id}`)).json();
  expect(detail.assignments.map((a: Assignment) => a.id)).toEqual([f.assignment.id]);
}
async function noCourseTitled(title: string) {
  const list = (await ownerRead('/api/courses')).json();
  expect(list.filter((c: Course) => c.title === title)).toEqual([]);
}

const submitAs = (f: Fixture, extra: object) => ({
  method: 'POST' as const,
  url: `/api/assignments/${f.assignment.id}/submissions`,
  payload: { content: 'Sneaky', ...extra },
});
const gradeWith = (f: Fixture, extra: object) => ({
  method: 'PATCH' as const,
  url: `/api/submissions/${f.submission.id}`,
  payload: { grade: 5, baseVersion: 0, ...extra },
});
const newCourse = (extra: object) => ({
  method: 'POST' as const,
  url: '/api/courses',
  payload: { title: 'Smuggled', code: 'SM1', description: 'D', ...extra },
});
const newAssignment = (f: Fixture, extra: object) => ({
  method: 'POST' as const,
  url: '/api/assignments',
  payload: { title: 'Smuggled', dueDate: inDays(3), courseId: f.course.id, ...extra },
});

const fieldTable: FieldRow[] = [
  ...(['grade', 'feedback', 'gradedAt'] as const).map((field) => ({
    name: `a student submitting with ${field}`,
    who: 'studentB' as Who,
    request: (f: Fixture) => submitAs(f, { [field]: field === 'grade' ? 10 : 'Great' }),
    status: 400,
    field,
    unchanged: onlyOwnSubmissionUngraded,
  })),
  ...(['studentId', 'assignmentId', 'id', 'submittedAt'] as const).map((field) => ({
    name: `a student submitting with ${field}`,
    who: 'studentB' as Who,
    request: (f: Fixture) =>
      submitAs(f, {
        [field]:
          field === 'studentId' ? studentA.id : field === 'submittedAt' ? inDays(-30) : f.submission.id,
      }),
    status: 400,
    field,
    unchanged: onlyOwnSubmissionUngraded,
  })),
  {
    name: 'a student submitting with role: teacher',
    who: 'studentB',
    request: (f) => submitAs(f, { role: 'teacher' }),
    status: 400,
    field: 'role',
    unchanged: onlyOwnSubmissionUngraded,
  },
  {
    name: 'a student grading with role: teacher in the body',
    who: 'studentA',
    request: (f) => gradeWith(f, { role: 'teacher' }),
    status: 400,
    field: 'role',
    unchanged: onlyOwnSubmissionUngraded,
  },
  {
    name: 'a student creating a course with role: teacher in the body',
    who: 'studentA',
    request: () => newCourse({ title: 'Student course', role: 'teacher' }),
    status: 400,
    field: 'role',
    unchanged: () => noCourseTitled('Student course'),
  },
  {
    name: 'a student creating a course with teacherId of a teacher',
    who: 'studentA',
    request: () => newCourse({ title: 'Student course', teacherId: owner.id }),
    status: 400,
    field: 'teacherId',
    unchanged: () => noCourseTitled('Student course'),
  },
  ...(['studentId', 'assignmentId', 'content', 'submittedAt', 'gradedAt', 'id'] as const).map((field) => ({
    name: `the course's teacher grading with ${field}`,
    who: 'owner' as Who,
    request: (f: Fixture) =>
      gradeWith(f, {
        [field]:
          field === 'content'
            ? 'Rewritten'
            : field.endsWith('At')
              ? inDays(-1)
              : field === 'studentId'
                ? studentB.id
                : f.emptyCourse.id,
      }),
    status: 400,
    field,
    unchanged: onlyOwnSubmissionUngraded,
  })),
  {
    name: "the course's teacher grading above the assignment's max points",
    who: 'owner',
    request: (f) => gradeWith(f, { grade: 11 }),
    status: 400,
    field: 'grade',
    unchanged: onlyOwnSubmissionUngraded,
  },
  ...([-1, 2.5, '7', null] as const).map((grade) => ({
    name: `the course's teacher grading with grade ${JSON.stringify(grade)}`,
    who: 'owner' as Who,
    request: (f: Fixture) => gradeWith(f, { grade }),
    status: 400,
    field: 'grade',
    unchanged: onlyOwnSubmissionUngraded,
  })),
  ...(['teacherId', 'id', 'createdAt', 'teacher'] as const).map((field) => ({
    name: `a teacher creating a course with ${field}`,
    who: 'otherTeacher' as Who,
    request: () =>
      newCourse({
        title: `Course with ${field}`,
        [field]:
          field === 'teacher'
            ? { id: owner.id, fullName: 'Owner Teacher' }
            : field === 'createdAt'
              ? inDays(-400)
              : owner.id,
      }),
    status: 400,
    field,
    unchanged: () => noCourseTitled(`Course with ${field}`),
  })),
  ...(['teacherId', 'id', 'courseTitle', 'submissionCount', 'submission', 'createdAt'] as const).map(
    (field) => ({
      name: `the owner creating an assignment with ${field}`,
      who: 'owner' as Who,
      request: (f: Fixture) =>
        newAssignment(f, {
          [field]:
            field === 'submissionCount'
              ? 99
              : field === 'submission'
                ? { id: f.submission.id, grade: 10 }
                : field === 'createdAt'
                  ? inDays(-400)
                  : field === 'courseTitle'
                    ? 'Renamed'
                    : otherTeacher.id,
        }),
      status: 400,
      field,
      unchanged: courseHasNoNewAssignment,
    }),
  ),
  {
    name: "another teacher creating an assignment on the owner's course",
    who: 'otherTeacher',
    request: (f) => newAssignment(f, {}),
    // The course is not theirs to see (DESIGN §11).
    status: 404,
    unchanged: courseHasNoNewAssignment,
  },
];

describe('fields a caller may not set', () => {
  it.each(fieldTable)('refuses $name with $status', async ({ who, request, status, field, unchanged }) => {
    const f = await fixture();
    const res = await t.app.inject({ ...request(f, who), headers: headersOf(who) });
    expect(res.statusCode, res.body).toBe(status);
    if (field) expect(res.json().message).toContain(field);
    await unchanged(f);
  });

  it('takes the owner of a course from the session, never from the query string', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/courses?teacherId=${owner.id}&teacher[id]=${owner.id}`,
      headers: otherTeacher.headers,
      payload: { title: 'Query smuggled', code: 'QS1', description: 'D' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ teacherId: otherTeacher.id, teacher: { id: otherTeacher.id } });
  });
});

/** Routes anyone may call: they are tested in auth/*.test.ts and app.test.ts. */
const PUBLIC_ROUTES = [
  'GET /api/health',
  'POST /api/auth/signup',
  'GET /api/auth/verify',
  'POST /api/auth/resend',
  'POST /api/auth/signin',
  'POST /api/auth/refresh',
  'POST /api/auth/signout',
  'GET /api/auth/settings',
  'POST /api/auth/recover',
  'POST /api/auth/reset',
  'POST /api/auth/reset/check',
];

describe('the permission table', () => {
  it('has a row for every signed-in route the API serves', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, object>;
    };
    const served = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
    );
    const covered = new Set([
      ...PUBLIC_ROUTES,
      ...[...table, ...conversationTable, ...lessonTable, ...oidcTable].map((row) =>
        row.endpoint.replace(/ \(.*\)$/, ''),
      ),
    ]);
    expect(served.filter((route) => !covered.has(route))).toEqual([]);
    expect(served.length).toBeGreaterThan(15);
  });
});

// ─── conversations (issue 27, DESIGN §19) ───────────────────────────────────────────────────────
// One course of the owner's built once for every row: students A and B active members (and the
// unassigned member, whom its assignment is not for), the former
// member removed by the teacher (not left), an assignment with student A's private thread, and a
// published post. Read-only rows share it; rows that change something act on a post or a comment
// of their own, written straight to the database (cheap, and no rate limit to budget for).

interface ConversationFixture {
  courseId: string;
  assignmentId: string;
  postId: string;
}
let conv: ConversationFixture;

beforeAll(async () => {
  const course = await createCourse(t, owner);
  await addCoTeacher(t, owner, course, coTeacher);
  await Promise.all([studentA, studentB, formerMember, unassigned].map((s) => joinCourse(t, s, course)));
  // Not for the unassigned member: it and its threads are not theirs. The former member had it before being removed.
  const assignment = await createAssignment(t, owner, course, {
    assignees: [studentA.id, studentB.id, formerMember.id],
  });
  const removed = await t.app.inject({
    method: 'DELETE',
    url: `/api/courses/${course.id}/members/${formerMember.id}`,
    headers: owner.headers,
  });
  if (removed.statusCode !== 200) throw new Error(`remove: ${removed.statusCode} ${removed.body}`);
  conv = { courseId: course.id, assignmentId: assignment.id, postId: await insertPost(course.id) };
  await insertComment(
    { courseId: course.id, assignmentId: assignment.id, threadStudentId: studentA.id },
    studentA,
  );
});

async function insertPost(courseId: string): Promise<string> {
  const id = randomUUID();
  const now = new Date();
  await t.app.core.db
    .insert(posts)
    .values({ id, courseId, authorId: owner.id, text: 'Row post', publishedAt: now, createdAt: now });
  return id;
}
/** The owner's file for a post (DESIGN §19): on a post of its own (published, or scheduled), or left in the composer. */
async function postFile(on: 'published' | 'scheduled' | 'composer'): Promise<string> {
  const fileId = await uploadFile(
    t,
    owner,
    { purpose: 'post', targetId: conv.courseId, name: 'handout.txt' },
    Buffer.from('handout'),
  );
  if (on === 'composer') return fileId;
  const postId = await insertPost(conv.courseId);
  if (on === 'scheduled')
    await t.app.core.db
      .update(posts)
      .set({ publishedAt: null, publishAt: new Date(Date.now() + 86_400_000) })
      .where(eq(posts.id, postId));
  await t.app.core.db.update(files).set({ postId }).where(eq(files.id, fileId));
  return fileId;
}
async function insertComment(
  on: { courseId: string; postId?: string; assignmentId?: string; threadStudentId?: string },
  author: Actor,
): Promise<string> {
  const id = randomUUID();
  await t.app.core.db.insert(comments).values({ id, ...on, authorId: author.id, text: 'Row comment' });
  return id;
}

interface ConversationRow {
  endpoint: string;
  /** Data of the row's own (a post to edit, a comment to delete); the shared fixture otherwise. */
  prepare?: () => Promise<string>;
  request: (own: string | undefined) => {
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
    url: string;
    payload?: object;
    headers?: Record<string, string>;
  };
  expected: Expected;
}

const ownPost = () => insertPost(conv.courseId);
/** Student A's own: only its student and the course's teacher; everyone else 404 (it does not leak). */
const threadParties = (status: number): Expected => ({
  ...only({ studentA: status, owner: status }),
});

const conversationTable: ConversationRow[] = [
  {
    endpoint: 'GET /api/courses/:id/posts',
    request: () => ({ method: 'GET', url: `/api/courses/${conv.courseId}/posts` }),
    expected: byMembership(200, 200, 404),
  },
  {
    endpoint: 'POST /api/courses/:id/posts',
    request: () => ({
      method: 'POST',
      url: `/api/courses/${conv.courseId}/posts`,
      payload: { text: 'New post' },
    }),
    expected: byMembership(403, 201, 404),
  },
  {
    endpoint: 'PATCH /api/posts/:id',
    prepare: ownPost,
    request: (id) => ({
      method: 'PATCH',
      url: `/api/posts/${id}`,
      payload: { text: 'Edited', pinned: true },
    }),
    expected: byMembership(403, 200, 404),
  },
  {
    endpoint: 'DELETE /api/posts/:id',
    prepare: ownPost,
    request: (id) => ({ method: 'DELETE', url: `/api/posts/${id}` }),
    expected: byMembership(403, 204, 404),
  },
  {
    endpoint: 'POST /api/posts/:id/seen',
    request: () => ({ method: 'POST', url: `/api/posts/${conv.postId}/seen` }),
    expected: byMembership(204, 204, 404),
  },
  {
    endpoint: 'GET /api/posts/:id/comments',
    request: () => ({ method: 'GET', url: `/api/posts/${conv.postId}/comments` }),
    expected: byMembership(200, 200, 404),
  },
  {
    endpoint: 'POST /api/posts/:id/comments',
    request: () => ({
      method: 'POST',
      url: `/api/posts/${conv.postId}/comments`,
      payload: { text: 'A comment' },
    }),
    // The removed member knows the post is there: told why (403 not_a_member).
    expected: { ...byMembership(201, 201, 404), formerMember: 403 },
  },
  {
    endpoint: 'DELETE /api/comments/:id (student A’s on a post)',
    prepare: () => insertComment({ courseId: conv.courseId, postId: conv.postId }, studentA),
    request: (id) => ({ method: 'DELETE', url: `/api/comments/${id}` }),
    expected: { ...byMembership(204, 204, 404), studentB: 403, unassigned: 403 },
  },
  {
    endpoint: 'DELETE /api/comments/:id (student A’s in their private thread)',
    prepare: () =>
      insertComment(
        { courseId: conv.courseId, assignmentId: conv.assignmentId, threadStudentId: studentA.id },
        studentA,
      ),
    request: (id) => ({ method: 'DELETE', url: `/api/comments/${id}` }),
    expected: threadParties(204),
  },
  {
    endpoint: 'GET /api/assignments/:id/threads',
    request: () => ({ method: 'GET', url: `/api/assignments/${conv.assignmentId}/threads` }),
    expected: byAssignment(200, 200, 404),
  },
  {
    endpoint: 'GET /api/assignments/:id/threads/:studentId',
    request: () => ({ method: 'GET', url: `/api/assignments/${conv.assignmentId}/threads/${studentA.id}` }),
    expected: threadParties(200),
  },
  {
    endpoint: 'POST /api/assignments/:id/threads/:studentId/comments',
    request: () => ({
      method: 'POST',
      url: `/api/assignments/${conv.assignmentId}/threads/${studentA.id}/comments`,
      payload: { text: 'A private word' },
    }),
    expected: threadParties(201),
  },
  {
    endpoint: 'POST /api/assignments/:id/threads/:studentId/comments (the removed member’s own)',
    request: () => ({
      method: 'POST',
      url: `/api/assignments/${conv.assignmentId}/threads/${formerMember.id}/comments`,
      payload: { text: 'Still here?' },
    }),
    // Nobody writes to a removed student's thread: they are told why, the teacher that they are gone.
    expected: { ...only({}), formerMember: 403 },
  },
  {
    endpoint: 'GET /api/courses/:id/stream',
    request: () => ({ method: 'GET', url: `/api/courses/${conv.courseId}/stream` }),
    expected: byMembership(200, 200, 404),
  },
  {
    endpoint: 'PATCH /api/courses/:id/stream',
    // Comments stay on: the shared fixture is not changed by the owner's 200.
    request: () => ({
      method: 'PATCH',
      url: `/api/courses/${conv.courseId}/stream`,
      payload: { commentsOff: false },
    }),
    expected: byMembership(403, 200, 404),
  },
  // A post's files (DESIGN §19): uploaded by the course's teachers in the composer, seen as the post is.
  {
    endpoint: 'POST /api/uploads (a post file)',
    request: () => ({
      method: 'POST',
      url: '/api/uploads',
      headers: {
        ...TUS,
        'upload-length': '4',
        'upload-metadata': tusMetadata({ purpose: 'post', targetId: conv.courseId, name: 'a.txt' }),
      },
    }),
    expected: { ...teachersOnly(201), otherTeacher: 404 },
  },
  {
    endpoint: "GET /api/files/:id (a published post's file)",
    prepare: () => postFile('published'),
    request: (id) => ({ method: 'GET', url: `/api/files/${id}` }),
    // The removed member lost the stream, and its files with it.
    expected: byMembership(200, 200, 404),
  },
  {
    endpoint: "GET /api/files/:id (a scheduled post's file)",
    prepare: () => postFile('scheduled'),
    request: (id) => ({ method: 'GET', url: `/api/files/${id}` }),
    expected: only({ owner: 200 }),
  },
  {
    endpoint: "GET /api/files/:id (a post's file still in the composer)",
    prepare: () => postFile('composer'),
    request: (id) => ({ method: 'GET', url: `/api/files/${id}` }),
    expected: { ...only({ owner: 200 }), coTeacher: 404 },
  },
  {
    endpoint: "DELETE /api/files/:id (a post's file)",
    prepare: () => postFile('published'),
    request: (id) => ({ method: 'DELETE', url: `/api/files/${id}` }),
    // It goes with its post (DELETE /api/posts/:id), not alone.
    expected: only({}),
  },
  {
    endpoint: "DELETE /api/files/:id (a post's file still in the composer)",
    prepare: () => postFile('composer'),
    request: (id) => ({ method: 'DELETE', url: `/api/files/${id}` }),
    expected: { ...only({ owner: 204 }), coTeacher: 404 },
  },
  {
    endpoint: 'GET /api/stream/news',
    request: () => ({ method: 'GET', url: '/api/stream/news' }),
    expected: everyoneSignedIn(200),
  },
  {
    endpoint: 'POST /api/courses/:id/stream/read',
    request: () => ({ method: 'POST', url: `/api/courses/${conv.courseId}/stream/read` }),
    expected: byMembership(204, 204, 404),
  },
  {
    endpoint: 'PUT /api/courses/:id/mutes/:studentId',
    request: () => ({ method: 'PUT', url: `/api/courses/${conv.courseId}/mutes/${formerMember.id}` }),
    expected: byMembership(403, 204, 404),
  },
  {
    endpoint: 'DELETE /api/courses/:id/mutes/:studentId',
    request: () => ({ method: 'DELETE', url: `/api/courses/${conv.courseId}/mutes/${formerMember.id}` }),
    expected: byMembership(403, 204, 404),
  },
];

describe.each(conversationTable)('$endpoint', ({ prepare, request, expected }) => {
  it.each(answersOf(expected))('answers %s with %i', async (who, status) => {
    const own = prepare ? await prepare() : undefined;
    const req = request(own);
    const res = await t.app.inject({ ...req, headers: { ...req.headers, ...headersOf(who) } });
    expect(res.statusCode, res.body).toBe(status);
    if (status >= 400) expect(res.json()).toMatchObject({ statusCode: status, code: expect.any(String) });
  });
});
// ─── end of conversations (issue 27) ────────────────────────────────────────────────────────────

// ─── live lessons (issue 29, DESIGN §21) ────────────────────────────────────────────────────────
// A course of the owner's with students A and B active members and the former member removed, as
// for conversations. Reads and answers share one live lesson with an open question; rows that
// start, push, close or end act on a course and lesson of their own (members written straight to
// the database: cheap).

interface LessonFixture {
  courseId: string;
  lessonId: string;
  questionId: string;
  /** A question in the course's bank. */
  bankId: string;
}
let live: LessonFixture;

/** A course of the owner's with the co-teacher (written straight in, as the members): A and B active, the former member removed. */
async function lessonCourse(): Promise<Course> {
  const course = await createCourse(t, owner);
  await t.app.core.db.insert(courseTeachers).values({ courseId: course.id, teacherId: coTeacher.id });
  await t.app.core.db.insert(courseMembers).values([
    { courseId: course.id, studentId: studentA.id, status: 'active' },
    { courseId: course.id, studentId: studentB.id, status: 'active' },
    { courseId: course.id, studentId: unassigned.id, status: 'active' },
    { courseId: course.id, studentId: formerMember.id, status: 'removed', endedAt: new Date() },
  ]);
  return course;
}
/** A live lesson of a course of its own, with an open question. */
async function ownLesson(): Promise<LessonFixture> {
  const course = await lessonCourse();
  const lesson = await startLesson(t, owner, course.id);
  const question = await pushQuestion(t, owner, lesson.id);
  return {
    courseId: course.id,
    lessonId: lesson.id,
    questionId: question.id,
    bankId: await banked(course.id),
  };
}
/** A question saved straight to the course's bank. */
async function banked(courseId: string): Promise<string> {
  const [row] = await t.app.core.db
    .insert(questionBank)
    .values({
      courseId,
      kind: 'true_false',
      prompt: 'Banked',
      options: [],
      correct: true,
      createdAt: new Date(),
    })
    .returning({ id: questionBank.id });
  return row!.id;
}

beforeAll(async () => {
  live = await ownLesson();
});

interface LessonRow {
  endpoint: string;
  /** Data of the row's own (a course to start a lesson in, a lesson to change); the shared one otherwise. */
  prepare?: () => Promise<LessonFixture>;
  request: (own: LessonFixture) => {
    method: 'GET' | 'POST' | 'PUT' | 'DELETE';
    url: string;
    payload?: object;
  };
  expected: Expected;
}

const lessonTable: LessonRow[] = [
  {
    endpoint: 'POST /api/courses/:id/lessons',
    prepare: async () => ({ ...live, courseId: (await lessonCourse()).id }),
    request: (own) => ({ method: 'POST', url: `/api/courses/${own.courseId}/lessons` }),
    expected: byMembership(403, 201, 404),
  },
  {
    endpoint: 'GET /api/courses/:id/lessons/current',
    request: (own) => ({ method: 'GET', url: `/api/courses/${own.courseId}/lessons/current` }),
    expected: byMembership(200, 200, 404),
  },
  {
    endpoint: 'GET /api/lessons/live',
    request: () => ({ method: 'GET', url: '/api/lessons/live' }),
    expected: everyoneSignedIn(200),
  },
  {
    endpoint: 'GET /api/lessons/:id',
    request: (own) => ({ method: 'GET', url: `/api/lessons/${own.lessonId}` }),
    expected: byMembership(200, 200, 404),
  },
  {
    endpoint: 'POST /api/lessons/:id/questions',
    prepare: ownLesson,
    request: (own) => ({
      method: 'POST',
      url: `/api/lessons/${own.lessonId}/questions`,
      payload: { kind: 'true_false', prompt: 'The sky is blue', correct: true },
    }),
    expected: byMembership(403, 201, 404),
  },
  {
    endpoint: 'POST /api/lessons/:id/questions/:qid/close',
    prepare: ownLesson,
    request: (own) => ({
      method: 'POST',
      url: `/api/lessons/${own.lessonId}/questions/${own.questionId}/close`,
    }),
    expected: byMembership(403, 200, 404),
  },
  {
    endpoint: 'POST /api/lessons/:id/end',
    prepare: ownLesson,
    request: (own) => ({
      method: 'POST',
      url: `/api/lessons/${own.lessonId}/end`,
      payload: { gradebook: true },
    }),
    expected: byMembership(403, 200, 404),
  },
  {
    endpoint: 'PUT /api/lessons/:id/questions/:qid/answer',
    request: (own) => ({
      method: 'PUT',
      url: `/api/lessons/${own.lessonId}/questions/${own.questionId}/answer`,
      payload: { answer: 1 },
    }),
    // A teacher does not answer (403); the removed member knows the lesson is there: told why (403 not_a_member).
    expected: { ...byMembership(200, 403, 404), formerMember: 403 },
  },
  // The question bank: the course's teachers only (a member student sees the course: 403).
  {
    endpoint: 'GET /api/courses/:id/question-bank',
    request: (own) => ({ method: 'GET', url: `/api/courses/${own.courseId}/question-bank` }),
    expected: byMembership(403, 200, 404),
  },
  {
    endpoint: 'POST /api/courses/:id/question-bank',
    request: (own) => ({
      method: 'POST',
      url: `/api/courses/${own.courseId}/question-bank`,
      payload: { kind: 'number', prompt: '6 × 7?', correct: 42 },
    }),
    expected: byMembership(403, 201, 404),
  },
  {
    endpoint: 'DELETE /api/courses/:id/question-bank/:qid',
    prepare: async () => ({ ...live, bankId: await banked(live.courseId) }),
    request: (own) => ({ method: 'DELETE', url: `/api/courses/${own.courseId}/question-bank/${own.bankId}` }),
    expected: byMembership(403, 204, 404),
  },
];

describe.each(lessonTable)('$endpoint', ({ prepare, request, expected }) => {
  it.each(answersOf(expected))('answers %s with %i', async (who, status) => {
    const own = prepare ? await prepare() : live;
    const res = await t.app.inject({ ...request(own), headers: headersOf(who) });
    expect(res.statusCode, res.body).toBe(status);
    if (status >= 400) expect(res.json()).toMatchObject({ statusCode: status, code: expect.any(String) });
  });
});
// ─── end of live lessons (issue 29) ─────────────────────────────────────────────────────────────

// ─── the school's sign-in (issue 28, DESIGN §20) ────────────────────────────────────────────────
// Public routes: whoever calls them, signed in or not, gets the same redirect; a caller's bearer
// token or session never stands in for the provider's answer (the flow cookie is the only proof).

interface OidcRow {
  endpoint: string;
  url: string;
  /** Where every caller is sent. */
  lands: (location: string) => boolean;
  expected: Expected;
}

const everyone = (status: number): Expected => ({
  ...everyoneSignedIn(status),
  anonymous: status,
  signedOut: status,
});

const oidcTable: OidcRow[] = [
  {
    endpoint: 'GET /api/auth/oidc/start',
    url: '/api/auth/oidc/start',
    lands: (location) => location.startsWith(`${provider.issuer}/`),
    expected: everyone(302),
  },
  {
    endpoint: 'GET /api/auth/oidc/callback',
    url: '/api/auth/oidc/callback?code=stolen&state=guessed',
    lands: (location) => location === `${TEST_ORIGIN}/login?error=oidc_state`,
    expected: everyone(302),
  },
];

describe.each(oidcTable)('$endpoint', ({ url, lands, expected }) => {
  it.each(answersOf(expected))('answers %s with %i', async (who, status) => {
    const res = await t.app.inject({ method: 'GET', url, headers: headersOf(who) });
    expect(res.statusCode, res.body).toBe(status);
    expect(lands(String(res.headers.location)), String(res.headers.location)).toBe(true);
    expect(res.cookies.find((c) => c.name === 'classwave_refresh')).toBeUndefined();
  });
});
// ─── end of the school's sign-in ────────────────────────────────────────────────────────────────
