import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ErrorCode,
  MAX_CO_TEACHERS,
  type Course,
  type CourseTeachers,
  type LiveEvent,
  type Submission,
} from '@classwave/shared';
import { bearer, signIn } from '../../test/support/app.js';
import {
  addCoTeacher,
  createAssignment,
  createClass,
  createCourse,
  createStudent,
  createTeacher,
  inviteCoTeacher,
  submit,
  type Actor,
} from '../../test/support/factories.js';
import { liveTestApp, type LiveTestApp } from '../../test/support/live-app.js';
import { barrier } from '../../test/support/sockets.js';

/** Co-teachers (DESIGN §20): invited by e-mail, accepted from the mailed link, all but the owner's few rights. */
let t: LiveTestApp;
beforeAll(async () => {
  // Over sixty accounts sign up from the one test address (the co-teacher limit alone takes 21).
  t = await liveTestApp({ rateLimits: { signUpPerIp: { max: 1000, timeWindow: 600_000 } } });
});
afterAll(() => t.close());
const as = (who: Actor) => ({ headers: who.headers });
const accept = (who: Actor, token: string) =>
  t.app.inject({ method: 'POST', url: `/api/teacher-invites/${token}/accept`, ...as(who) });
const teachersOf = async (who: Actor, course: Course) =>
  (
    await t.app.inject({ method: 'GET', url: `/api/courses/${course.id}/teachers`, ...as(who) })
  ).json<CourseTeachers>();
const coursesOf = async (who: Actor) =>
  (await t.app.inject({ method: 'GET', url: '/api/courses', ...as(who) })).json<Course[]>();
const grade = (who: Actor, submissionId: string, grade: number, baseVersion: number) =>
  t.app.inject({
    method: 'PATCH',
    url: `/api/submissions/${submissionId}`,
    ...as(who),
    payload: { grade, baseVersion },
  });
const notificationKinds = async (who: Actor) =>
  (await t.app.inject({ method: 'GET', url: '/api/notifications', ...as(who) }))
    .json<{ items: Array<{ kind: string }> }>()
    .items.map((n) => n.kind);

describe('inviting and accepting', () => {
  it('mails a link the invited teacher accepts; the course joins their list, marked as not theirs', async () => {
    const { teacher: owner, course } = await createClass(t, 1);
    const co = await createTeacher(t, 'Cora Coteacher');
    const token = await inviteCoTeacher(t, owner, course, co.email.toUpperCase());
    const mail = await t.mail.latestTo(co.email);
    expect(mail.subject).toContain(course.title);
    expect(mail.text).toContain(`/teacher-invites/${token}`);
    expect((await teachersOf(owner, course)).invites).toEqual([
      expect.objectContaining({ email: co.email.toUpperCase() }),
    ]);

    const preview = await t.app.inject({ method: 'GET', url: `/api/teacher-invites/${token}`, ...as(co) });
    expect(preview.json()).toMatchObject({
      course: { id: course.id },
      invitedBy: { fullName: owner.fullName },
    });
    const res = await accept(co, token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ course: Course }>().course).toMatchObject({ id: course.id, teacherId: owner.id });

    const list = await teachersOf(co, course);
    expect(list.teachers.map((x) => [x.id, x.role])).toEqual([
      [owner.id, 'owner'],
      [co.id, 'co_teacher'],
    ]);
    expect(list.invites).toEqual([]);
    const mine = (await coursesOf(co)).find((c) => c.id === course.id);
    // Co-taught: the owner is someone else, and the co-teacher manages joining too.
    expect(mine).toMatchObject({ teacherId: owner.id, joinCode: course.joinCode });

    const again = await accept(co, token);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: ErrorCode.teacherInviteUsed });
  });

  it('refuses a wrong, a malformed and an expired token, a student, and a teacher with another address', async () => {
    const { teacher: owner, course, students } = await createClass(t, 1);
    const [invited, other] = await Promise.all([createTeacher(t), createTeacher(t)]);
    const wrong = await accept(invited, 'A'.repeat(43));
    expect([wrong.statusCode, wrong.json().code]).toEqual([404, ErrorCode.teacherInviteInvalid]);
    const malformed = await accept(invited, 'not a token!');
    expect(malformed.statusCode).toBe(400);

    const token = await inviteCoTeacher(t, owner, course, invited.email);
    const student = await accept(students[0]!, token);
    expect([student.statusCode, student.json().message]).toEqual([
      403,
      expect.stringMatching(/teacher account/),
    ]);
    const stranger = await accept(other, token);
    expect([stranger.statusCode, stranger.json().message]).toEqual([
      403,
      expect.stringContaining(invited.email),
    ]);
    expect((await coursesOf(other)).map((c) => c.id)).not.toContain(course.id);

    t.clock.advance(8 * 24 * 3600 * 1000);
    try {
      // A session of that later day (the access token of today's would have run out too).
      const { accessToken } = await signIn(t, invited.email);
      const expired = await t.app.inject({
        method: 'POST',
        url: `/api/teacher-invites/${token}/accept`,
        headers: bearer(accessToken),
      });
      expect([expired.statusCode, expired.json().code]).toEqual([410, ErrorCode.teacherInviteExpired]);
    } finally {
      t.clock.advance(-8 * 24 * 3600 * 1000);
    }
    // Inviting again replaces the link: the first one stops.
    const fresh = await inviteCoTeacher(t, owner, course, invited.email);
    expect((await accept(invited, token)).statusCode).toBe(404);
    expect((await accept(invited, fresh)).statusCode).toBe(200);
    const twice = await t.app.inject({
      method: 'POST',
      url: `/api/courses/${course.id}/teachers`,
      ...as(owner),
      payload: { email: invited.email },
    });
    expect([twice.statusCode, twice.json().message]).toEqual([
      409,
      expect.stringContaining('already teaches'),
    ]);
  });

  it(`stops at ${MAX_CO_TEACHERS} co-teachers`, async () => {
    const owner = await createTeacher(t);
    const course = await createCourse(t, owner);
    const teachers = await Promise.all(Array.from({ length: MAX_CO_TEACHERS }, () => createTeacher(t)));
    for (const co of teachers) await addCoTeacher(t, owner, course, co);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/courses/${course.id}/teachers`,
      ...as(owner),
      payload: { email: 'one.more@school.test' },
    });
    expect([res.statusCode, res.json().code]).toEqual([409, ErrorCode.tooManyTeachers]);
  });
});

describe('what a co-teacher may do', () => {
  it('creates and grades beside the owner (the version check between them), but never deletes the course or removes the owner', async () => {
    const { teacher: owner, course, students } = await createClass(t, 1);
    const co = await createTeacher(t);
    await addCoTeacher(t, owner, course, co);
    const made = await createAssignment(t, co, course, { maxPoints: 10 });
    const own = await submit(t, students[0]!, made);

    const list = await t.app.inject({
      method: 'GET',
      url: `/api/assignments/${made.id}/submissions`,
      ...as(co),
    });
    expect(list.json<Submission[]>().map((s) => s.id)).toEqual([own.id]);
    expect((await grade(owner, own.id, 7, 0)).statusCode).toBe(200);
    // The co-teacher started from version 0 too: told who graded, not silently overwritten.
    const stale = await grade(co, own.id, 9, 0);
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ code: ErrorCode.gradeConflict, current: { grade: 7 } });
    expect((await grade(co, own.id, 9, 1)).statusCode).toBe(200);
    const book = await t.app.inject({ method: 'GET', url: `/api/courses/${course.id}/gradebook`, ...as(co) });
    expect(book.statusCode).toBe(200);

    const del = await t.app.inject({ method: 'DELETE', url: `/api/courses/${course.id}`, ...as(co) });
    expect([del.statusCode, del.json().message]).toEqual([403, expect.stringContaining('owner')]);
    const removeOwner = await t.app.inject({
      method: 'DELETE',
      url: `/api/courses/${course.id}/teachers/${owner.id}`,
      ...as(co),
    });
    expect(removeOwner.statusCode).toBe(403);
    const byOwner = await t.app.inject({
      method: 'DELETE',
      url: `/api/courses/${course.id}/teachers/${owner.id}`,
      ...as(owner),
    });
    expect(byOwner.statusCode).toBe(403);
    expect((await teachersOf(owner, course)).teachers).toHaveLength(2);
  });

  it('is told of each submission and of private comments, as the owner is', async () => {
    const { teacher: owner, course, students } = await createClass(t, 1);
    const co = await createTeacher(t);
    await addCoTeacher(t, owner, course, co);
    const assignment = await createAssignment(t, owner, course);
    await submit(t, students[0]!, assignment);
    await t.app.core.afterCommit.settled();
    expect(await notificationKinds(co)).toContain('submissions');
    expect(await notificationKinds(owner)).toContain('submissions');

    const [ownerTab, coTab] = await Promise.all([t.tab(owner), t.tab(co)]);
    const wrote = await t.app.inject({
      method: 'POST',
      url: `/api/assignments/${assignment.id}/threads/${students[0]!.id}/comments`,
      ...as(students[0]!),
      payload: { text: 'A question for my teachers' },
    });
    expect(wrote.statusCode, wrote.body).toBe(201);
    await Promise.all([ownerTab, coTab].map((r) => r.waitFor((e) => e.type === 'thread:comment')));
    expect(await notificationKinds(co)).toContain('thread_comment');
    expect(await notificationKinds(owner)).toContain('thread_comment');
    // The co-teacher answers in the same thread; the student reads both sides.
    const reply = await t.app.inject({
      method: 'POST',
      url: `/api/assignments/${assignment.id}/threads/${students[0]!.id}/comments`,
      ...as(co),
      payload: { text: 'Happy to help' },
    });
    expect(reply.statusCode, reply.body).toBe(201);
  });
});

describe('live', () => {
  const isSubmission = (assignmentId: string) => (e: LiveEvent) =>
    e.type === 'submission:created' && (e.data as { assignmentId: string }).assignmentId === assignmentId;

  it('a co-teacher hears the course from acceptance, catches up after a reconnect, and nothing after removal', async () => {
    const { teacher: owner, course, students } = await createClass(t, 2);
    const co = await createTeacher(t);
    const coTab = await t.tab(co);
    await addCoTeacher(t, owner, course, co);
    await coTab.waitFor((e) => e.type === 'course:created' && (e.data as Course).id === course.id);
    const first = await createAssignment(t, owner, course);
    await coTab.waitFor((e) => e.type === 'assignment:created' && (e.data as { id: string }).id === first.id);

    // Offline while a student submits: the replay on reconnect brings it.
    const lastSeen = coTab.events.at(-1)!.id;
    coTab.close();
    await submit(t, students[0]!, first);
    const back = await t.tab(co, lastSeen);
    expect(back.missed[0]!.events.some(isSubmission(first.id))).toBe(true);

    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/courses/${course.id}/teachers/${co.id}`,
      ...as(owner),
    });
    expect(removed.statusCode, removed.body).toBe(200);
    await back.waitFor((e) => e.type === 'course:deleted' && (e.data as { id: string }).id === course.id);
    const ownerTab = await t.tab(owner);
    await submit(t, students[1]!, first);
    await ownerTab.waitFor(
      (e) =>
        e.type === 'submission:created' && (e.data as { studentId: string }).studentId === students[1]!.id,
    );
    await barrier(back);
    expect(back.events.filter(isSubmission(first.id))).toHaveLength(0);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/courses/${course.id}`, ...as(co) })).statusCode,
    ).toBe(404);
    // A later reconnect replays nothing of the course either.
    const later = await t.tab(co, lastSeen);
    expect(
      later.missed[0]!.events.filter(isSubmission(first.id)).map(
        (e) => (e.data as { studentId: string }).studentId,
      ),
    ).toEqual([students[0]!.id]);
  });

  it('a removed co-teacher is refused everywhere at once', async () => {
    const { teacher: owner, course, students } = await createClass(t, 1);
    const co = await createTeacher(t);
    await addCoTeacher(t, owner, course, co);
    const assignment = await createAssignment(t, owner, course, { maxPoints: 10 });
    const own = await submit(t, students[0]!, assignment);
    await t.app.inject({
      method: 'DELETE',
      url: `/api/courses/${course.id}/teachers/${co.id}`,
      ...as(owner),
    });
    expect((await grade(co, own.id, 5, 0)).statusCode).toBe(404);
    expect((await coursesOf(co)).map((c) => c.id)).not.toContain(course.id);
    const again = await t.app.inject({
      method: 'DELETE',
      url: `/api/courses/${course.id}/teachers/${co.id}`,
      ...as(owner),
    });
    expect(again.statusCode).toBe(404);
  });
});

describe('DELETE /api/courses/:id/teachers/:userId (leaving)', () => {
  const leave = (who: Actor, course: Course, userId = who.id) =>
    t.app.inject({ method: 'DELETE', url: `/api/courses/${course.id}/teachers/${userId}`, ...as(who) });

  it('a co-teacher leaves by their own id: 204, the course leaves their tabs at once, the owner is told', async () => {
    const { teacher: owner, course, students } = await createClass(t, 1);
    const [co, other] = await Promise.all([createTeacher(t), createTeacher(t)]);
    await addCoTeacher(t, owner, course, co);
    await addCoTeacher(t, owner, course, other);
    const [coTab, ownerTab] = await Promise.all([t.tab(co), t.tab(owner)]);

    const res = await leave(co, course);
    expect(res.statusCode, res.body).toBe(204);
    await coTab.waitFor((e) => e.type === 'course:deleted' && (e.data as { id: string }).id === course.id);
    const told = await ownerTab.waitFor(
      (e) => e.type === 'course:teachers' && (e.data as CourseTeachers).courseId === course.id,
    );
    expect((told.data as CourseTeachers).teachers.map((x) => x.id)).toEqual([owner.id, other.id]);
    expect((await coursesOf(co)).map((c) => c.id)).not.toContain(course.id);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/courses/${course.id}`, ...as(co) })).statusCode,
    ).toBe(404);
    // Nothing of the course reaches the one who left.
    const assignment = await createAssignment(t, owner, course);
    await submit(t, students[0]!, assignment);
    await ownerTab.waitFor((e) => e.type === 'submission:created');
    await barrier(coTab);
    expect(coTab.events.filter((e) => e.type === 'submission:created')).toHaveLength(0);
    // Gone is gone: leaving again is a course they cannot see.
    expect((await leave(co, course)).statusCode).toBe(404);
  });

  it('the owner cannot leave, a co-teacher cannot remove another, a student cannot use it', async () => {
    const { teacher: owner, course, students } = await createClass(t, 1);
    const [co, other] = await Promise.all([createTeacher(t), createTeacher(t)]);
    await addCoTeacher(t, owner, course, co);
    await addCoTeacher(t, owner, course, other);
    const self = await leave(owner, course);
    expect([self.statusCode, self.json().message]).toEqual([403, expect.stringContaining('own')]);
    expect((await leave(co, course, other.id)).statusCode).toBe(403);
    expect((await leave(students[0]!, course)).statusCode).toBe(403);
    expect((await teachersOf(owner, course)).teachers).toHaveLength(3);
  });
});

describe('DELETE /api/courses/:id/teacher-invites/:inviteId', () => {
  const cancel = (who: Actor, course: Course, inviteId: string) =>
    t.app.inject({
      method: 'DELETE',
      url: `/api/courses/${course.id}/teacher-invites/${inviteId}`,
      ...as(who),
    });

  it('the owner cancels an open invitation: gone from the list, its link answers as an unknown one', async () => {
    const { teacher: owner, course } = await createClass(t, 0);
    const [invited, co] = await Promise.all([createTeacher(t), createTeacher(t)]);
    await addCoTeacher(t, owner, course, co);
    const token = await inviteCoTeacher(t, owner, course, invited.email);
    const [invite] = (await teachersOf(owner, course)).invites;
    const coTab = await t.tab(co);

    const res = await cancel(owner, course, invite!.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<CourseTeachers>().invites).toEqual([]);
    const told = await coTab.waitFor(
      (e) => e.type === 'course:teachers' && (e.data as CourseTeachers).courseId === course.id,
    );
    expect((told.data as CourseTeachers).invites).toEqual([]);
    const preview = await t.app.inject({
      method: 'GET',
      url: `/api/teacher-invites/${token}`,
      ...as(invited),
    });
    expect([preview.statusCode, preview.json().code]).toEqual([404, ErrorCode.teacherInviteInvalid]);
    const late = await accept(invited, token);
    expect([late.statusCode, late.json().code]).toEqual([404, ErrorCode.teacherInviteInvalid]);
    expect((await coursesOf(invited)).map((c) => c.id)).not.toContain(course.id);
    // Once is enough: a second cancel finds nothing.
    expect((await cancel(owner, course, invite!.id)).statusCode).toBe(404);
  });

  it("refuses a co-teacher (403), another course's owner (404), and an accepted invitation (404)", async () => {
    const { teacher: owner, course } = await createClass(t, 0);
    const { teacher: stranger } = await createClass(t, 0);
    const [invited, co] = await Promise.all([createTeacher(t), createTeacher(t)]);
    await inviteCoTeacher(t, owner, course, invited.email);
    const [open] = (await teachersOf(owner, course)).invites;
    expect((await cancel(stranger, course, open!.id)).statusCode).toBe(404);
    const token = await inviteCoTeacher(t, owner, course, co.email);
    const coInvite = (await teachersOf(owner, course)).invites.find((i) => i.email === co.email)!;
    expect((await accept(co, token)).statusCode).toBe(200);
    expect((await cancel(co, course, open!.id)).statusCode).toBe(403);
    expect((await cancel(owner, course, coInvite.id)).statusCode).toBe(404);
    expect((await teachersOf(owner, course)).invites.map((i) => i.id)).toEqual([open!.id]);
  });
});

describe('course:teachers to the class (the Instructors card, live)', () => {
  const ofCourse = (course: Course) => (e: LiveEvent) =>
    e.type === 'course:teachers' && (e.data as CourseTeachers).courseId === course.id;
  const drop = (course: Course, who: Actor, userId: string) =>
    t.app.inject({ method: 'DELETE', url: `/api/courses/${course.id}/teachers/${userId}`, ...as(who) });

  it('a member hears who teaches, by name, as one joins, is removed or leaves; never an address or an invitation', async () => {
    const { teacher: owner, course, students } = await createClass(t, 2);
    const [member, removed] = students as [Actor, Actor];
    const [outsider, co, leaver] = await Promise.all([
      createStudent(t),
      createTeacher(t, 'Cleo Coteacher'),
      createTeacher(t, 'Lee Leaver'),
    ]);
    const kicked = await t.app.inject({
      method: 'DELETE',
      url: `/api/courses/${course.id}/members/${removed.id}`,
      ...as(owner),
    });
    expect(kicked.statusCode, kicked.body).toBe(200);
    const [memberTab, removedTab, outsiderTab, ownerTab] = await Promise.all([
      t.tab(member),
      t.tab(removed),
      t.tab(outsider),
      t.tab(owner),
    ]);
    const { lastId } = (await t.app.inject({ method: 'GET', url: '/api/events', ...as(member) })).json<{
      lastId: number;
    }>();

    // An invitation changes nobody's card: it stays with the teachers.
    await inviteCoTeacher(t, owner, course, 'pending.invitee@school.test');
    await addCoTeacher(t, owner, course, co);
    await addCoTeacher(t, owner, course, leaver);
    expect((await drop(course, owner, co.id)).statusCode).toBe(200);
    expect((await drop(course, leaver, leaver.id)).statusCode).toBe(204);
    await ownerTab.waitFor((e) => ofCourse(course)(e) && (e.data as CourseTeachers).teachers.length === 1);
    await memberTab.waitFor((e) => ofCourse(course)(e) && (e.data as CourseTeachers).teachers.length === 1);
    await barrier(memberTab, removedTab, outsiderTab, ownerTab);

    const ownerName = { id: owner.id, fullName: owner.fullName, role: 'owner' };
    const coName = { id: co.id, fullName: 'Cleo Coteacher', role: 'co_teacher' };
    const leaverName = { id: leaver.id, fullName: 'Lee Leaver', role: 'co_teacher' };
    const heard = memberTab.events.filter(ofCourse(course));
    expect(heard.map((e) => e.data)).toEqual(
      [[ownerName, coName], [ownerName, coName, leaverName], [ownerName, leaverName], [ownerName]].map(
        (teachers) => ({ courseId: course.id, teachers, invites: [] }),
      ),
    );
    for (const address of ['pending.invitee@school.test', owner.email, co.email, leaver.email])
      expect(JSON.stringify(heard)).not.toContain(address);
    // The teachers' own view keeps the open invitation and the addresses.
    const last = ownerTab.events.filter(ofCourse(course)).at(-1)!.data as CourseTeachers;
    expect(last.invites.map((i) => i.email)).toEqual(['pending.invitee@school.test']);
    expect(last.teachers.map((x) => x.email)).toEqual([owner.email]);
    expect(removedTab.events.filter((e) => e.type === 'course:teachers')).toEqual([]);
    expect(outsiderTab.events.filter((e) => e.type === 'course:teachers')).toEqual([]);

    // A tab that was away is sent the same, and only if it is the member's.
    const [memberBack, removedBack] = await Promise.all([t.tab(member, lastId), t.tab(removed, lastId)]);
    expect(memberBack.missed[0]!.events.filter(ofCourse(course)).map((e) => e.data)).toEqual(
      heard.map((e) => e.data),
    );
    expect(removedBack.missed[0]!.events.filter((e) => e.type === 'course:teachers')).toEqual([]);
  });
});

describe('GET /api/courses/:id (teachers)', () => {
  it('names every teacher, the owner first, to its students and its teachers alike (no addresses)', async () => {
    const { teacher: owner, course, students } = await createClass(t, 1);
    const co = await createTeacher(t, 'Cleo Coteacher');
    await addCoTeacher(t, owner, course, co);
    for (const who of [students[0]!, co, owner]) {
      const res = await t.app.inject({ method: 'GET', url: `/api/courses/${course.id}`, ...as(who) });
      expect(res.json<{ teachers: unknown }>().teachers).toEqual([
        { id: owner.id, fullName: owner.fullName, role: 'owner' },
        { id: co.id, fullName: 'Cleo Coteacher', role: 'co_teacher' },
      ]);
    }
  });
});
