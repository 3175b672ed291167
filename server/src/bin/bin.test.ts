import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN_KEEP_DAYS, type Assignment, type BinList, type Course } from '@classwave/shared';
import { eq } from 'drizzle-orm';
import { bearer, signIn } from '../../test/support/app.js';
import {
  createAssignment,
  createCourse,
  createStudent,
  createTeacher,
  inDays,
  joinCourse,
  submit,
  type Actor,
} from '../../test/support/factories.js';
import { liveTestApp, type LiveTestApp } from '../../test/support/live-app.js';
import { barrier } from '../../test/support/sockets.js';
import { assignments, courses, submissions } from '../db/schema.js';

const DAY_MS = 24 * 3600 * 1000;

let t: LiveTestApp;
beforeAll(async () => {
  t = await liveTestApp();
});
afterAll(() => t.close());

const call = (actor: Actor, method: 'GET' | 'POST' | 'DELETE' | 'PATCH', path: string, payload?: object) =>
  t.app.inject({ method, url: path, headers: actor.headers, ...(payload ? { payload } : {}) });

/** A class of three: all submitted, two graded; a fourth member with a draft. */
async function classWithWork(title = 'Tidepool-7c2 essay') {
  const teacher = await createTeacher(t, 'Bina Teacher');
  const course = await createCourse(t, teacher);
  const students = await Promise.all([1, 2, 3, 4].map((i) => createStudent(t, `Student ${i}`)));
  await Promise.all(students.map((s) => joinCourse(t, s, course)));
  const assignment = await createAssignment(t, teacher, course, { title, dueDate: inDays(5) });
  const own = await Promise.all(students.slice(0, 3).map((s) => submit(t, s, assignment)));
  for (const s of own.slice(0, 2)) {
    const graded = await call(teacher, 'PATCH', `/api/submissions/${s.id}`, { grade: 9, baseVersion: 0 });
    expect(graded.statusCode).toBe(200);
  }
  const draft = await t.app.inject({
    method: 'PUT',
    url: `/api/assignments/${assignment.id}/draft`,
    headers: students[3]!.headers,
    payload: { content: 'Half an answer', baseVersion: 0 },
  });
  expect(draft.statusCode).toBe(200);
  return { teacher, course, students, assignment };
}

const binOf = async (teacher: Actor, course: Course) => {
  const res = await call(teacher, 'GET', `/api/courses/${course.id}/bin`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<BinList>().items;
};

describe('GET /api/bin/:kind/:id/contents', () => {
  it('names what a delete would move to the bin, to the teacher only', async () => {
    const { teacher, course, students, assignment } = await classWithWork();
    const ofAssignment = await call(teacher, 'GET', `/api/bin/assignment/${assignment.id}/contents`);
    expect(ofAssignment.json()).toEqual({
      submissions: 3,
      grades: 2,
      drafts: 1,
      assignments: 0,
      students: 0,
    });
    const ofCourse = await call(teacher, 'GET', `/api/bin/course/${course.id}/contents`);
    expect(ofCourse.json()).toEqual({ submissions: 3, grades: 2, drafts: 1, assignments: 1, students: 4 });
    expect(
      (await call(students[0]!, 'GET', `/api/bin/assignment/${assignment.id}/contents`)).statusCode,
    ).toBe(403);
    expect((await call(teacher, 'GET', `/api/bin/folder/${assignment.id}/contents`)).statusCode).toBe(400);
  });
});

describe('DELETE /api/assignments/:id', () => {
  it('moves graded work to the bin, where its teacher sees what it holds and until when', async () => {
    const { teacher, course, assignment } = await classWithWork();
    expect((await call(teacher, 'DELETE', `/api/assignments/${assignment.id}`)).statusCode).toBe(204);
    const binnedAt = t.clock.now().getTime();

    const list = (await call(teacher, 'GET', '/api/assignments')).json<Assignment[]>();
    expect(list.map((a) => a.id)).not.toContain(assignment.id);
    const [item, ...rest] = await binOf(teacher, course);
    expect(rest).toEqual([]);
    expect(item).toMatchObject({
      kind: 'assignment',
      id: assignment.id,
      title: assignment.title,
      courseId: course.id,
      contents: { submissions: 3, grades: 2, drafts: 1 },
    });
    const purgeIn = Date.parse(item!.purgeAt) - Date.parse(item!.deletedAt);
    expect(purgeIn).toBe(BIN_KEEP_DAYS * DAY_MS);
    expect(Math.abs(Date.parse(item!.deletedAt) - binnedAt)).toBeLessThan(5000);
    const all = (await call(teacher, 'GET', '/api/bin')).json<BinList>();
    expect(all.items.map((i) => i.id)).toEqual([assignment.id]);
    // The work is still there, only out of sight.
    const kept = await t.app.core.db
      .select()
      .from(submissions)
      .where(eq(submissions.assignmentId, assignment.id));
    expect(kept).toHaveLength(3);
    // Binned, it can no longer be edited, graded or listed anywhere by its teacher either.
    expect(
      (await call(teacher, 'PATCH', `/api/assignments/${assignment.id}`, { title: 'X' })).statusCode,
    ).toBe(404);
    expect((await call(teacher, 'GET', `/api/assignments/${assignment.id}/submissions`)).statusCode).toBe(
      404,
    );
    expect((await call(teacher, 'DELETE', `/api/assignments/${assignment.id}`)).statusCode).toBe(404);
  });
});

describe('a binned assignment, as its students see it', () => {
  it('is gone from every read, event and replay at once, and back with their work on restore', async () => {
    const { teacher, course, students, assignment } = await classWithWork('Quillfeather-93b essay');
    const [ada] = students as [Actor];
    const mentions = (text: string) => text.includes('Quillfeather-93b') || text.includes(assignment.id);
    const feed = await call(ada, 'POST', '/api/calendar/feed');
    const ics = new URL(feed.json<{ url: string }>().url).pathname;
    const cursor = (await call(ada, 'GET', '/api/events')).json<{ lastId: number }>().lastId;
    const live = await t.tab(ada);

    expect((await call(teacher, 'DELETE', `/api/assignments/${assignment.id}`)).statusCode).toBe(204);
    await live.waitFor((e) => e.type === 'assignment:deleted');
    await barrier(live);

    const reads = [
      '/api/assignments',
      `/api/courses/${course.id}`,
      '/api/dashboard',
      '/api/grades',
      '/api/me/export',
      '/api/notifications',
      '/api/todo',
      `/api/calendar?from=${encodeURIComponent(inDays(-1))}&to=${encodeURIComponent(inDays(30))}`,
    ];
    const readsThatMention = async () => {
      const found: string[] = [];
      for (const path of reads) {
        const res = await call(ada, 'GET', path);
        expect(res.statusCode, path).toBe(200);
        if (mentions(res.body)) found.push(path);
      }
      if (mentions((await t.app.inject({ method: 'GET', url: ics })).body)) found.push('ics');
      return found;
    };
    expect(await readsThatMention()).toEqual([]);
    // By id, every route about the assignment answers as if it never was.
    expect((await call(ada, 'GET', `/api/assignments/${assignment.id}/draft`)).statusCode).toBe(404);
    expect((await call(ada, 'GET', `/api/assignments/${assignment.id}/submission`)).statusCode).toBe(404);
    const resubmit = await call(ada, 'POST', `/api/assignments/${assignment.id}/submissions`, {
      content: 'x',
    });
    expect(resubmit.statusCode).toBe(404);
    // The replay from before the delete carries the delete and nothing of the assignment's content.
    const replay = (await call(ada, 'GET', `/api/events?after=${cursor}`)).json<{
      events: Array<{ type: string; data: unknown }>;
    }>();
    expect(replay.events.filter((e) => mentions(JSON.stringify(e))).map((e) => e.type)).toEqual([
      'assignment:deleted',
    ]);
    expect(JSON.stringify(replay)).not.toContain('Quillfeather-93b');

    const restored = await call(teacher, 'POST', `/api/bin/assignment/${assignment.id}/restore`);
    expect(restored.statusCode, restored.body).toBe(204);
    const back = await live.waitFor((e) => e.type === 'assignment:created');
    // No status for the class: each member's tab reads its own work on it again.
    expect(back.data).toMatchObject({ id: assignment.id, title: 'Quillfeather-93b essay', status: null });
    const mine = (await call(ada, 'GET', '/api/assignments')).json<Assignment[]>();
    expect(mine.find((a) => a.id === assignment.id)).toMatchObject({
      submission: { grade: 9 },
      status: 'returned',
    });
    expect(await readsThatMention()).toEqual(expect.arrayContaining(['/api/assignments', '/api/grades']));
    // One "new assignment" entry, from when it was made: a restore tells nobody it is new.
    await t.app.core.jobs.runDue();
    const inbox = (await call(ada, 'GET', '/api/notifications')).json<{
      items: Array<{ kind: string; assignmentId: string | null }>;
    }>();
    expect(inbox.items.filter((n) => n.assignmentId === assignment.id).map((n) => n.kind)).toEqual([
      'grade_returned',
      'assignment_created',
    ]);
    expect(await binOf(teacher, course)).toEqual([]);
  });
});

describe('DELETE /api/courses/:id', () => {
  it('is refused while live assignments remain; then binned with its roster, and restored whole', async () => {
    const { teacher, course, students, assignment } = await classWithWork();
    const [ada] = students as [Actor];
    const refused = await call(teacher, 'DELETE', `/api/courses/${course.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('It has 1 assignment. Delete it first.');
    expect((await call(teacher, 'DELETE', `/api/assignments/${assignment.id}`)).statusCode).toBe(204);
    const live = await t.tab(ada);
    expect((await call(teacher, 'DELETE', `/api/courses/${course.id}`)).statusCode).toBe(204);
    await live.waitFor((e) => e.type === 'course:deleted');

    expect((await call(ada, 'GET', '/api/courses')).json<Course[]>().map((c) => c.id)).not.toContain(
      course.id,
    );
    expect((await call(teacher, 'GET', '/api/courses')).json<Course[]>().map((c) => c.id)).not.toContain(
      course.id,
    );
    expect((await call(ada, 'GET', `/api/courses/${course.id}`)).statusCode).toBe(404);
    expect((await call(teacher, 'GET', `/api/courses/${course.id}`)).statusCode).toBe(404);
    const stranger = await createStudent(t);
    const join = await call(stranger, 'POST', '/api/courses/join', { code: course.joinCode });
    expect(join.statusCode).toBe(404);
    // Its code is free for a new course meanwhile.
    const again = await call(teacher, 'POST', '/api/courses', {
      title: 'Again',
      code: course.code,
      description: 'D',
    });
    expect(again.statusCode).toBe(201);

    // Its own bin answers for the binned course's id: the course, and the assignment inside it.
    const items = await binOf(teacher, course);
    expect(items.map((i) => [i.kind, i.id])).toEqual([
      ['course', course.id],
      ['assignment', assignment.id],
    ]);
    expect(items[0]!.contents).toEqual({ submissions: 3, grades: 2, drafts: 1, assignments: 1, students: 4 });
    const early = await call(teacher, 'POST', `/api/bin/assignment/${assignment.id}/restore`);
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(`Restore the course ${course.title} first.`);
    // The new course took its code: the restore says so, and goes through once that is changed.
    const clash = await call(teacher, 'POST', `/api/bin/course/${course.id}/restore`);
    expect(clash.statusCode).toBe(409);
    await call(teacher, 'PATCH', `/api/courses/${again.json<Course>().id}`, { code: 'AGAIN1' });

    expect((await call(teacher, 'POST', `/api/bin/course/${course.id}/restore`)).statusCode).toBe(204);
    const back = await live.waitFor((e) => e.type === 'course:created');
    expect(back.data).toMatchObject({ id: course.id, joinCode: null });
    expect((await call(ada, 'GET', '/api/courses')).json<Course[]>().map((c) => c.id)).toContain(course.id);
    expect((await call(teacher, 'POST', `/api/bin/assignment/${assignment.id}/restore`)).statusCode).toBe(
      204,
    );
    const detail = (await call(ada, 'GET', `/api/courses/${course.id}`)).json<{
      assignments: Assignment[];
    }>();
    expect(detail.assignments.map((a) => a.id)).toEqual([assignment.id]);
  });
});

describe('POST /api/bin/:kind/:id/restore', () => {
  it('answers 400 to an unknown kind, and 404 to anyone but the teacher or to what is not binned', async () => {
    const { teacher, students, assignment } = await classWithWork();
    const other = await createTeacher(t);
    expect((await call(teacher, 'POST', `/api/bin/lesson/${assignment.id}/restore`)).statusCode).toBe(400);
    expect((await call(teacher, 'POST', `/api/bin/assignment/${assignment.id}/restore`)).statusCode).toBe(
      404,
    );
    await call(teacher, 'DELETE', `/api/assignments/${assignment.id}`);
    for (const who of [other, students[0]!])
      expect((await call(who, 'POST', `/api/bin/assignment/${assignment.id}/restore`)).statusCode).toBe(404);
    expect((await call(teacher, 'POST', `/api/bin/course/${assignment.id}/restore`)).statusCode).toBe(404);
  });
});

describe('the purge job', () => {
  it(`removes binned work for good after ${BIN_KEEP_DAYS} days, and nothing restored meanwhile`, async () => {
    const made = await classWithWork();
    const { course, assignment } = made;
    let teacher = made.teacher;
    // Days on, the teacher signs in again (access tokens follow the test's clock).
    const signInAgain = async () => {
      const { accessToken } = await signIn(t, teacher.email);
      teacher = { ...teacher, token: accessToken, headers: bearer(accessToken) };
    };
    const second = await createAssignment(t, teacher, course, { title: 'Kept' });
    await call(teacher, 'DELETE', `/api/assignments/${assignment.id}`);
    await call(teacher, 'DELETE', `/api/assignments/${second.id}`);
    await call(teacher, 'POST', `/api/bin/assignment/${second.id}/restore`);
    const empty = await createCourse(t, teacher);
    await call(teacher, 'DELETE', `/api/courses/${empty.id}`);
    const rowsOf = async () => ({
      assignment: await t.app.core.db.select().from(assignments).where(eq(assignments.id, assignment.id)),
      work: await t.app.core.db.select().from(submissions).where(eq(submissions.assignmentId, assignment.id)),
      course: await t.app.core.db.select().from(courses).where(eq(courses.id, empty.id)),
    });

    t.clock.advance((BIN_KEEP_DAYS - 1) * DAY_MS);
    await t.app.core.jobs.runDue();
    await signInAgain();
    expect((await binOf(teacher, course)).map((i) => i.id)).toEqual([assignment.id]);
    expect((await rowsOf()).work).toHaveLength(3);

    t.clock.advance(DAY_MS + 1000);
    await t.app.core.jobs.runDue();
    const after = await rowsOf();
    expect(after).toEqual({ assignment: [], work: [], course: [] });
    await signInAgain();
    expect(await binOf(teacher, course)).toEqual([]);
    expect((await call(teacher, 'GET', '/api/bin')).json<BinList>().items).toEqual([]);
    expect((await call(teacher, 'GET', `/api/courses/${course.id}`)).json().assignments).toEqual([
      expect.objectContaining({ id: second.id }),
    ]);
  });
});
