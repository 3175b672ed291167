import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Course, RosterImportResult } from '@classwave/shared';
import {
  bearer,
  createTestApp,
  createVerifiedUser,
  PASSWORD,
  signIn,
  type TestApp,
} from '../../test/support/app.js';
import { connect, listen } from '../../test/support/sockets.js';
import { resetLinkIn } from '../../test/support/mail-catcher.js';
import { accountVerifiedJobKey, scheduleAccountVerified } from '../auth/verified.js';
import {
  addCoTeacher,
  createCourse,
  createStudent,
  createTeacher,
  joinCourse,
  type Actor,
} from '../../test/support/factories.js';
import { rosterInvites } from '../db/schema.js';

let t: TestApp;
let owner: Actor;
let coTeacher: Actor;
let member: Actor;
let url: string;
beforeAll(async () => {
  t = await createTestApp();
  url = await listen(t.app);
  [owner, coTeacher, member] = await Promise.all([
    createTeacher(t, 'Roster Owner'),
    createTeacher(t, 'Roster Co'),
    createStudent(t, 'Member Student'),
  ]);
});
afterAll(() => t.close());

let n = 0;
/** Addresses of this test's own (the mail catcher is shared by the file). */
const at = (name: string) => `${name}.${++n}.${Date.now().toString(36)}@pupils.school.test`;

async function course(): Promise<Course> {
  const c = await createCourse(t, owner);
  await addCoTeacher(t, owner, c, coTeacher);
  return c;
}

function importRoster(c: Course, body: object | string, options: { dryRun?: boolean; as?: Actor } = {}) {
  return t.app.inject({
    method: 'POST',
    url: `/api/courses/${c.id}/roster-import${options.dryRun ? '?dryRun=1' : ''}`,
    headers: {
      ...(options.as ?? owner).headers,
      ...(typeof body === 'string' ? { 'content-type': 'text/csv' } : {}),
    },
    payload: typeof body === 'string' ? body : body,
  });
}
const result = (res: Awaited<ReturnType<typeof importRoster>>) => {
  expect(res.statusCode, res.body).toBe(200);
  return res.json<RosterImportResult>();
};

describe('POST /api/courses/:id/roster-import (plain CSV)', () => {
  it('dry run: lists additions, members not in the file, duplicates and bad rows; changes nothing', async () => {
    const c = await course();
    await joinCourse(t, member, c);
    const ana = at('ana');
    const formula = `=cmd|' /C calc'!A0`;
    const csv =
      '\uFEFFName,Email\r\n' +
      `"Lovelace, Ada",${ana.toUpperCase()}\r\n` +
      `"${formula}",${at('bob')}\r\n` +
      `Ada Again,${ana}\r\n` +
      'No Address,\r\n' +
      'Not Mail,not-an-address\r\n';
    const dry = result(await importRoster(c, { csv }, { dryRun: true }));
    expect(dry).toMatchObject({
      dryRun: true,
      unchanged: 0,
      duplicates: [{ email: ana, rows: [2, 4] }],
      skipped: [
        { row: 5, reason: 'no e-mail address' },
        { row: 6, reason: '"not-an-address" is not an e-mail address' },
      ],
      remove: [{ email: member.email.toLowerCase(), fullName: 'Member Student', status: 'member' }],
    });
    expect(dry.add.map((p) => p.fullName)).toEqual(['Lovelace, Ada', formula]);
    expect(await t.app.core.db.select().from(rosterInvites).where(eq(rosterInvites.courseId, c.id))).toEqual(
      [],
    );
    await t.app.core.jobs.runDue();
    expect(t.mail.countTo(ana)).toBe(0);
  });

  it('commit: invites each new address once with the join link; the same file again changes nothing', async () => {
    const c = await course();
    await joinCourse(t, member, c);
    const [ana, bob] = [at('ana'), at('bob')];
    const formula = '=HYPERLINK("http://evil.test","x")';
    const csv = `name,email\nAna Pupil,${ana}\n"${formula.replace(/"/g, '""')}",${bob}\nMember Student,${member.email}\n`;
    const first = result(await importRoster(c, csv));
    expect(first).toMatchObject({ dryRun: false, unchanged: 1, update: [], remove: [] });
    expect(first.add.map((p) => [p.email, p.fullName])).toEqual([
      [ana, 'Ana Pupil'],
      [bob, formula],
    ]);
    await t.app.core.jobs.runDue();
    const mail = await t.mail.latestTo(ana);
    expect(mail.subject).toBe(`Roster Owner invited you to ${c.title} on Classwave`);
    expect(mail.text).toContain(`/join/${c.joinCode}`);
    const stored = await t.app.core.db.select().from(rosterInvites).where(eq(rosterInvites.email, bob));
    expect(stored[0]!.fullName).toBe(formula);

    const again = result(await importRoster(c, csv, { as: coTeacher }));
    expect(again).toMatchObject({ add: [], update: [], remove: [], unchanged: 3 });
    await t.app.core.jobs.runDue();
    expect(t.mail.countTo(ana)).toBe(1);
    expect(t.mail.countTo(bob)).toBe(1);
  });

  it('updates a renamed invitation without mailing again, and lists invitations not in the file', async () => {
    const c = await course();
    const [ana, bob] = [at('ana'), at('bob')];
    result(await importRoster(c, { csv: `name,email\nAna,${ana}\nBob,${bob}\n` }));
    const dry = result(
      await importRoster(c, { csv: `first name,last name,email\nAna,Pupil,${ana}\n` }, { dryRun: true }),
    );
    expect(dry).toMatchObject({
      add: [],
      update: [{ email: ana, fullName: 'Ana Pupil', previousName: 'Ana' }],
      remove: [{ email: bob, fullName: 'Bob', status: 'invited' }],
    });
    result(await importRoster(c, { csv: `first name,last name,email\nAna,Pupil,${ana}\n` }));
    await t.app.core.jobs.runDue();
    expect(t.mail.countTo(ana)).toBe(1);
    const rows = await t.app.core.db.select().from(rosterInvites).where(eq(rosterInvites.courseId, c.id));
    expect(rows.map((r) => [r.email, r.fullName]).sort()).toEqual([
      [ana, 'Ana Pupil'],
      [bob, 'Bob'],
    ]);
  });

  it('refuses a file with no name and e-mail header, and broken quotes, with 422 saying why', async () => {
    const c = await course();
    const noHeader = await importRoster(c, { csv: `Ana,${at('ana')}\n` }, { dryRun: true });
    expect(noHeader.statusCode).toBe(422);
    expect(noHeader.json()).toMatchObject({
      code: 'roster_invalid',
      message: expect.stringContaining('name and email'),
    });
    const broken = await importRoster(c, { csv: 'name,email\n"Ana,ana@x.test\n' }, { dryRun: true });
    expect(broken.statusCode).toBe(422);
    expect(broken.json().message).toMatch(/not a CSV file we can read/);
  });

  it('takes 10,000 rows and refuses 10,001 with 413 naming the limit', async () => {
    const c = await course();
    const rows = (count: number) =>
      'name,email\n' +
      Array.from({ length: count }, (_, i) => `Student ${i},s${i}@big.school.test`).join('\n');
    const ok = result(await importRoster(c, { csv: rows(10_000) }, { dryRun: true }));
    expect(ok.add).toHaveLength(10_000);
    const over = await importRoster(c, { csv: rows(10_001) }, { dryRun: true });
    expect(over.statusCode).toBe(413);
    expect(over.json()).toMatchObject({
      code: 'roster_too_large',
      message: expect.stringContaining('10,000'),
    });
  });

  it('refuses a commit while joining is off: the invitation is the join link', async () => {
    const c = await course();
    await t.app.inject({
      method: 'POST',
      url: `/api/courses/${c.id}/join-code`,
      headers: owner.headers,
      payload: { action: 'disable' },
    });
    const res = await importRoster(c, { csv: `name,email\nAna,${at('ana')}\n` });
    expect([res.statusCode, res.json().code]).toEqual([409, 'join_disabled']);
  });
});

describe('POST /api/courses/:id/roster-import (OneRoster 1.2)', () => {
  const users = (ana: string, tom: string) =>
    'sourcedId,status,dateLastModified,enabledUser,username,givenName,familyName,role,email\n' +
    `u1,active,2026-01-01,true,ana,Ana,Pupil,student,${ana}\n` +
    `u2,active,2026-01-01,true,tom,Tom,Teacher,teacher,${tom}\n` +
    `u3,active,2026-01-01,true,zed,Zed,Other,student,zed@pupils.school.test\n`;
  const enrollments =
    'sourcedId,status,dateLastModified,classSourcedId,schoolSourcedId,userSourcedId,role,primary\n' +
    'e1,active,2026-01-01,class-7b,s1,u1,student,false\n' +
    'e2,active,2026-01-01,class-7b,s1,u2,teacher,true\n' +
    'e3,active,2026-01-01,class-8a,s1,u3,student,false\n';

  it('needs the class when the export holds several, then takes its students only', async () => {
    const c = await course();
    const [ana, tom] = [at('ana'), at('tom')];
    const which = await importRoster(c, { users: users(ana, tom), enrollments }, { dryRun: true });
    expect(which.statusCode).toBe(422);
    expect(which.json().message).toContain('class-7b, class-8a');
    const dry = result(
      await importRoster(
        c,
        { users: users(ana, tom), enrollments, classSourcedId: 'class-7b' },
        { dryRun: true },
      ),
    );
    expect(dry.add).toEqual([{ email: ana, fullName: 'Ana Pupil', sourcedId: 'u1' }]);
  });

  it('finds a person again by sourcedId after a change of address, and invites the new address', async () => {
    const c = await course();
    const [ana, tom, anaNew] = [at('ana'), at('tom'), at('ana-new')];
    result(await importRoster(c, { users: users(ana, tom), enrollments, classSourcedId: 'class-7b' }));
    const moved = result(
      await importRoster(c, { users: users(anaNew, tom), enrollments, classSourcedId: 'class-7b' }),
    );
    expect(moved).toMatchObject({
      add: [],
      update: [{ email: anaNew, previousName: 'Ana Pupil' }],
      remove: [],
    });
    await t.app.core.jobs.runDue();
    expect(t.mail.countTo(anaNew)).toBe(1);
    const again = result(
      await importRoster(c, { users: users(anaNew, tom), enrollments, classSourcedId: 'class-7b' }),
    );
    expect(again).toMatchObject({ add: [], update: [], unchanged: 1 });
  });
});

describe('a roster-invited student who signs up', () => {
  const coursesOf = async (who: { headers: Record<string, string> }) =>
    (await t.app.inject({ method: 'GET', url: '/api/courses', headers: who.headers })).json<Course[]>();
  const asStudent = async (email: string) => {
    const { session, accessToken } = await signIn(t, email);
    return { id: session.user.id, headers: bearer(accessToken) };
  };

  it('is in the course once they verify the invited address (password sign-up), without the join link', async () => {
    const c = await course();
    const archived = await course();
    const email = at('invited');
    result(await importRoster(c, { csv: `name,email\nInvi Ted,${email}\n` }));
    result(await importRoster(archived, { csv: `name,email\nInvi Ted,${email}\n` }));
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/courses/${archived.id}/archive`,
          headers: owner.headers,
        })
      ).statusCode,
    ).toBe(200);
    const ownerTab = await connect(url, owner.token);

    // The address as they type it: case and spaces are not the file's.
    await createVerifiedUser(t, { email: email.toUpperCase(), fullName: 'Invi Ted' });
    const student = await asStudent(email);
    expect((await coursesOf(student)).map((x) => x.id)).toEqual([c.id]);
    const heard = await ownerTab.waitFor((e) => e.type === 'member:joined');
    expect(heard.data).toMatchObject({ course: { id: c.id }, member: { student: { id: student.id } } });
    ownerTab.close();
    const roster = await t.app.inject({
      method: 'GET',
      url: `/api/courses/${c.id}/members`,
      headers: owner.headers,
    });
    expect(roster.json<Array<{ student: { id: string }; status: string }>>()).toEqual([
      expect.objectContaining({ student: expect.objectContaining({ id: student.id }), status: 'active' }),
    ]);

    // Idempotent: the join link says "already a member", the same file again changes nothing.
    const join = await t.app.inject({
      method: 'POST',
      url: '/api/courses/join',
      headers: student.headers,
      payload: { code: c.joinCode },
    });
    expect(join.statusCode).toBe(200);
    expect(result(await importRoster(c, { csv: `name,email\nInvi Ted,${email}\n` }))).toMatchObject({
      add: [],
      update: [],
      remove: [],
      unchanged: 1,
    });
    // A file without them lists them once, as the member they are now (not also as an invitation).
    const without = result(
      await importRoster(c, { csv: `name,email\nSomeone Else,${at('else')}\n` }, { dryRun: true }),
    );
    expect(without.remove).toEqual([expect.objectContaining({ email, status: 'member' })]);
  });

  it('is not brought back by a later verification run once they have left', async () => {
    const c = await course();
    const email = at('leaver');
    result(await importRoster(c, { csv: `name,email\nLea Ver,${email}\n` }));
    await createVerifiedUser(t, { email, fullName: 'Lea Ver' });
    const student = await asStudent(email);
    expect((await coursesOf(student)).map((x) => x.id)).toEqual([c.id]);
    const left = await t.app.inject({
      method: 'POST',
      url: `/api/courses/${c.id}/leave`,
      headers: student.headers,
    });
    expect(left.statusCode, left.body).toBe(204);
    // The job again (as a poller would retry it): their leaving stands.
    await scheduleAccountVerified(t.app.core.db, student.id, new Date());
    await t.app.core.jobs.runNow([accountVerifiedJobKey(student.id)]);
    expect(await coursesOf(student)).toEqual([]);
  });

  it('is in the course when a password reset link proves the address instead of the verification link', async () => {
    const c = await course();
    const email = at('resetter');
    result(await importRoster(c, { csv: `name,email\nRe Setter,${email}\n` }));
    const signup = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { email, password: 'first passphrase here', fullName: 'Re Setter' },
    });
    expect(signup.statusCode).toBe(200);
    const before = t.mail.countTo(email);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/auth/recover', payload: { email } })).statusCode,
    ).toBe(200);
    const token = new URL(resetLinkIn(await t.mail.nthTo(email, before + 1))).searchParams.get('token');
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/auth/reset',
      payload: { token, password: PASSWORD },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    const student = await asStudent(email);
    expect((await coursesOf(student)).map((x) => x.id)).toEqual([c.id]);
  });

  it('a teacher account with an address on the file is not made a student of the course', async () => {
    const c = await course();
    const email = at('teacher');
    result(await importRoster(c, { csv: `name,email\nTea Cher,${email}\n` }));
    await createVerifiedUser(t, { email, role: 'teacher', fullName: 'Tea Cher' });
    const members = await t.app.inject({
      method: 'GET',
      url: `/api/courses/${c.id}/members`,
      headers: owner.headers,
    });
    expect(members.json()).toEqual([]);
  });
});
