import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, PASSWORD, uniqueEmail, type TestApp } from '../../test/support/app.js';

const apps: TestApp[] = [];
afterAll(() => Promise.all(apps.map((a) => a.close())));
async function appWith(env: Record<string, string>) {
  const t = await createTestApp({ env });
  apps.push(t);
  return t;
}
const signUp = (t: TestApp, payload: Record<string, unknown>) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/signup',
    payload: { password: PASSWORD, fullName: 'New Person', ...payload },
  });

describe('TEACHER_SIGNUP', () => {
  it('open: anyone may sign up as a teacher, and the settings say so', async () => {
    const t = await appWith({});
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/settings' })).json()).toEqual({
      teacherSignup: 'open',
      passwordSignin: true,
    });
    expect((await signUp(t, { email: uniqueEmail(), role: 'teacher' })).statusCode).toBe(200);
  });

  it('domains: only addresses at the listed domains become teachers; students sign up from anywhere', async () => {
    const t = await appWith({ TEACHER_SIGNUP: 'domains:staff.school.test' });
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/settings' })).json()).toEqual({
      teacherSignup: 'domains',
      domains: ['staff.school.test'],
      passwordSignin: true,
    });
    const refused = await signUp(t, { email: 'someone@gmail.test', role: 'teacher' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      code: 'teacher_signup_not_allowed',
      message: expect.stringContaining('@staff.school.test'),
    });
    expect(t.mail.countTo('someone@gmail.test')).toBe(0);
    expect(
      (await signUp(t, { email: `Ms.Lee.${Date.now()}@Staff.School.test`, role: 'teacher' })).statusCode,
    ).toBe(200);
    expect((await signUp(t, { email: 'pupil@gmail.test' })).statusCode).toBe(200);
  });

  it('code: a teacher needs the invite code', async () => {
    const t = await appWith({ TEACHER_SIGNUP: 'code', TEACHER_INVITE_CODE: 'staff-room-2026' });
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/settings' })).json()).toEqual({
      teacherSignup: 'code',
      passwordSignin: true,
    });
    const missing = await signUp(t, { email: uniqueEmail(), role: 'teacher' });
    expect(missing.statusCode).toBe(403);
    expect(missing.json().message).toMatch(/invite code/);
    const wrong = await signUp(t, { email: uniqueEmail(), role: 'teacher', teacherCode: 'guess' });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().code).toBe('teacher_signup_not_allowed');
    const right = await signUp(t, { email: uniqueEmail(), role: 'teacher', teacherCode: 'staff-room-2026' });
    expect(right.statusCode).toBe(200);
  });
});
