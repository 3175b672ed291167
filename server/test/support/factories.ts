import type { Assignment, Course, OwnSubmission } from '@classwave/shared';
import { bearer, createVerifiedUser, signIn, type TestApp } from './app.js';
import { teacherInviteTokenIn } from './mail-catcher.js';

export interface Actor {
  id: string;
  email: string;
  fullName: string;
  token: string;
  headers: { authorization: string };
}

async function createActor(t: TestApp, role: 'student' | 'teacher', fullName: string): Promise<Actor> {
  const { email } = await createVerifiedUser(t, { role, fullName });
  const { accessToken, session } = await signIn(t, email);
  return { id: session.user.id, email, fullName, token: accessToken, headers: bearer(accessToken) };
}

export const createTeacher = (t: TestApp, fullName = 'Grace Teacher') => createActor(t, 'teacher', fullName);
export const createStudent = (t: TestApp, fullName = 'Sam Student') => createActor(t, 'student', fullName);

let courseCounter = 0;
export async function createCourse(
  t: TestApp,
  teacher: Actor,
  body: Partial<{ title: string; code: string; description: string }> = {},
): Promise<Course> {
  const n = ++courseCounter;
  // TF: a prefix no sample course uses, so a teacher who also generated samples never has the code (codes are unique per teacher).
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/courses',
    headers: teacher.headers,
    payload: { title: `Course ${n}`, code: `TF${n}`, description: `About course ${n}.`, ...body },
  });
  if (res.statusCode !== 201) throw new Error(`createCourse: ${res.statusCode} ${res.body}`);
  return res.json();
}

export const inDays = (days: number) => new Date(Date.now() + days * 24 * 3600 * 1000).toISOString();

export async function createAssignment(
  t: TestApp,
  teacher: Actor,
  course: Course,
  body: Partial<{
    title: string;
    description: string;
    dueDate: string;
    maxPoints: number;
    gradeRelease: 'auto' | 'manual';
    categoryId: string | null;
    /** 'all' (the default) or the ids of the students it is for (DESIGN §20). */
    assignees: 'all' | string[];
  }> = {},
): Promise<Assignment> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/assignments',
    headers: teacher.headers,
    payload: { title: 'Essay', dueDate: inDays(7), courseId: course.id, ...body },
  });
  if (res.statusCode !== 201) throw new Error(`createAssignment: ${res.statusCode} ${res.body}`);
  return res.json();
}

export async function submit(
  t: TestApp,
  student: Actor,
  assignment: Assignment,
  content = 'My answer.',
): Promise<OwnSubmission> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/assignments/${assignment.id}/submissions`,
    headers: student.headers,
    payload: { content },
  });
  if (res.statusCode !== 201) throw new Error(`submit: ${res.statusCode} ${res.body}`);
  // The teacher's batch follows the answer (issue 15); tests that then move the clock or read the
  // batch mean "after this submission", as a real one is a few milliseconds later.
  await t.app.core.afterCommit.settled();
  return res.json();
}

/** The student joins the course with its code (as its teacher would hand it out). */
export async function joinCourse(t: TestApp, student: Actor, course: Course): Promise<Course> {
  if (!course.joinCode) throw new Error('joinCourse: pass the course as its teacher sees it (with joinCode)');
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/courses/join',
    headers: student.headers,
    payload: { code: course.joinCode },
  });
  if (res.statusCode !== 200) throw new Error(`joinCourse: ${res.statusCode} ${res.body}`);
  return (res.json() as { course: Course }).course;
}

/** A teacher's new course with `students` members, each named apart ("Student 1", "Student 2", …). */
export async function createClass(
  t: TestApp,
  students: number,
  course: Parameters<typeof createCourse>[2] = {},
): Promise<{ teacher: Actor; course: Course; students: Actor[] }> {
  const teacher = await createTeacher(t);
  const created = await createCourse(t, teacher, course);
  const members = await Promise.all(
    Array.from({ length: students }, (_, i) => createStudent(t, `Student ${i + 1}`)),
  );
  await Promise.all(members.map((s) => joinCourse(t, s, created)));
  return { teacher, course: created, students: members };
}

/**
 * The owner invites `teacher` to co-teach the course (DESIGN §20); the token of the mailed link.
 * Waits for this invitation's own mail, not an earlier one to the same address (so invitations to
 * one address must not be sent in parallel).
 */
export async function inviteCoTeacher(
  t: TestApp,
  owner: Actor,
  course: Course,
  email: string,
): Promise<string> {
  const before = t.mail.countTo(email);
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/courses/${course.id}/teachers`,
    headers: owner.headers,
    payload: { email },
  });
  if (res.statusCode !== 201) throw new Error(`inviteCoTeacher: ${res.statusCode} ${res.body}`);
  return teacherInviteTokenIn(await t.mail.nthTo(email, before + 1));
}

/** `teacher` co-teaches the owner's course: invited by e-mail, accepted from the mailed link. */
export async function addCoTeacher(t: TestApp, owner: Actor, course: Course, teacher: Actor): Promise<void> {
  const token = await inviteCoTeacher(t, owner, course, teacher.email);
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/teacher-invites/${token}/accept`,
    headers: teacher.headers,
  });
  if (res.statusCode !== 200) throw new Error(`addCoTeacher: ${res.statusCode} ${res.body}`);
}
