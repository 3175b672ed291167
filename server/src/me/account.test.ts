import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveEvent, SessionInfo } from '@classwave/shared';
import {
  bearer,
  createTestApp,
  createVerifiedUser,
  PASSWORD,
  signIn,
  type TestApp,
} from '../../test/support/app.js';
import {
  createAssignment,
  createCourse,
  createStudent,
  createTeacher,
  joinCourse,
  submit,
} from '../../test/support/factories.js';
import { connect, disconnected, listen, type Recorder } from '../../test/support/sockets.js';

let t: TestApp;
let url: string;
const open: Recorder[] = [];
beforeAll(async () => {
  t = await createTestApp();
  url = await listen(t.app);
});
afterAll(async () => {
  for (const r of open) r.close();
  await t.close();
});

const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

async function signInWith(email: string, userAgent: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/signin',
    headers: { 'user-agent': userAgent },
    payload: { email, password: PASSWORD },
  });
  expect(res.statusCode).toBe(200);
  const cookie = res.cookies.find((c) => c.name === 'classwave_refresh')!;
  return { token: res.json().session.accessToken as string, cookie: `classwave_refresh=${cookie.value}` };
}

describe('PATCH /api/me', () => {
  it("renames the caller, and every one of their tabs hears it (nobody else's)", async () => {
    const student = await createStudent(t, 'Old Name');
    const other = await createStudent(t, 'Someone Else');
    const secondTab = await signIn(t, student.email);
    const [a, b, stranger] = await Promise.all([
      connect(url, student.token),
      connect(url, secondTab.accessToken),
      connect(url, other.token),
    ]);
    open.push(a, b, stranger);
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/api/me',
      headers: student.headers,
      payload: { fullName: '  New Name  ' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ id: student.id, fullName: 'New Name', role: 'student' });
    const isRename = (e: LiveEvent) => e.type === 'profile:updated';
    expect((await b.waitFor(isRename)).data).toEqual({
      id: student.id,
      fullName: 'New Name',
      role: 'student',
    });
    await a.waitFor(isRename);
    expect(stranger.events.some(isRename)).toBe(false);
    const me = await t.app.inject({ method: 'GET', url: '/api/me', headers: student.headers });
    expect(me.json().profile.fullName).toBe('New Name');
  });

  it('refuses a blank name and a role change', async () => {
    const student = await createStudent(t);
    const blank = await t.app.inject({
      method: 'PATCH',
      url: '/api/me',
      headers: student.headers,
      payload: { fullName: '   ' },
    });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().message).toContain('fullName');
    const role = await t.app.inject({
      method: 'PATCH',
      url: '/api/me',
      headers: student.headers,
      payload: { fullName: 'Sneaky', role: 'teacher' },
    });
    expect(role.statusCode).toBe(400);
    const me = await t.app.inject({ method: 'GET', url: '/api/me', headers: student.headers });
    expect(me.json().profile).toMatchObject({ role: 'student', fullName: 'Sam Student' });
  });
});

describe('POST /api/me/password', () => {
  it('refuses a wrong current password and changes nothing', async () => {
    const student = await createStudent(t);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/me/password',
      headers: student.headers,
      payload: { currentPassword: 'not my password', newPassword: 'a new passphrase' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('wrong_password');
    expect((await signIn(t, student.email, PASSWORD)).accessToken).toBeTruthy();
  });

  it('changes the password, keeps this session and ends the others with their sockets', async () => {
    const { email } = await createVerifiedUser(t);
    const here = await signIn(t, email);
    const there = await signIn(t, email);
    const socket = await connect(url, there.accessToken);
    open.push(socket);
    const ended = new Promise<{ reason: string }>((r) => socket.socket.once('session:ended', r));
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/me/password',
      headers: bearer(here.accessToken),
      payload: { currentPassword: PASSWORD, newPassword: 'a new passphrase' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await ended).toEqual({ reason: 'password_changed' });
    await disconnected(socket.socket);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/me', headers: bearer(here.accessToken) })).statusCode,
    ).toBe(200);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/me', headers: bearer(there.accessToken) })).statusCode,
    ).toBe(401);
    expect((await signIn(t, email, 'a new passphrase')).accessToken).toBeTruthy();
  });
});

describe('GET and DELETE /api/me/sessions', () => {
  it('lists each session with its device and last seen, and signs out everywhere else', async () => {
    const { email } = await createVerifiedUser(t);
    const laptop = await signInWith(email, FIREFOX);
    const phone = await signInWith(email, SAFARI_IPHONE);
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/me/sessions',
      headers: bearer(laptop.token),
    });
    expect(list.statusCode).toBe(200);
    const sessions = list.json<{ sessions: SessionInfo[] }>().sessions;
    expect(sessions.map((s) => [s.device, s.current]).sort()).toEqual([
      ['Firefox on Windows', true],
      ['Safari on iOS', false],
    ]);

    // last_seen_at moves on refresh, at most once a minute.
    const before = sessions.find((s) => !s.current)!.lastSeenAt;
    t.clock.advance(5 * 60 * 1000);
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      headers: { cookie: phone.cookie },
    });
    expect(refreshed.statusCode).toBe(200);
    const after = (
      await t.app.inject({ method: 'GET', url: '/api/me/sessions', headers: bearer(laptop.token) })
    )
      .json<{ sessions: SessionInfo[] }>()
      .sessions.find((s) => !s.current)!.lastSeenAt;
    expect(Date.parse(after) - Date.parse(before)).toBeGreaterThanOrEqual(5 * 60 * 1000);

    const phoneSocket = await connect(url, refreshed.json().session.accessToken);
    open.push(phoneSocket);
    const out = await t.app.inject({
      method: 'DELETE',
      url: '/api/me/sessions',
      headers: bearer(laptop.token),
    });
    expect(out.json()).toEqual({ ended: 1 });
    await disconnected(phoneSocket.socket);
    const left = await t.app.inject({
      method: 'GET',
      url: '/api/me/sessions',
      headers: bearer(laptop.token),
    });
    expect(left.json().sessions).toHaveLength(1);
  });
});

describe('DELETE /api/me/sessions/:id', () => {
  // Issue 25: only "sign out everywhere else" was offered, not one lost phone.
  it('signs one other device out, its socket told; never the current one, nor anyone else’s', async () => {
    const { email } = await createVerifiedUser(t);
    const laptop = await signInWith(email, FIREFOX);
    const phone = await signInWith(email, SAFARI_IPHONE);
    const tablet = await signInWith(email, SAFARI_IPHONE);
    const other = await signInWith((await createVerifiedUser(t)).email, FIREFOX);
    const listOf = async (token: string) =>
      (await t.app.inject({ method: 'GET', url: '/api/me/sessions', headers: bearer(token) })).json<{
        sessions: SessionInfo[];
      }>().sessions;
    const [phoneSession] = (await listOf(phone.token)).filter((s) => s.current);
    const [otherSession] = (await listOf(other.token)).filter((s) => s.current);
    const [laptopSession] = (await listOf(laptop.token)).filter((s) => s.current);
    const phoneSocket = await connect(url, phone.token);
    open.push(phoneSocket);
    const signOut = (id: string, token = laptop.token) =>
      t.app.inject({ method: 'DELETE', url: `/api/me/sessions/${id}`, headers: bearer(token) });

    expect((await signOut(otherSession!.id)).statusCode).toBe(404);
    const own = await signOut(laptopSession!.id);
    expect(own.statusCode).toBe(400);
    expect(own.json<{ message: string }>().message).toMatch(/Sign Out/);
    expect((await signOut(phoneSession!.id)).statusCode).toBe(204);
    await disconnected(phoneSocket.socket);
    // Ended: gone from the list, its refresh refused, a second try 404; the tablet still signed in.
    expect((await listOf(laptop.token)).map((s) => s.id)).not.toContain(phoneSession!.id);
    const refresh = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      headers: { cookie: phone.cookie },
    });
    expect(refresh.statusCode).toBe(401);
    expect((await signOut(phoneSession!.id)).statusCode).toBe(404);
    expect((await listOf(tablet.token)).length).toBe(2);
    expect((await listOf(other.token)).length).toBe(1);
  });
});

describe('GET /api/me/export', () => {
  it("gives a student their profile, courses, submissions with grades and chat, and nobody else's", async () => {
    const teacher = await createTeacher(t);
    const student = await createStudent(t, 'Export Me');
    const classmate = await createStudent(t);
    const course = await createCourse(t, teacher, { title: 'History' });
    // A course joined but not yet submitted to is the student's too.
    const joinedOnly = await createCourse(t, teacher, { title: 'Latin' });
    await Promise.all([joinCourse(t, student, course), joinCourse(t, student, joinedOnly)]);
    await joinCourse(t, classmate, course);
    const assignment = await createAssignment(t, teacher, course, { title: 'Essay on Rome', maxPoints: 20 });
    const mine = await submit(t, student, assignment, 'Rome was not built in a day.');
    await submit(t, classmate, assignment, 'Not mine to export.');
    await t.app.inject({
      method: 'PATCH',
      url: `/api/submissions/${mine.id}`,
      headers: teacher.headers,
      payload: { grade: 18, feedback: 'Well argued', baseVersion: 0 },
    });
    const unfinished = await createAssignment(t, teacher, course, { title: 'Letter to Cicero' });
    const saved = await t.app.inject({
      method: 'PUT',
      url: `/api/assignments/${unfinished.id}/draft`,
      headers: student.headers,
      payload: { content: 'Dear Marcus, half a thought', baseVersion: 0 },
    });
    expect(saved.statusCode).toBe(200);
    await t.app.inject({
      method: 'PUT',
      url: `/api/assignments/${unfinished.id}/draft`,
      headers: classmate.headers,
      payload: { content: 'A classmate draft', baseVersion: 0 },
    });
    const res = await t.app.inject({ method: 'GET', url: '/api/me/export', headers: student.headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('attachment');
    const data = res.json();
    expect(data.profile).toEqual({ id: student.id, fullName: 'Export Me', role: 'student' });
    expect(data.user.email).toBe(student.email);
    expect(data.courses.map((c: { title: string }) => c.title)).toEqual(['History', 'Latin']);
    expect(data.submissions).toEqual([
      expect.objectContaining({
        assignmentTitle: 'Essay on Rome',
        content: 'Rome was not built in a day.',
        grade: 18,
        maxPoints: 20,
        feedback: 'Well argued',
      }),
    ]);
    expect(data.drafts).toEqual([
      expect.objectContaining({
        assignmentTitle: 'Letter to Cicero',
        content: 'Dear Marcus, half a thought',
      }),
    ]);
    // Members hear of new assignments (DESIGN §14): the inbox leaves with the export.
    expect(data.notifications.map((n: { title: string }) => n.title)).toEqual(
      expect.arrayContaining([expect.stringContaining('Letter to Cicero')]),
    );
    expect(res.body).not.toContain('Not mine to export');
    expect(res.body).not.toContain('A classmate draft');
    expect(res.body).not.toContain('password');
  });
});

describe('DELETE /api/me', () => {
  it('refuses a wrong password', async () => {
    const student = await createStudent(t);
    const res = await t.app.inject({
      method: 'DELETE',
      url: '/api/me',
      headers: student.headers,
      payload: { password: 'not my password' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('wrong_password');
    expect((await t.app.inject({ method: 'GET', url: '/api/me', headers: student.headers })).statusCode).toBe(
      200,
    );
  });

  it('tells a teacher who owns courses to delete or hand them over first', async () => {
    const teacher = await createTeacher(t);
    await createCourse(t, teacher);
    const res = await t.app.inject({
      method: 'DELETE',
      url: '/api/me',
      headers: teacher.headers,
      payload: { password: PASSWORD },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'owns_courses',
      message: expect.stringMatching(/hand them over/),
    });
  });

  it('deletes a student with their submissions, ends their sessions, and frees the address', async () => {
    const teacher = await createTeacher(t);
    const student = await createStudent(t);
    const course = await createCourse(t, teacher);
    await joinCourse(t, student, course);
    const assignment = await createAssignment(t, teacher, course);
    await submit(t, student, assignment, 'Soon gone');
    const socket = await connect(url, student.token);
    const teacherTab = await connect(url, teacher.token);
    open.push(socket, teacherTab);
    const res = await t.app.inject({
      method: 'DELETE',
      url: '/api/me',
      headers: student.headers,
      payload: { password: PASSWORD },
    });
    expect(res.statusCode, res.body).toBe(204);
    await disconnected(socket.socket);
    // The teacher's open roster and gradebook hear it at once (issue 25: only a reload showed it).
    const left = await teacherTab.waitFor((e) => e.type === 'member:left');
    expect(left.data).toMatchObject({
      course: { id: course.id },
      member: { student: { id: student.id }, status: 'left', submissionCount: 0 },
    });
    const roster = await t.app.inject({
      method: 'GET',
      url: `/api/courses/${course.id}/members`,
      headers: teacher.headers,
    });
    expect(roster.json()).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: '/api/me', headers: student.headers })).statusCode).toBe(
      401,
    );
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/assignments/${assignment.id}/submissions`,
      headers: teacher.headers,
    });
    expect(list.json()).toEqual([]);
    const signin = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signin',
      payload: { email: student.email, password: PASSWORD },
    });
    expect(signin.statusCode).toBe(400);
    await createVerifiedUser(t, { email: student.email });
  });
});
